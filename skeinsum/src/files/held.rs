//! Directories of `-r` held open, and the opening of names relative to
//! them. The walk (`crate::walk`) opens each directory below an operand
//! relative to its parent's descriptor ([`open_dir`]) and holds it until the
//! files found in it are hashed ([`hold`]); while they are, [`open_entry`]
//! opens those files relative to their directory, so that a directory
//! renamed, removed or swapped for a link after it was listed cannot lead
//! anywhere else, as a path looked up again would.

use std::collections::HashMap;
use std::io;
#[cfg(unix)]
use std::os::fd::OwnedFd;
#[cfg(unix)]
use std::sync::{Arc, PoisonError, RwLock};

#[cfg(unix)]
use crate::config::bytes_os;

/// An open directory of the walk (its descriptor, shared by the walk's
/// frame and the names of its files waiting to be hashed).
#[cfg(unix)]
pub type Dir = Arc<OwnedFd>;
/// Elsewhere directories are opened by path.
#[cfg(not(unix))]
pub type Dir = ();

/// Device and inode: equal for the same directory reached twice.
pub type DirId = (u64, u64);

/// The directories of the names being hashed now, by the prefix of their
/// paths (up to and including the last `/`), for [`open_entry`].
#[cfg(unix)]
static HASHED_DIRS: RwLock<Option<HashMap<Vec<u8>, Dir>>> = RwLock::new(None);

/// `name` up to and including its last `/` (empty if it has none).
pub fn prefix_of(name: &[u8]) -> &[u8] {
    &name[..name.iter().rposition(|&c| c == b'/').map_or(0, |i| i + 1)]
}

/// Run `hash` with `dirs` (by the prefixes of the names it hashes) held for
/// [`open_entry`], and let them go afterwards.
pub fn hold<T>(dirs: HashMap<Vec<u8>, Dir>, hash: impl FnOnce() -> T) -> T {
    #[cfg(unix)]
    {
        *HASHED_DIRS.write().unwrap_or_else(PoisonError::into_inner) = Some(dirs);
        let hashed = hash();
        *HASHED_DIRS.write().unwrap_or_else(PoisonError::into_inner) = None;
        hashed
    }
    #[cfg(not(unix))]
    {
        let _ = dirs;
        hash()
    }
}

/// Open `name`, a regular file of the walk being hashed now, for reading:
/// relative to the descriptor of the directory it was listed in, without
/// waiting (`O_NONBLOCK`: it may be a FIFO now) and, unless `follow_links`
/// (`-L`), without following a link (`O_NOFOLLOW`, so `ELOOP` for one). So
/// a directory swapped for a link since it was listed is not gone through:
/// its own files are opened, or none if they are gone. A name whose
/// directory is not held (none is, outside [`hold`]) is opened by its path
/// with the same flags.
#[cfg(unix)]
pub fn open_entry(name: &[u8], follow_links: bool) -> io::Result<std::fs::File> {
    use rustix::fs::OFlags;
    let file = open_entry_with(name, follow_links, OFlags::RDONLY | OFlags::NONBLOCK)?;
    Ok(std::fs::File::from(file))
}

/// [`open_entry`] with `O_PATH` instead of reading: a handle that neither
/// waits nor breaks a lease, for a file whose open met one (see
/// `super::open::open_walked`).
#[cfg(target_os = "linux")]
pub fn open_entry_path(name: &[u8], follow_links: bool) -> io::Result<OwnedFd> {
    open_entry_with(name, follow_links, rustix::fs::OFlags::PATH)
}

#[cfg(unix)]
fn open_entry_with(
    name: &[u8],
    follow_links: bool,
    mut flags: rustix::fs::OFlags,
) -> io::Result<OwnedFd> {
    use rustix::fs::{Mode, OFlags};
    flags |= OFlags::CLOEXEC;
    if !follow_links {
        flags |= OFlags::NOFOLLOW;
    }
    too_long(name)?;
    let prefix = prefix_of(name);
    let held = HASHED_DIRS.read().unwrap_or_else(PoisonError::into_inner);
    Ok(match held.as_ref().and_then(|dirs| dirs.get(prefix)) {
        Some(dir) => {
            rustix::fs::openat(dir, bytes_os(&name[prefix.len()..]), flags, Mode::empty())?
        }
        None => rustix::fs::openat(rustix::fs::CWD, bytes_os(name), flags, Mode::empty())?,
    })
}

/// Elsewhere: by path.
#[cfg(not(unix))]
pub fn open_entry(name: &[u8], _follow_links: bool) -> io::Result<std::fs::File> {
    std::fs::File::open(crate::config::bytes_os(name))
}

/// `File name too long` for a path (a trailing `/` aside) that the kernel
/// would refuse to look up: opened relative to its directory it could be
/// read, but its result line could not be checked back (`-c` opens by
/// path), so the walk stops there as it did when it opened by path.
#[cfg(unix)]
fn too_long(path: &[u8]) -> io::Result<()> {
    let path = path.strip_suffix(b"/").unwrap_or(path);
    if path.len() >= libc::PATH_MAX as usize {
        return Err(rustix::io::Errno::NAMETOOLONG.into());
    }
    Ok(())
}

/// Open the directory `path` (ending in `/`) for listing, with its device
/// and inode: an operand (`at` is `None`) by its path, or the entry `name`
/// of the open directory `parent` (`at` is `Some((parent, name))`) relative
/// to it, so that its parent's path is not looked up again. Unless `follow`
/// (`-L`, or an operand, which was named), a name that is a symbolic link
/// now (swapped in since its parent was listed) is not followed
/// (`O_NOFOLLOW`). `O_NONBLOCK`: a name that became a FIFO fails as `Not a
/// directory` without waiting.
#[cfg(unix)]
pub fn open_dir(at: Option<(&Dir, &[u8])>, path: &[u8], follow: bool) -> io::Result<(Dir, DirId)> {
    use rustix::fd::AsFd;
    use rustix::fs::{AtFlags, FileType, Mode, OFlags};
    let (parent, name) = match at {
        Some((parent, name)) => {
            too_long(path)?;
            (parent.as_fd(), name)
        }
        None => (rustix::fs::CWD, path),
    };
    // Without its `/`: a trailing `/` would follow a link despite `O_NOFOLLOW`.
    let trimmed = match name {
        [rest @ .., b'/'] if !rest.is_empty() => rest,
        _ => name,
    };
    let mut flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NONBLOCK | OFlags::CLOEXEC;
    if !follow {
        flags |= OFlags::NOFOLLOW;
    }
    let dir = match rustix::fs::openat(parent, bytes_os(trimmed), flags, Mode::empty()) {
        Ok(dir) => dir,
        // Linux says `ENOTDIR` for a link under `O_DIRECTORY`, others `ELOOP`.
        Err(e @ (rustix::io::Errno::LOOP | rustix::io::Errno::NOTDIR)) if !follow => {
            let link = rustix::fs::statat(parent, bytes_os(trimmed), AtFlags::SYMLINK_NOFOLLOW)
                .is_ok_and(|s| FileType::from_raw_mode(s.st_mode as _) == FileType::Symlink);
            return Err(if link { super::became_link() } else { e.into() });
        }
        Err(e) => return Err(e.into()),
    };
    let stat = rustix::fs::fstat(&dir)?;
    Ok((Arc::new(dir), (stat.st_dev as u64, stat.st_ino as u64)))
}

/// The directory `name` (ending in `/`, at `path`) of `parent`, listed
/// ahead as `id` and since closed, opened again: an error unless it is
/// still that directory. (Elsewhere directories are opened by path.)
pub fn reopen(
    parent: Option<&Dir>,
    name: &[u8],
    path: &[u8],
    follow: bool,
    id: Option<DirId>,
) -> io::Result<Dir> {
    #[cfg(unix)]
    {
        let (dir, now) = open_dir(parent.map(|parent| (parent, name)), path, follow)?;
        if Some(now) != id {
            return Err(io::Error::other(
                "another directory now (changed during the walk); not walked",
            ));
        }
        Ok(dir)
    }
    #[cfg(not(unix))]
    {
        let _ = (parent, name, path, follow, id);
        Ok(())
    }
}
