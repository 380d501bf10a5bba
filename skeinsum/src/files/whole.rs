//! A batch's files (`crate::batch`): each opened, its snapshot taken of
//! the open file, read whole with one `pread` or mapped whole, and checked
//! against that snapshot after hashing.
//!
//! Five system calls for a file read: `open`, `fstat` (the snapshot: size,
//! mtime, and whether it is a regular file at all: `Snapshot::of_open`),
//! one `pread`, `fstat` after hashing ([`Whole::settle`]) and `close`. The name is looked up
//! once, by the open: a lookup by name before it (as the batch once made,
//! to plan its windows) walks the path a second time, which cost more than
//! the `open` itself for small files (docs/skeinsum.md, "Small files: one
//! lookup per file"). The read asks for one byte more than the size, so
//! that a file holding more than `fstat` says is seen without a second
//! read at the end; a read that stops short of what it asked for is the end
//! (as a regular file's is). A name that is no regular file when opened
//! (a FIFO, a device, a directory) is not read here: the sequential path
//! takes it.

use std::fs::File;
use std::io;

use memmap2::Mmap;

use super::mapped::map_whole;
use super::open::{leased, open_nonblocking};
use super::sigbus::Guard;
use super::{out_of_descriptors, unchanged, InputError, Origin, Snapshot};

/// The bytes of a file, read or mapped.
enum Data {
    Read(Vec<u8>),
    /// Mapped whole, watched by the guard until hashed (the guard first, so
    /// that it is dropped before the mapping it watches).
    Mapped(Guard, Mmap),
}

/// A file open and read or mapped whole, ready to hash.
pub struct Whole {
    file: File,
    before: Snapshot,
    data: Data,
}

/// What became of a name when opened ([`open_regular`]).
pub enum Opened {
    Ready(Regular),
    /// For the sequential path, with the file if it is a FIFO or device
    /// open and untouched, to be handed on as it is.
    Sequential(Option<File>),
    /// No descriptor was free (`EMFILE`, `ENFILE`): never this file's
    /// error; the sequential path opens it when its turn comes (see
    /// [`super::descriptors`]).
    NoDescriptor,
}

/// A regular file open, its snapshot taken, not yet read.
pub struct Regular {
    file: File,
    before: Snapshot,
}

/// Open `name` (from `origin`) without waiting and take its snapshot.
/// `Sequential`: it is not a regular file of 1 to `max_len` bytes; a named
/// file that is no regular file nor directory (a FIFO, a device) is handed
/// on open, as it is (closing a FIFO and opening it again could wait for
/// ever for a writer that this open let through).
pub fn open_regular(name: &[u8], origin: Origin, max_len: u64) -> Result<Opened, InputError> {
    // A name found by `-r` that is a link now (`ELOOP`) or a FIFO, device
    // or directory goes to the sequential path, which skips it.
    let file = match open_nonblocking(name, origin) {
        Ok(file) => file,
        Err(e) if out_of_descriptors(&e) => return Ok(Opened::NoDescriptor),
        // A lease: the sequential path's open waits for it to be let go
        // (this open has started the break), where this thread would hold
        // up the others.
        Err(e) if leased(&e) => return Ok(Opened::Sequential(None)),
        Err(_) if origin != Origin::Named => return Ok(Opened::Sequential(None)),
        Err(e) => return Err(e.into()),
    };
    match Snapshot::of_open(&file)? {
        (Some(before), _) if before.len > 0 && before.len <= max_len => {
            Ok(Opened::Ready(Regular { file, before }))
        }
        // Empty (procfs and sysfs files say 0 and hold more) or too large:
        // read or mapped in windows by the sequential path.
        (Some(_), _) => Ok(Opened::Sequential(None)),
        (None, is_dir) => Ok(Opened::Sequential(hand_on(file, is_dir, origin))),
    }
}

impl Regular {
    /// The size its snapshot gives.
    pub fn len(&self) -> u64 {
        self.before.len
    }

    /// Read it (into a buffer taken from `buffer` only then) or, if it
    /// holds at least `map_min` bytes, map it whole. `None`, for the
    /// sequential path: it holds more or less than its size, or no memory
    /// was to be had for it.
    pub fn read(
        self,
        map_min: Option<u64>,
        buffer: impl FnOnce() -> Vec<u8>,
    ) -> Result<Option<Whole>, InputError> {
        let Regular { file, before } = self;
        if map_min.is_some_and(|min| before.len >= min) {
            if let Some((guard, map)) = map_whole(&file, before.len as usize) {
                return Ok(Some(Whole {
                    file,
                    before,
                    data: Data::Mapped(guard, map),
                }));
            }
            // Refused (a file system without mmap, no room in the address
            // space), or every guard slot taken: read it instead.
        }
        read_whole(file, before, buffer)
    }
}

/// [`Regular::read`] without mapping.
fn read_whole(
    file: File,
    before: Snapshot,
    buffer: impl FnOnce() -> Vec<u8>,
) -> Result<Option<Whole>, InputError> {
    // A reused buffer is zeroed only where it grows.
    let mut data = buffer();
    let len = before.len as usize;
    if data
        .try_reserve_exact((len + 1).saturating_sub(data.len()))
        .is_err()
    {
        // Refused memory is never the file's own error (the other files
        // of the window hold it, or a limit on the address space): the
        // sequential path hashes it in small pieces once they are let go.
        return Ok(None);
    }
    data.resize(len + 1, 0);
    let mut filled = 0;
    while filled < len {
        match read_at(&file, &mut data[filled..], filled as u64) {
            // Less than its size: a pseudo-file whose size is a guess (sysfs
            // says 4096), or a file that shrank since; the sequential path
            // reads it to its end.
            Ok(0) => return Ok(None),
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            // A regular file's read error is this file's (what an open
            // file is cannot change).
            Err(e) => return Err(e.into()),
        }
    }
    // More than its size: the same (procfs says 0 for files with content).
    if filled > len {
        return Ok(None);
    }
    data.truncate(len);
    Ok(Some(Whole {
        file,
        before,
        data: Data::Read(data),
    }))
}

/// The open file of a name that is no regular file, for the sequential
/// path: a named FIFO or device as it is (see [`open_regular`]); a directory
/// (whose read error that path reports) or a walked name (never handed
/// over: it would be made to block; that path opens it again and skips it)
/// closed.
fn hand_on(file: File, is_dir: bool, origin: Origin) -> Option<File> {
    (origin == Origin::Named && !is_dir).then_some(file)
}

/// Of the files a window's opens handed on (FIFOs and devices, in the
/// order of their names), keep the first of each file (by device and
/// inode) and close the others: the sequential path opens those names
/// again when their turn comes, as `sha256sum` would. A second name of the
/// same FIFO must not read through a descriptor of its own taken at window
/// time: once the first name's writer has come and gone, that descriptor
/// reads the end at once (the empty input), where a fresh open waits for
/// the next writer. Closing it is harmless while the first is held (the
/// pipe keeps what a writer wrote as long as one reader is open), unlike
/// closing the first ([`open_regular`]). A file whose identity cannot be
/// had is kept.
pub fn keep_first_of_each<'a>(handed: impl IntoIterator<Item = &'a mut Option<File>>) {
    let mut seen = Vec::new();
    for slot in handed {
        let Some(id) = slot.as_ref().and_then(identity) else {
            continue;
        };
        if seen.contains(&id) {
            *slot = None;
        } else {
            seen.push(id);
        }
    }
}

/// The device and inode of an open file.
#[cfg(unix)]
fn identity(file: &File) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = file.metadata().ok()?;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn identity(_file: &File) -> Option<(u64, u64)> {
    None
}

#[cfg(unix)]
fn read_at(file: &File, buffer: &mut [u8], at: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buffer, at)
}

#[cfg(not(unix))]
fn read_at(mut file: &File, buffer: &mut [u8], _at: u64) -> io::Result<usize> {
    use std::io::Read;
    // Nothing but this reads the file, so its position is `at`.
    file.read(buffer)
}

impl Whole {
    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        match &self.data {
            Data::Read(v) => v,
            Data::Mapped(_, m) => m,
        }
    }

    /// After hashing: drop the mapping (a fault under it is a change) and
    /// compare the file's snapshot with the one taken when it was opened.
    /// The read buffer comes back for reuse.
    pub fn settle(self) -> (Result<(), InputError>, Option<Vec<u8>>) {
        let (faulted, buffer) = match self.data {
            Data::Mapped(guard, map) => {
                let faulted = guard.disarm();
                drop(map);
                (faulted, None)
            }
            Data::Read(buffer) => (false, Some(buffer)),
        };
        if faulted {
            return (Err(InputError::Changed), buffer);
        }
        let settled = match Snapshot::of_open(&self.file) {
            Ok((now, _)) => unchanged(Some(self.before), now),
            Err(e) => Err(e.into()),
        };
        (settled, buffer)
    }
}
