//! Feeding a file or standard input to a hasher: large regular files are
//! memory-mapped (in bounded windows), everything else is read in large
//! blocks, and a regular file must not change while it is hashed.

use std::fs::File;
use std::io::{self, Read, Seek};
use std::time::SystemTime;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use skein_simd::DynSkein;

use crate::config::bytes_os;
use crate::mapped::{self, Mapped};
use crate::quote::quote_name;
use crate::readahead;
use crate::report::{closed_at_start, io_reason};
use crate::testing;

/// Regular files at least this large are mapped; smaller ones are cheaper to
/// read than to map.
pub const MMAP_MIN: u64 = 16 * 1024;
/// Read size for small files.
const READ_BLOCK: usize = 1 << 20;
/// Streams (standard input, pipes, devices) and files at least this large
/// that are not mapped are read ahead on another thread
/// (`crate::readahead`); below it, starting that thread costs more than it
/// saves.
const READ_AHEAD_MIN: u64 = 4 << 20;
/// Before an input this large (or a stream), pending result lines are
/// written out (`crate::report::write_pending`).
const WRITE_PENDING_MIN: u64 = 1 << 20;
/// Inputs at least this large get a progress bar with `--progress`.
pub(crate) const PROGRESS_MIN: u64 = 64 << 20;
/// With a progress bar, a mapped file is hashed in pieces this large.
const PROGRESS_STEP: usize = 4 << 20;

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

/// How a name from `origin` is opened: without waiting (`O_NONBLOCK`: a
/// FIFO must not wait for a writer; regular files ignore it) and, for a
/// name `-r` found, not through a link unless `-L` (`O_NOFOLLOW`).
pub(crate) fn open_options(origin: Origin) -> std::fs::OpenOptions {
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

/// Open a name that `-r` found ([`Origin::Walked`]): an error unless it is
/// (still) a regular file.
fn open_walked(name: &[u8], follow_links: bool) -> io::Result<File> {
    let file = match crate::walk::open_entry(name, follow_links) {
        #[cfg(unix)]
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) && !follow_links => {
            return Err(became_link())
        }
        Err(e) if leased(&e) => open_leased(name, follow_links)?,
        other => other?,
    };
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "Is a directory",
        ));
    }
    if !meta.is_file() {
        return Err(not_regular());
    }
    Ok(file)
}

/// Whether an open failed for want of descriptors (`EMFILE`, `ENFILE`):
/// no fault of the file, so it is opened again once others are closed.
pub(crate) fn out_of_descriptors(e: &io::Error) -> bool {
    #[cfg(unix)]
    return matches!(e.raw_os_error(), Some(libc::EMFILE | libc::ENFILE));
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

/// Whether an open without waiting failed because another process holds a
/// lease on the file (`EWOULDBLOCK`, the kind Samba and NFS servers take):
/// the open has started the lease break, and an open that waits returns
/// once the holder lets go (at most `/proc/sys/fs/lease-break-time` later).
pub(crate) fn leased(e: &io::Error) -> bool {
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
    let path = crate::walk::open_entry_path(name, follow_links)?;
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

/// A name of `-r` that is no regular file any more.
pub(crate) fn not_regular() -> io::Error {
    io::Error::other("not a regular file any more (changed during the walk); skipped")
}

/// A name of `-r` that is a symbolic link now, without `-L`.
pub(crate) fn became_link() -> io::Error {
    io::Error::other("a symbolic link now (changed during the walk); not followed")
}

/// What must not change while a regular file is hashed: its size and its
/// modification time (to the nanosecond the file system keeps), which is
/// what shows a change of content. The status-change time is left out on
/// purpose: `chmod`, `touch -a`, `ln` and `chown` move it without touching
/// a byte. What this cannot see: a rewrite that keeps the size and sets the
/// mtime back (which takes intent), or one within one tick of the file
/// system's clock.
///
/// On Unix it also holds the file's identity (device and inode), so that a
/// snapshot taken by name (`crate::batch` looks names up before opening
/// them) equals one taken of the open file afterwards only if the name
/// still led to that same file when it was opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Snapshot {
    pub(crate) len: u64,
    modified: Option<SystemTime>,
    #[cfg(unix)]
    identity: (u64, u64),
}

impl Snapshot {
    /// `Some` for regular files only: other inputs have no size to keep.
    pub(crate) fn of(meta: &std::fs::Metadata) -> Option<Snapshot> {
        #[cfg(unix)]
        use std::os::unix::fs::MetadataExt;
        meta.is_file().then(|| Snapshot {
            len: meta.len(),
            modified: meta.modified().ok(),
            #[cfg(unix)]
            identity: (meta.dev(), meta.ino()),
        })
    }

    /// Whether both are of the same file (always, where there is no
    /// identity to compare).
    pub(crate) fn same_file(&self, other: &Snapshot) -> bool {
        #[cfg(unix)]
        return self.identity == other.identity;
        #[cfg(not(unix))]
        {
            let _ = other;
            true
        }
    }
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
pub(crate) fn stdin_is_file() -> bool {
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
fn stdin_snapshot(input: &File) -> Option<Snapshot> {
    Snapshot::of(&input.metadata().ok()?)
}

#[cfg(not(unix))]
fn stdin_snapshot(_input: &io::Stdin) -> Option<Snapshot> {
    None
}

/// The `output_bits`-bit digest of a finished hasher, the unused low bits
/// of its last byte cleared (`crate::format::mask_unused_bits`). Its buffer
/// is reserved fallibly, so an output too large for this machine is an
/// error for this file, not an abort of the run.
pub fn finish(hasher: DynSkein, output_bits: u64) -> Result<Vec<u8>, InputError> {
    let mut digest = Vec::new();
    digest.try_reserve_exact(hasher.output_len()).map_err(|_| {
        io::Error::new(
            io::ErrorKind::OutOfMemory,
            "not enough memory for the digest",
        )
    })?;
    digest.resize(hasher.output_len(), 0);
    hasher.finalize_into(&mut digest);
    crate::format::mask_unused_bits(&mut digest, output_bits);
    Ok(digest)
}

/// Reads inputs one after another, reusing one buffer.
pub struct Reader {
    buffer: Vec<u8>,
    /// Blocks for reading ahead.
    blocks: readahead::Pool,
    /// A file the batch opened and handed over, with its name (`adopt`).
    adopted: Option<(Vec<u8>, File)>,
    use_mmap: bool,
    progress: bool,
}

impl Reader {
    /// `progress` is honoured only when stderr is a terminal.
    pub fn new(use_mmap: bool, progress: bool) -> Reader {
        use std::io::IsTerminal;
        Reader {
            buffer: Vec::new(),
            blocks: readahead::Pool::default(),
            adopted: None,
            use_mmap,
            progress: progress && io::stderr().is_terminal(),
        }
    }

    /// The next [`hash`](Self::hash) of `name` reads `file` (if given), not
    /// the file it finds by that name then. The batch opens files without
    /// waiting (`O_NONBLOCK`), and one that turned out to be no regular
    /// file any more (a FIFO since it was looked up) must not be closed and
    /// opened again: a writer let through by the first open may have
    /// written and gone by the second, which would then wait for ever.
    pub fn adopt(&mut self, name: &[u8], file: Option<File>) {
        self.adopted = file.map(|file| (name.to_vec(), file));
    }

    /// Feed the input named `name` (`-` = standard input) to `hasher`. A
    /// regular file (standard input too, when it is one) that changes size
    /// or mtime meanwhile, or shrinks under its mapping, is an error.
    pub fn hash(&mut self, name: &[u8], hasher: &mut DynSkein) -> Result<(), InputError> {
        self.hash_from(name, Origin::Named, hasher)
    }

    /// [`hash`](Self::hash) a name from `origin`: one that `-r` found is
    /// hashed only if it is still a regular file ([`Origin::Walked`]).
    pub fn hash_from(
        &mut self,
        name: &[u8],
        origin: Origin,
        hasher: &mut DynSkein,
    ) -> Result<(), InputError> {
        if let Origin::Walked { follow_links } = origin {
            // Never an adopted file: that one is made to block.
            self.adopted = None;
            let file = open_walked(name, follow_links)?;
            return self.hash_file(file, name, hasher);
        }
        if name == b"-" {
            crate::report::write_pending();
            let input = stdin()?;
            let before = stdin_snapshot(&input);
            self.hash_stream(&input, before.map(|s| s.len), name, hasher)?;
            return unchanged(before, stdin_snapshot(&input));
        }
        let file = match self.adopted.take() {
            Some((adopted, file)) if adopted == name => blocking(file)?,
            _ => File::open(bytes_os(name))?,
        };
        self.hash_file(file, name, hasher)
    }

    /// Hash the open file `file`, named `name`.
    fn hash_file(
        &mut self,
        mut file: File,
        name: &[u8],
        hasher: &mut DynSkein,
    ) -> Result<(), InputError> {
        let meta = file.metadata()?;
        if meta.is_dir() {
            return Err(io::Error::new(io::ErrorKind::IsADirectory, "Is a directory").into());
        }
        let before = Snapshot::of(&meta);
        let size = before.map(|s| s.len);
        if size.is_none_or(|len| len >= WRITE_PENDING_MIN) {
            // A stream or a large file: no result line waits behind it.
            crate::report::write_pending();
        }
        let mut faulted = false;
        match size {
            Some(len) if self.use_mmap && len >= MMAP_MIN => {
                testing::pause("map");
                let bar = self.bar(Some(len), name);
                let outcome = mapped::hash_mapped(&file, len, &mut |bytes| match &bar {
                    None => hasher.update(bytes),
                    Some(bar) => {
                        for piece in bytes.chunks(PROGRESS_STEP) {
                            hasher.update(piece);
                            bar.inc(piece.len() as u64);
                        }
                    }
                });
                if let Some(bar) = bar {
                    bar.finish_and_clear();
                }
                match outcome {
                    Mapped::Whole { faulted: f } => faulted = f,
                    // Mapping was refused (a file system without mmap, a
                    // full address space): read the rest instead.
                    Mapped::Refused { at, faulted: f } => {
                        faulted = f;
                        file.seek(io::SeekFrom::Start(at))?;
                        self.hash_stream(&file, Some(len - at), name, hasher)?;
                    }
                }
            }
            _ => self.hash_stream(&file, size, name, hasher)?,
        }
        if faulted {
            return Err(InputError::Changed);
        }
        unchanged(before, Snapshot::of(&file.metadata()?))
    }

    fn hash_stream(
        &mut self,
        mut input: impl Read + Send,
        size: Option<u64>,
        name: &[u8],
        hasher: &mut DynSkein,
    ) -> Result<(), InputError> {
        let progress = self.progress;
        let mut bar = size.and_then(|s| progress_bar(progress, Some(s), name));
        let mut total = 0u64;
        let mut consume = |bytes: &[u8]| {
            hasher.update(bytes);
            if total == 0 {
                testing::pause("read");
            }
            total += bytes.len() as u64;
            // Streams of unknown size get a spinner once they prove large.
            if bar.is_none() && size.is_none() && total >= PROGRESS_MIN {
                bar = progress_bar(progress, None, name);
                if let Some(b) = &bar {
                    b.set_position(total);
                }
            } else if let Some(b) = &bar {
                b.inc(bytes.len() as u64);
            }
        };
        if size.is_none_or(|len| len >= READ_AHEAD_MIN) {
            // A stream, or a large file read without mapping.
            self.blocks.read_all(input, &mut consume)?;
        } else {
            if self.buffer.is_empty() {
                // Zeroed allocation: fresh pages from the OS, touched only as used.
                self.buffer = vec![0; READ_BLOCK];
            }
            loop {
                let n = match input.read(&mut self.buffer) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e.into()),
                };
                consume(&self.buffer[..n]);
            }
        }
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        Ok(())
    }

    /// A progress bar on stderr for a large input, if asked for.
    fn bar(&self, size: Option<u64>, name: &[u8]) -> Option<ProgressBar> {
        progress_bar(self.progress, size, name)
    }
}

/// A progress bar on stderr for a large input, if `progress` asks for one.
fn progress_bar(progress: bool, size: Option<u64>, name: &[u8]) -> Option<ProgressBar> {
    if !progress || size.is_some_and(|s| s < PROGRESS_MIN) {
        return None;
    }
    let bar = match size {
        Some(len) => ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr())
            .with_style(
                ProgressStyle::with_template(
                    "{prefix} [{wide_bar}] {bytes}/{total_bytes} {binary_bytes_per_sec} ETA {eta}",
                )
                .expect("valid template")
                .progress_chars("=> "),
            ),
        None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(
            ProgressStyle::with_template("{prefix} {spinner} {bytes} {binary_bytes_per_sec}")
                .expect("valid template"),
        ),
    };
    bar.set_prefix(quote_name(name));
    Some(bar)
}

/// A file opened with `O_NONBLOCK` (`Reader::adopt`), made to read as if
/// opened without it: blocking reads, and a FIFO waits for a writer, as
/// its `open` would have (Linux's `poll` reports no hang-up on a FIFO
/// opened that way until a writer has come).
#[cfg(unix)]
fn blocking(file: File) -> io::Result<File> {
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
fn blocking(file: File) -> io::Result<File> {
    Ok(file)
}

/// `Err(Changed)` unless the two snapshots (both taken, or both absent) agree.
pub(crate) fn unchanged(
    before: Option<Snapshot>,
    after: Option<Snapshot>,
) -> Result<(), InputError> {
    if before == after {
        Ok(())
    } else {
        Err(InputError::Changed)
    }
}
