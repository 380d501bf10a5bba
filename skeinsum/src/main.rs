//! The `skeinsum` binary: everything is in the library (`src/lib.rs`); this
//! file only runs it, and looks at the standard descriptors before Rust's
//! runtime does.

use std::process::ExitCode;

fn main() -> ExitCode {
    skeinsum::run()
}

/// Rust's runtime opens /dev/null on a standard descriptor that is closed
/// when the process starts, so `skeinsum FILE >&-` would print into nothing
/// and `skeinsum <&-` would hash empty input, both "successfully". GNU tools
/// report `Bad file descriptor` instead. This constructor runs before the
/// runtime's start-up (the loader calls `.init_array` entries before
/// `main`) and records which of stdin and stdout were closed.
#[cfg(any(
    target_os = "linux",
    target_os = "android",
    target_os = "freebsd",
    target_os = "netbsd",
    target_os = "openbsd"
))]
mod closed_at_start {
    #[used]
    #[link_section = ".init_array"]
    static PROBE: extern "C" fn() = probe;

    extern "C" fn probe() {
        for fd in [0, 1] {
            // SAFETY: F_GETFD only queries the descriptor table; no memory is
            // passed, and any descriptor number is valid to ask about.
            if unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1 {
                skeinsum::not_api::mark_closed_at_start(fd);
            }
        }
    }
}
