//! A batch's files (`crate::batch`): each opened after its name was looked
//! up, read whole with one `pread` or mapped whole, and checked against the
//! lookup after hashing.
//!
//! Five system calls for a file read: the lookup, `open`, one `pread`,
//! `fstat` after hashing ([`Whole::settle`]) and `close`. The read asks for
//! one byte more than the size, so that a file holding more than `stat`
//! says is seen without a second read at the end; a read that stops short
//! of what it asked for is the end (as a regular file's is). `pread`, not
//! `read`: should the name have become a FIFO or a terminal since it was
//! looked up, it fails (`ESPIPE`) without taking a byte from it, and the
//! open file goes to the sequential path as it is.

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

/// What became of a file when opened.
pub enum Opened {
    Ready(Whole),
    /// For the sequential path, with the file if it is open and untouched.
    Sequential(Option<File>),
    /// No descriptor was free (`EMFILE`, `ENFILE`): never this file's
    /// error; the sequential path opens it once the caller's files are
    /// closed (see [`super::descriptors`]).
    NoDescriptor,
}

/// Open `name` (from `origin`), looked up as `looked`, without waiting,
/// and read it (into a buffer taken from `buffer` only then) or, if it
/// holds at least `map_min` bytes, map it whole. `Sequential`: it is not
/// (or no longer) a regular file of at most `max_len` bytes, or holds more
/// or less than its size.
pub fn open_whole(
    name: &[u8],
    origin: Origin,
    looked: Snapshot,
    map_min: Option<u64>,
    max_len: u64,
    buffer: impl FnOnce() -> Vec<u8>,
) -> Result<Opened, InputError> {
    // A name found by `-r` that is a link now (`ELOOP`) or a FIFO, device
    // or directory is caught below (the read fails, reads more than the
    // size, or another file than the looked-up one was opened: `settle`)
    // and goes to the sequential path, which skips it.
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
    // Elsewhere a snapshot has no identity: take it of the open file.
    #[cfg(not(unix))]
    let looked = match Snapshot::of(&file.metadata()?) {
        Some(s) if s.len > 0 && s.len <= max_len => s,
        _ => return Ok(Opened::Sequential(None)),
    };
    #[cfg(unix)]
    let _ = max_len;
    let before = looked;
    if map_min.is_some_and(|min| before.len >= min) {
        if let Some((guard, map)) = map_whole(&file, before.len as usize) {
            return Ok(Opened::Ready(Whole {
                file,
                before,
                data: Data::Mapped(guard, map),
            }));
        }
        // Refused (not a regular file any more, a file system without
        // mmap, no room in the address space), or every guard slot taken:
        // read it instead.
    }
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
        return Ok(Opened::Sequential(None));
    }
    data.resize(len + 1, 0);
    let mut filled = 0;
    while filled < len {
        match read_at(&file, &mut data[filled..], filled as u64) {
            // Less than its size: a pseudo-file whose size is a guess (sysfs
            // says 4096), or a file that shrank since; the sequential path
            // reads it to its end.
            Ok(0) => return Ok(Opened::Sequential(None)),
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            // A directory, FIFO or device now (`EISDIR`, `ESPIPE`): the
            // sequential path's, untouched; a regular file's read error is
            // this file's.
            Err(e) => {
                return match Snapshot::of(&file.metadata()?) {
                    Some(_) => Err(e.into()),
                    // A walked name is never handed over (it would be made
                    // to block): the sequential path opens it again and skips it.
                    None if origin != Origin::Named => Ok(Opened::Sequential(None)),
                    None => Ok(Opened::Sequential(Some(file))),
                };
            }
        }
    }
    // More than its size: the same (procfs says 0 for files with content).
    if filled > len {
        return Ok(Opened::Sequential(None));
    }
    data.truncate(len);
    Ok(Opened::Ready(Whole {
        file,
        before,
        data: Data::Read(data),
    }))
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
    /// compare the file's snapshot with the one taken when it was looked
    /// up. `Ok(false)`: the name led to another file by the time it was
    /// opened (replaced in between), which the sequential path hashes
    /// instead. The read buffer comes back for reuse.
    pub fn settle(self) -> (Result<bool, InputError>, Option<Vec<u8>>) {
        let (faulted, buffer) = match self.data {
            Data::Mapped(guard, map) => {
                let faulted = guard.disarm();
                drop(map);
                (faulted, None)
            }
            Data::Read(buffer) => (false, Some(buffer)),
        };
        // Identity first: a file put in the name's place between the lookup
        // and the open was mapped with the length of the one looked up, so
        // a shorter one faults; that is no change of either file.
        let now = match self.file.metadata() {
            Ok(now) => Snapshot::of(&now),
            Err(e) => return (Err(e.into()), buffer),
        };
        let settled = match now {
            Some(now) if !self.before.same_file(&now) => Ok(false),
            _ if faulted => Err(InputError::Changed),
            now => unchanged(Some(self.before), now).map(|()| true),
        };
        (settled, buffer)
    }
}
