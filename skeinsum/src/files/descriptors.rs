//! What to do when descriptors run out (`EMFILE`, `ENFILE`), for every
//! open of skeinsum: the batch's opens of a window's files and the walk's
//! opens of directories. One rule for both: running out is never the
//! file's or directory's own error. Whoever holds descriptors lets go of
//! some, step by step, and the open is tried again ([`Relief`]); only when
//! nothing is left to let go is the error that of the name:
//! - a batch (`crate::batch`, opening through [`super::whole`]): the file
//!   goes to the sequential path, which opens it once the window's files
//!   are closed, and after each window that ran out the next holds half as
//!   many files open per thread (one step of its [`Relief`]), down to one;
//! - the walk (`crate::walk`): first the directories held for the names
//!   waiting to be hashed are let go (those names are hashed now), then
//!   those of the directories on the current path; directories listed
//!   ahead in parallel are listed again one at a time.
//!
//! How many directories the walk holds at most is bounded by the limit on
//! descriptors too ([`dirs_held`]), so that the hashing has room.

use std::io;

/// Whether an open failed for want of descriptors (`EMFILE`, `ENFILE`):
/// no fault of the file, so it is opened again once others are closed.
pub fn out_of_descriptors(e: &io::Error) -> bool {
    #[cfg(unix)]
    return matches!(e.raw_os_error(), Some(libc::EMFILE | libc::ENFILE));
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

/// How far a holder of descriptors has gone to find one free, and how far
/// it may go: the steps of relief it takes, in order, between failed opens.
#[derive(Debug)]
pub struct Relief {
    taken: u8,
    steps: u8,
}

impl Relief {
    /// A holder with `steps` ways of letting descriptors go.
    pub const fn new(steps: u8) -> Relief {
        Relief { taken: 0, steps }
    }

    /// After an open failed with `e`: the step of relief to take now (1 for
    /// the first) before trying it again, or `None` if `e` is not for want
    /// of descriptors or every step has been taken (then `e` stands).
    pub fn next_step(&mut self, e: &io::Error) -> Option<u8> {
        if !out_of_descriptors(e) {
            return None;
        }
        self.take_step()
    }

    /// After opens failed for want of descriptors ([`out_of_descriptors`]):
    /// the step of relief to take now (1 for the first), or `None` if every
    /// step has been taken.
    pub fn take_step(&mut self) -> Option<u8> {
        if self.taken >= self.steps {
            return None;
        }
        self.taken += 1;
        Some(self.taken)
    }

    /// An open succeeded: the next shortage starts from the first step.
    pub fn reset(&mut self) {
        self.taken = 0;
    }
}

/// Directories the walk holds open at most, beside the files being hashed:
/// `most`, or a quarter of the limit on open descriptors (`RLIMIT_NOFILE`)
/// if that is less, the rest being left to the hashing, which opens the
/// files of a chunk while the walk holds their directories.
pub fn dirs_held(most: usize) -> usize {
    static QUARTER: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    let quarter = *QUARTER.get_or_init(|| {
        #[cfg(unix)]
        {
            let mut limit = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            // SAFETY: getrlimit writes one rlimit, which `limit` is.
            if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 {
                return Some(usize::try_from(limit.rlim_cur / 4).unwrap_or(usize::MAX));
            }
        }
        None
    });
    quarter.map_or(most, |quarter| quarter.clamp(1, most))
}
