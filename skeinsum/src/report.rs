//! Talking to the user: result lines on stdout, one-line messages on stderr
//! (file names in them go through `quote::quote_name`).

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Mutex, MutexGuard};

/// `skeinsum: MESSAGE` on stderr, after the result lines before it.
pub fn warn(message: impl std::fmt::Display) {
    // A write error here is kept for the next `Output` call to report.
    write_pending();
    // Nothing sensible is left to do if stderr itself is gone.
    let _ = writeln!(io::stderr().lock(), "skeinsum: {message}");
}

/// Result lines not yet on stdout. Rust's stdout makes one system call per
/// line; for thousands of small files those calls cost more than hashing
/// them. So unless stdout is a terminal, lines gather here and go out in
/// pieces of [`PENDING_BYTES`], and always before anything that may take a
/// while ([`write_pending`]: a large or streamed input, a batch window) and
/// before a message goes to stderr, so that no line waits behind a long
/// hash and the two streams keep their order when they share a file
/// (coreutils' `error()` flushes stdout the same way).
struct Pending {
    bytes: Vec<u8>,
    /// A write error met while writing out for `warn` or
    /// [`write_pending`], not yet reported.
    error: Option<io::Error>,
}

const PENDING_BYTES: usize = 32 << 10;

static PENDING: Mutex<Pending> = Mutex::new(Pending {
    bytes: Vec::new(),
    error: None,
});

/// Write out the pending result lines now: called before work that may
/// take a while. A write error is kept for the next `Output` call.
pub(crate) fn write_pending() {
    pending().write_out();
}

fn pending() -> MutexGuard<'static, Pending> {
    // A panic while holding it leaves plain bytes behind: still usable.
    PENDING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Pending {
    /// Write every pending byte; a failure is kept in `error` (the first).
    fn write_out(&mut self) {
        if self.bytes.is_empty() {
            return;
        }
        let mut stdout = io::stdout().lock();
        let written = stdout.write_all(&self.bytes).and_then(|()| stdout.flush());
        self.bytes.clear();
        if let Err(e) = written {
            self.error.get_or_insert(e);
        }
    }

    /// The kept write error, if any, taken.
    fn result(&mut self) -> io::Result<()> {
        self.error.take().map_or(Ok(()), Err)
    }
}

/// The reason of an I/O error without Rust's ` (os error N)` suffix, so that
/// messages read like coreutils': `No such file or directory`.
pub fn io_reason(e: &io::Error) -> String {
    let text = e.to_string();
    match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => text[..at].to_string(),
        _ => text,
    }
}

/// Bit `fd` set: descriptor `fd` (0 or 1) was closed when the process
/// started (Rust's runtime has since opened /dev/null there).
static CLOSED_AT_START: AtomicU8 = AtomicU8::new(0);

/// Record that standard descriptor `fd` (0 = stdin, 1 = stdout) was closed
/// at start-up. The binary calls this before `main`; reading from or writing
/// to that stream then fails with `Bad file descriptor`, as in GNU tools.
pub fn mark_closed_at_start(fd: i32) {
    if let 0 | 1 = fd {
        CLOSED_AT_START.fetch_or(1 << fd, Ordering::Relaxed);
    }
}

/// The error for a standard stream that was closed at start-up, if `fd` was.
pub(crate) fn closed_at_start(fd: i32) -> io::Result<()> {
    if CLOSED_AT_START.load(Ordering::Relaxed) & (1 << fd) != 0 {
        #[cfg(unix)]
        return Err(io::Error::from_raw_os_error(libc::EBADF));
        #[cfg(not(unix))]
        return Err(io::Error::new(io::ErrorKind::Other, "Bad file descriptor"));
    }
    Ok(())
}

/// Standard output failed: reported (unless it was a closed pipe) and the
/// run ends with status 1. The error travels back to `main` instead of
/// exiting on the spot, so that every destructor, the key's wiping among
/// them, still runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutputClosed;

/// Standard output, with the one error policy of the tool: a closed pipe
/// (`skeinsum * | head -1`) ends the run quietly with status 1 (the reader
/// left before the results were all delivered); any other write error is
/// reported and also ends the run with status 1. Rust ignores SIGPIPE, so the
/// closed pipe arrives here as `BrokenPipe` instead of killing us.
pub struct Output {
    /// Every line goes out at once (someone may be watching).
    terminal: bool,
}

impl Output {
    pub fn new() -> Output {
        Output {
            terminal: io::stdout().is_terminal(),
        }
    }

    /// Fails as a write would if stdout was closed at start-up.
    pub fn check_open(&mut self) -> Result<(), OutputClosed> {
        closed_at_start(1).map_err(|e| self.failed(e))
    }

    /// Write one whole result line (already terminated), now or soon: lines
    /// gather in this module's buffer of pending output unless stdout is a
    /// terminal (see `Pending` in the source).
    pub fn line(&mut self, bytes: &[u8]) -> Result<(), OutputClosed> {
        self.line_with(|pending| pending.extend_from_slice(bytes))
    }

    /// [`line`](Self::line) for a line that `write` appends to the pending
    /// bytes itself (no buffer of its own to allocate and copy).
    pub fn line_with(&mut self, write: impl FnOnce(&mut Vec<u8>)) -> Result<(), OutputClosed> {
        self.check_open()?;
        // The lock is released before `failed` reports (through `warn`).
        let written = {
            let mut pending = pending();
            if pending.error.is_none() {
                write(&mut pending.bytes);
                if self.terminal || pending.bytes.len() >= PENDING_BYTES {
                    pending.write_out();
                }
            }
            pending.result()
        };
        written.map_err(|e| self.failed(e))
    }

    /// Write out every pending line.
    pub fn flush(&mut self) -> Result<(), OutputClosed> {
        let written = {
            let mut pending = pending();
            pending.write_out();
            pending.result()
        };
        written.map_err(|e| self.failed(e))
    }

    /// Report a write error (not a closed pipe) and stop.
    pub fn failed(&mut self, e: io::Error) -> OutputClosed {
        if e.kind() != io::ErrorKind::BrokenPipe {
            warn(format_args!("write error: {}", io_reason(&e)));
        }
        OutputClosed
    }
}

impl Drop for Output {
    /// Lines still pending when the run ends early (a panic unwinding
    /// through `run`) are written too; the normal end has flushed already.
    fn drop(&mut self) {
        // `try_lock`: never wait here, even on a lock this thread holds.
        let mut pending = match PENDING.try_lock() {
            Ok(pending) => pending,
            Err(std::sync::TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => return,
        };
        pending.write_out();
    }
}

impl Default for Output {
    fn default() -> Self {
        Output::new()
    }
}
