//! All of skeinsum's access to files: opening a named or walked file
//! safely ([`open`], [`held`]), what must not change while it is hashed
//! ([`Snapshot`]), reading or mapping it ([`mapped`], [`whole`]), the SIGBUS
//! guard for mappings ([`sigbus`]) and what to do when descriptors run out
//! ([`descriptors`]). The batch, the walk and the one-file path
//! (`crate::input`) open, check and map files only through this module.
//!
//! The `unsafe` of the tool lives here (memory mapping, the SIGBUS handler,
//! `fcntl`, `poll` and `getrlimit`), besides one `fcntl` in `main.rs`.

pub mod descriptors;
pub mod held;
pub mod mapped;
pub mod open;
pub mod sigbus;
pub mod whole;

use std::io;
#[cfg(not(unix))]
use std::time::SystemTime;

use crate::report::io_reason;

pub use descriptors::out_of_descriptors;

/// Why an input gave no digest.
#[derive(Debug)]
pub enum InputError {
    Io(io::Error),
    /// The file changed (size or time) or shrank under the mapping.
    Changed,
}

impl From<io::Error> for InputError {
    fn from(e: io::Error) -> Self {
        InputError::Io(e)
    }
}

impl InputError {
    /// The reason for `skeinsum: NAME: REASON`.
    pub fn reason(&self) -> String {
        match self {
            InputError::Io(e) => io_reason(e),
            InputError::Changed => "file changed while being read; no digest".to_string(),
        }
    }
    pub fn is_not_found(&self) -> bool {
        matches!(self, InputError::Io(e) if e.kind() == io::ErrorKind::NotFound)
    }
}

/// Where a name to hash comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Named by the user: whatever it is (a FIFO, a device, a link) is read.
    Named,
    /// Found by `-r` as a regular file. It may have become anything since
    /// its directory was listed: it is opened without waiting and, unless
    /// `follow_links` (`-L`), without following a link, and hashed only if
    /// it is still a regular file.
    Walked { follow_links: bool },
}

/// What must not change while a regular file is hashed: its size and its
/// modification time (to the nanosecond the file system keeps), which is
/// what shows a change of content. The status-change time is left out on
/// purpose: `chmod`, `touch -a`, `ln` and `chown` move it without touching
/// a byte. What this cannot see: a rewrite that keeps the size and sets the
/// mtime back (which takes intent), or one within one tick of the file
/// system's clock.
///
/// On Unix it also holds the file's identity (device and inode), so that
/// two snapshots are equal only if they are of the same file, and keeps
/// the mtime as the system gives it (seconds, nanoseconds), so that a
/// snapshot from `fstat` ([`Snapshot::of_open`]) and one from std's
/// metadata ([`Snapshot::of`]) are alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub len: u64,
    #[cfg(unix)]
    modified: (i64, i64),
    #[cfg(not(unix))]
    modified: Option<SystemTime>,
    #[cfg(unix)]
    identity: (u64, u64),
}

impl Snapshot {
    /// `Some` for regular files only: other inputs have no size to keep.
    pub fn of(meta: &std::fs::Metadata) -> Option<Snapshot> {
        #[cfg(unix)]
        use std::os::unix::fs::MetadataExt;
        meta.is_file().then(|| Snapshot {
            len: meta.len(),
            #[cfg(unix)]
            modified: (meta.mtime(), meta.mtime_nsec()),
            #[cfg(not(unix))]
            modified: meta.modified().ok(),
            #[cfg(unix)]
            identity: (meta.dev(), meta.ino()),
        })
    }

    /// The snapshot of an open file (`None` if it is no regular file) and
    /// whether it is a directory, from one `fstat`. The batch asks this
    /// twice a file: std's `File::metadata` (a `statx` whose whole answer
    /// it converts) spent about 120 instructions a call; with this, the
    /// batch spends about 390 fewer a file (docs/skeinsum.md, "Small
    /// files: no allocation per file").
    #[cfg(unix)]
    pub fn of_open(file: &std::fs::File) -> io::Result<(Option<Snapshot>, bool)> {
        use rustix::fs::FileType;
        let stat = rustix::fs::fstat(file)?;
        let kind = FileType::from_raw_mode(stat.st_mode as _);
        // The field types differ between targets; these casts are exact
        // (the kernel's values, as std's `MetadataExt` gives them).
        let snapshot = (kind == FileType::RegularFile).then_some(Snapshot {
            len: stat.st_size as u64,
            modified: (stat.st_mtime as i64, stat.st_mtime_nsec as i64),
            identity: (stat.st_dev as u64, stat.st_ino as u64),
        });
        Ok((snapshot, kind == FileType::Directory))
    }

    /// Elsewhere: from std's metadata.
    #[cfg(not(unix))]
    pub fn of_open(file: &std::fs::File) -> io::Result<(Option<Snapshot>, bool)> {
        let meta = file.metadata()?;
        Ok((Snapshot::of(&meta), meta.is_dir()))
    }
}

/// `Err(Changed)` unless the two snapshots (both taken, or both absent) agree.
pub fn unchanged(before: Option<Snapshot>, after: Option<Snapshot>) -> Result<(), InputError> {
    if before == after {
        Ok(())
    } else {
        Err(InputError::Changed)
    }
}

/// `Is a directory`, as `read` on one says.
pub fn is_a_directory() -> io::Error {
    io::Error::new(io::ErrorKind::IsADirectory, "Is a directory")
}

/// A name of `-r` that is no regular file any more.
pub fn not_regular() -> io::Error {
    io::Error::other("not a regular file any more (changed during the walk); skipped")
}

/// A name of `-r` that is a symbolic link now, without `-L`.
pub fn became_link() -> io::Error {
    io::Error::other("a symbolic link now (changed during the walk); not followed")
}
