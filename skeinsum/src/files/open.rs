//! Opening a name to hash: one the user named, or one `-r` found (which may
//! have become anything since its directory was listed), and standard
//! input.

use std::fs::File;
use std::io;

use super::held::open_entry;
use super::{became_link, not_regular, Origin, Snapshot};
use crate::config::bytes_os;
use crate::report::closed_at_start;

/// How a name from `origin` is opened: without waiting (`O_NONBLOCK`: a
/// FIFO must not wait for a writer; regular files ignore it) and, for a
/// name `-r` found, not through a link unless `-L` (`O_NOFOLLOW`).
fn open_options(origin: Origin) -> std::fs::OpenOptions {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let mut flags = libc::O_NONBLOCK;
        if origin
            == (Origin::Walked {
                follow_links: false,
            })
        {
            flags |= libc::O_NOFOLLOW;
        }
        options.custom_flags(flags);
    }
    options
}

/// Open `name` from `origin` without waiting, as the batch does: a walked
/// name relative to its held directory ([`open_entry`]), a named one by its
/// path ([`open_options`]). The caller checks what was opened.
pub fn open_nonblocking(name: &[u8], origin: Origin) -> io::Result<File> {
    match origin {
        Origin::Walked { follow_links } => open_entry(name, follow_links),
        Origin::Named => open_options(origin).open(bytes_os(name)),
    }
}

/// Open a name the user gave (a FILE, or a checksum list), with its
/// metadata. It is opened without waiting first: a FIFO waits for its
/// writer and a device or a leased file may wait too, so for anything but
/// a regular file or directory the result lines written so far go out
/// before the wait ([`blocking`]), where a reader of them (or a Ctrl-C)
/// would otherwise miss them. A regular file costs no more system calls
/// than a plain open and `fstat`.
pub fn open_named(name: &[u8]) -> io::Result<(File, std::fs::Metadata)> {
    let file = match open_nonblocking(name, Origin::Named) {
        Ok(file) => file,
        Err(e) if leased(&e) => {
            crate::report::write_pending();
            File::open(bytes_os(name))?
        }
        Err(e) => return Err(e),
    };
    let meta = file.metadata()?;
    if meta.is_file() || meta.is_dir() {
        // `O_NONBLOCK` means nothing to reads of either.
        return Ok((file, meta));
    }
    crate::report::write_pending();
    Ok((blocking(file)?, meta))
}

/// Open a name that `-r` found ([`Origin::Walked`]): an error unless it is
/// (still) a regular file.
pub fn open_walked(name: &[u8], follow_links: bool) -> io::Result<File> {
    let file = match open_entry(name, follow_links) {
        #[cfg(unix)]
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) && !follow_links => {
            return Err(became_link())
        }
        Err(e) if leased(&e) => open_leased(name, follow_links)?,
        // A socket (`ENXIO`) or a device whose open fails is no regular
        // file any more: said so, whatever its open answered.
        Err(_) if now_not_regular(name, follow_links) => return Err(not_regular()),
        other => other?,
    };
    // A directory, FIFO or device swapped in: one message for every kind.
    if !file.metadata()?.is_file() {
        return Err(not_regular());
    }
    Ok(file)
}

/// Whether the name `-r` found is something other than a regular file now,
/// looked at without opening it for reading (`O_PATH`, which opens sockets
/// and devices alike).
#[cfg(target_os = "linux")]
fn now_not_regular(name: &[u8], follow_links: bool) -> bool {
    super::held::open_entry_path(name, follow_links)
        .and_then(|path| Ok(rustix::fs::fstat(&path)?))
        .is_ok_and(|stat| {
            rustix::fs::FileType::from_raw_mode(stat.st_mode as _)
                != rustix::fs::FileType::RegularFile
        })
}

/// Elsewhere (no `O_PATH`): not looked at; the open's own error is given.
#[cfg(not(target_os = "linux"))]
fn now_not_regular(_name: &[u8], _follow_links: bool) -> bool {
    false
}

/// Whether an open without waiting failed because another process holds a
/// lease on the file (`EWOULDBLOCK`, the kind Samba and NFS servers take):
/// the open has started the lease break, and an open that waits returns
/// once the holder lets go (at most `/proc/sys/fs/lease-break-time` later).
pub fn leased(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::WouldBlock
}

/// Open a name of `-r` whose open without waiting met a lease ([`leased`]),
/// this time waiting for the lease to be let go. The name is first opened
/// with `O_PATH` (which neither waits nor breaks a lease, and follows no
/// link unless `follow_links`), and only if that is a regular file is the
/// very same file opened for reading, through `/proc/self/fd`: a name
/// swapped for a FIFO in between cannot make the waiting open wait for a
/// writer.
#[cfg(target_os = "linux")]
fn open_leased(name: &[u8], follow_links: bool) -> io::Result<File> {
    use rustix::fs::{FileType, Mode, OFlags};
    use std::os::fd::AsRawFd;
    let path = super::held::open_entry_path(name, follow_links)?;
    let stat = rustix::fs::fstat(&path)?;
    match FileType::from_raw_mode(stat.st_mode as _) {
        FileType::RegularFile => {}
        FileType::Symlink => return Err(became_link()),
        _ => return Err(not_regular()),
    }
    let proc_path = format!("/proc/self/fd/{}", path.as_raw_fd());
    match rustix::fs::open(
        proc_path.as_str(),
        OFlags::RDONLY | OFlags::CLOEXEC,
        Mode::empty(),
    ) {
        Ok(file) => Ok(File::from(file)),
        // No /proc: by name (a FIFO swapped in just now would wait for a
        // writer), and only the same file.
        Err(rustix::io::Errno::NOENT) => {
            let file = open_waiting(name, follow_links)?;
            let now = rustix::fs::fstat(&file)?;
            if (now.st_dev, now.st_ino) != (stat.st_dev, stat.st_ino) {
                return Err(not_regular());
            }
            Ok(file)
        }
        Err(e) => Err(e.into()),
    }
}

/// Open a name of `-r` whose open without waiting met a lease, waiting.
#[cfg(all(unix, not(target_os = "linux")))]
fn open_leased(name: &[u8], follow_links: bool) -> io::Result<File> {
    open_waiting(name, follow_links)
}

/// Open a name of `-r` for reading, waiting (no `O_NONBLOCK`).
#[cfg(unix)]
fn open_waiting(name: &[u8], follow_links: bool) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    if !follow_links {
        options.custom_flags(libc::O_NOFOLLOW);
    }
    options.open(bytes_os(name))
}

#[cfg(not(unix))]
fn open_leased(name: &[u8], _follow_links: bool) -> io::Result<File> {
    File::open(bytes_os(name))
}

/// A file opened with `O_NONBLOCK` (by the batch, then handed over:
/// `crate::input::Reader::adopt`), made to read as if opened without it:
/// blocking reads, and a FIFO waits for a writer, as its `open` would have
/// (Linux's `poll` reports no hang-up on a FIFO opened that way until a
/// writer has come).
#[cfg(unix)]
pub fn blocking(file: File) -> io::Result<File> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::FileTypeExt;
    let fd = file.as_raw_fd();
    // SAFETY: fcntl on a descriptor this function owns (through `file`),
    // with plain integer arguments.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    // SAFETY: as above.
    if flags == -1 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } == -1 {
        return Err(io::Error::last_os_error());
    }
    if file.metadata()?.file_type().is_fifo() {
        let mut wait = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        loop {
            // SAFETY: one valid, initialized pollfd for an owned descriptor.
            if unsafe { libc::poll(&mut wait, 1, -1) } >= 0 {
                break;
            }
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }
    Ok(file)
}

#[cfg(not(unix))]
pub fn blocking(file: File) -> io::Result<File> {
    Ok(file)
}

/// Standard input read through descriptor 0 itself, for a checksum list
/// named `-`: no duplicate descriptor is taken, so a list from standard
/// input leaves as many descriptors for its files as `sha256sum -c -`.
/// Unlike Rust's `Stdin`, a read error is reported, not taken for the end
/// of input (`EBADF` of a descriptor 0 open for writing only).
#[cfg(unix)]
pub struct StdinDescriptor;

#[cfg(unix)]
impl io::Read for StdinDescriptor {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use std::os::fd::AsFd;
        // Nothing reads through `Stdin`'s own buffer in this program, so no
        // byte of it waits there.
        Ok(rustix::io::read(io::stdin().as_fd(), buf)?)
    }
}

/// [`StdinDescriptor`], or `Bad file descriptor` if descriptor 0 was
/// closed at start-up.
#[cfg(unix)]
pub fn stdin_descriptor() -> io::Result<StdinDescriptor> {
    closed_at_start(0)?;
    Ok(StdinDescriptor)
}

#[cfg(not(unix))]
pub fn stdin_descriptor() -> io::Result<io::Stdin> {
    stdin()
}

/// Standard input, or `Bad file descriptor` if it was closed at start-up.
///
/// On Unix this is a `File` on a duplicate of descriptor 0, not Rust's
/// `Stdin`: `Stdin` takes `EBADF` for the end of input, so a descriptor 0
/// open for writing only (`skeinsum 0>/dev/full`) would hash as empty input;
/// a `File` reports the error. It holds no lock either, so reading it twice
/// in one run cannot wait on itself.
#[cfg(unix)]
pub fn stdin() -> io::Result<File> {
    use std::os::fd::AsFd;
    closed_at_start(0)?;
    Ok(File::from(io::stdin().as_fd().try_clone_to_owned()?))
}

/// Standard input, or `Bad file descriptor` if it was closed at start-up.
#[cfg(not(unix))]
pub fn stdin() -> io::Result<io::Stdin> {
    closed_at_start(0)?;
    Ok(io::stdin())
}

/// Whether standard input is a regular file (`< file`), not a pipe or
/// terminal. Asked of descriptor 0 itself: no descriptor is taken for it.
pub fn stdin_is_file() -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        rustix::fs::fstat(io::stdin().as_fd()).is_ok_and(|s| {
            rustix::fs::FileType::from_raw_mode(s.st_mode as _) == rustix::fs::FileType::RegularFile
        })
    }
    #[cfg(not(unix))]
    false
}

/// The snapshot of standard input (`input`, from [`stdin`]) when it is a
/// regular file (`< file`). Taken of the descriptor already open: one
/// more, at the limit of descriptors, could fail after hashing where it
/// did not before, which would read as a change.
#[cfg(unix)]
pub fn stdin_snapshot(input: &File) -> Option<Snapshot> {
    Snapshot::of(&input.metadata().ok()?)
}

#[cfg(not(unix))]
pub fn stdin_snapshot(_input: &io::Stdin) -> Option<Snapshot> {
    None
}
