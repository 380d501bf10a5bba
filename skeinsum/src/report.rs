//! Talking to the user: result lines on stdout, one-line messages on stderr.

use std::io::{self, Write};

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

/// A file name for a message on stderr: lossy UTF-8, newlines shown as `\n`
/// so that every message stays one line.
pub fn display_name(name: &[u8]) -> String {
    String::from_utf8_lossy(name).replace('\n', "\\n")
}

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

    /// Write one whole result line (already terminated).
    pub fn line(&mut self, bytes: &[u8]) {
        if let Err(e) = self.stdout.write_all(bytes) {
            Self::fail(e);
        }
    }

    /// Push out what is buffered (lines ending in NUL wait in the buffer).
    pub fn flush(&mut self) {
        if let Err(e) = self.stdout.flush() {
            Self::fail(e);
        }
    }

    fn fail(e: io::Error) -> ! {
        if e.kind() != io::ErrorKind::BrokenPipe {
            warn(format_args!("write error: {}", io_reason(&e)));
        }
        std::process::exit(1);
    }
}
