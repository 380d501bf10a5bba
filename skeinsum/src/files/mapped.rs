//! Memory-mapped reading of large regular files: window by window for the
//! sequential path ([`hash_mapped`]), whole for a batch ([`map_whole`]).
//!
//! A file is mapped in windows of at most [`MAP_WINDOW`] bytes, one after
//! another (the one before unmapped by the next one's prefault thread, or
//! at once where mapping the next needs its room), so that any file size
//! works within a small address space (a 32-bit process, or a `ulimit -v`),
//! and a window the system refuses to map hands the rest of the file to
//! plain reading.
//!
//! A mapped file can change under us. The policy, in three parts:
//! 1. The caller compares size and mtime after hashing with those
//!    before (on every path, mapped or read); any change makes the file an
//!    error ("file changed while being read") instead of a digest of a mix of
//!    old and new contents.
//! 2. If the file shrinks (before or during hashing), touching a page past
//!    its new end raises SIGBUS, which would kill the process. On Unix a
//!    SIGBUS handler, armed only around the hashing of a window (one at a
//!    time, or the mappings of a batch's chunks in progress:
//!    [`super::sigbus`]), maps zero
//!    pages over the rest of that window and records the fault; hashing then
//!    finishes on zeros, and the fault turns into the same error as in 1. A
//!    SIGBUS elsewhere goes to the handler that was there before (the default
//!    one kills, as it should).
//! 3. Small files (under `MMAP_MIN`), pipes and devices are read, never mapped.

use std::fs::File;

use memmap2::{Advice, Mmap, MmapOptions};

use super::sigbus::Guard;
use crate::testing;

/// The largest piece of a file mapped at once (64 MiB): large enough that
/// mapping costs nothing next to hashing, small enough for any address space.
pub const MAP_WINDOW: u64 = 64 << 20;

/// Windows at least this large get a thread that maps their pages in ahead
/// of the hashing (starting a thread has a cost of its own, measured:
/// docs/skeinsum.md, "Large files and streams").
const PREFAULT_MIN: usize = 4 << 20;
/// The prefault thread's step: far enough ahead after its first step.
const PREFAULT_STEP: usize = 1 << 20;

/// How hashing a mapped file went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mapped {
    /// Every byte up to the length went to `consume`.
    Whole { faulted: bool },
    /// The system refused to map the window at offset `at`; bytes before it
    /// went to `consume`, the rest must be read.
    Refused { at: u64, faulted: bool },
}

/// Map the first `len` bytes of `file` window by window and hand each to
/// `consume`. `faulted` tells that the file shrank under a mapping (its
/// missing pages were read as zeros): the digest must not be given then.
pub fn hash_mapped(file: &File, len: u64, consume: &mut dyn FnMut(&[u8])) -> Mapped {
    let window = testing::map_window(MAP_WINDOW);
    let mut faulted = false;
    let mut at = 0;
    // The window hashed last, left for the next window's prefault thread
    // to unmap: tearing down a window's page tables takes a while
    // (docs/skeinsum.md, "Large files and streams"), during which the
    // hashing threads (a tree's `-j` of them) would wait.
    let mut hashed: Option<Mmap> = None;
    // The next window, mapped and its pages mapped in by the prefault
    // thread of this one while this one was hashed: the hashing threads
    // start each window on pages already there, and wait for no mapping.
    let mut ahead: Option<Mmap> = None;
    while at < len {
        // Fits in usize: at most MAP_WINDOW.
        let size = (len - at).min(window) as usize;
        if testing::refuse_map(at) {
            return Mapped::Refused { at, faulted };
        }
        let prefaulted = ahead.is_some();
        let map = match ahead.take() {
            Some(map) => map,
            None => match map_window(file, at, size) {
                Ok(map) => map,
                // The window before may be what leaves no room (a `ulimit
                // -v`): unmapped, this one is tried once more.
                Err(_) if hashed.is_some() => {
                    drop(hashed.take());
                    match map_window(file, at, size) {
                        Ok(map) => map,
                        Err(_) => return Mapped::Refused { at, faulted },
                    }
                }
                Err(_) => return Mapped::Refused { at, faulted },
            },
        };
        // Every slot taken cannot happen here (a batch frees its slots
        // before the sequential path runs), but reading is the safe answer.
        let Some(guard) = Guard::arm(map.as_ptr(), map.len()) else {
            return Mapped::Refused { at, faulted };
        };
        testing::pause("hash");
        let next_at = at + size as u64;
        if size >= PREFAULT_MIN {
            // Page faults off the hashing thread(s): another thread maps the
            // pages in ahead of them (unless the window before did), unmaps
            // the window before, then maps the next window and its pages,
            // all while this window is hashed.
            let previous = hashed.take();
            let next_size = (len - next_at).min(window) as usize;
            std::thread::scope(|s| {
                // Without a thread to spare, the hashing thread faults (and
                // `previous` is unmapped here, as the closure is dropped).
                let helper = crate::readahead::spawn(s, 0, || {
                    if !prefaulted {
                        prefault(&map);
                    }
                    drop(previous);
                    // A refused mapping is left to the loop, which reads
                    // from there (or tries again with this window unmapped).
                    let next = (next_size > 0 && !testing::refuse_map(next_at))
                        .then(|| map_window(file, next_at, next_size).ok())
                        .flatten();
                    if let Some(next) = &next {
                        prefault(next);
                    }
                    next
                });
                consume(&map);
                if let Ok(helper) = helper {
                    // A panic there is one of ours: passed on.
                    ahead = helper
                        .join()
                        .unwrap_or_else(|p| std::panic::resume_unwind(p));
                }
            });
        } else {
            drop(hashed.take());
            consume(&map);
        }
        faulted |= guard.disarm();
        hashed = Some(map);
        at = next_at;
    }
    Mapped::Whole { faulted }
}

/// `size` bytes of `file` from `at`, mapped, with the hint that they are
/// read once from start to end.
fn map_window(file: &File, at: u64, size: usize) -> std::io::Result<Mmap> {
    // SAFETY: memmap2 requires that nobody changes the file while the map
    // lives, which no program can promise for files of other processes.
    // What we guarantee instead: the bytes are only read as plain data
    // (no invariant of ours depends on them); a shrink cannot kill us
    // (the SIGBUS guard armed around the hashing of each window); and any
    // change at all is detected afterwards and reported as an error, so a
    // digest of inconsistent contents is never printed.
    let map = unsafe { MmapOptions::new().offset(at).len(size).map(file) }?;
    // Only a hint; reading works the same without it.
    let _ = map.advise(Advice::Sequential);
    Ok(map)
}

/// Map in the pages of `map` from its start, step by step, so that the
/// thread hashing it behind does not fault on them: one `madvise` per step
/// instead of one fault (and its trap) per 16 pages on the hashing path.
/// Past a new end of the file (it shrank) this fails with `EFAULT` rather
/// than raising SIGBUS, and stops: the hashing thread's guard handles the
/// rest. Where the call is not known (Linux before 5.14, other systems),
/// the hashing thread faults as before.
fn prefault(map: &Mmap) {
    let mut at = 0;
    while at < map.len() {
        let step = PREFAULT_STEP.min(map.len() - at);
        #[cfg(target_os = "linux")]
        if map.advise_range(Advice::PopulateRead, at, step).is_err() {
            return;
        }
        #[cfg(all(unix, not(target_os = "linux")))]
        if map.advise_range(Advice::WillNeed, at, step).is_err() {
            return;
        }
        at += step;
    }
}

/// The first `len` bytes of `file` mapped whole (read ahead with
/// `MAP_POPULATE`) and watched by a guard until it is dropped or disarmed
/// (the guard first in the pair, so that it is dropped before the mapping
/// it watches). `None` if the system refused the mapping (not a regular
/// file any more, a file system without mmap) or every guard slot is taken:
/// the caller reads the file instead.
pub fn map_whole(file: &File, len: usize) -> Option<(Guard, Mmap)> {
    if testing::refuse_map(0) {
        return None;
    }
    // SAFETY: as in `hash_mapped`: the bytes are only read as plain data, a
    // shrink cannot kill us (the guard armed below, kept until the file is
    // hashed), and the caller compares the file's snapshot afterwards, so no
    // digest of inconsistent contents is printed.
    let map = unsafe { MmapOptions::new().len(len).populate().map(file) }.ok()?;
    let guard = Guard::arm(map.as_ptr(), map.len())?;
    Some((guard, map))
}
