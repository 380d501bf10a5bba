//! Talking to the user: result lines on stdout, one-line messages on stderr
//! (file names in them go through `quote::quote_name`).

use std::io::{self, Write};
use std::sync::atomic::{AtomicU8, Ordering};

/// `skeinsum: MESSAGE` on stderr.
pub fn warn(message: impl std::fmt::Display) {
    // Nothing sensible is left to do if stderr itself is gone.
    let _ = writeln!(io::stderr().lock(), "skeinsum: {message}");
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
    stdout: io::Stdout,
}

impl Output {
    pub fn new() -> Output {
        Output {
            stdout: io::stdout(),
        }
    }

    /// Fails as a write would if stdout was closed at start-up.
    pub fn check_open(&mut self) -> Result<(), OutputClosed> {
        closed_at_start(1).map_err(|e| self.failed(e))
    }

    /// Write one whole result line (already terminated).
    pub fn line(&mut self, bytes: &[u8]) -> Result<(), OutputClosed> {
        self.check_open()?;
        self.stdout.write_all(bytes).map_err(|e| self.failed(e))
    }

    /// Push out what is buffered (lines ending in NUL wait in the buffer).
    pub fn flush(&mut self) -> Result<(), OutputClosed> {
        self.stdout.flush().map_err(|e| self.failed(e))
    }

    /// Report a write error (not a closed pipe) and stop.
    pub fn failed(&mut self, e: io::Error) -> OutputClosed {
        if e.kind() != io::ErrorKind::BrokenPipe {
            warn(format_args!("write error: {}", io_reason(&e)));
        }
        OutputClosed
    }
}

impl Default for Output {
    fn default() -> Self {
        Output::new()
    }
}
