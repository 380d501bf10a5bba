//! Memory-mapped reading of large regular files: the only `unsafe` of the
//! tool besides one `fcntl` in `main.rs`.
//!
//! A file is mapped in windows of at most [`MAP_WINDOW`] bytes, one after
//! another, so that any file size works within a small address space (a
//! 32-bit process, or a `ulimit -v`), and a window the system refuses to map
//! hands the rest of the file to plain reading.
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
//!    `crate::batch`), maps zero
//!    pages over the rest of that window and records the fault; hashing then
//!    finishes on zeros, and the fault turns into the same error as in 1. A
//!    SIGBUS elsewhere goes to the handler that was there before (the default
//!    one kills, as it should).
//! 3. Small files (under `MMAP_MIN`), pipes and devices are read, never mapped.

use std::fs::File;

use memmap2::{Advice, MmapOptions};

use crate::testing;

/// The largest piece of a file mapped at once (64 MiB): large enough that
/// mapping costs nothing next to hashing, small enough for any address space.
pub const MAP_WINDOW: u64 = 64 << 20;

/// Windows at least this large get a thread that maps their pages in ahead
/// of the hashing (starting a thread costs about as much as hashing 30 KB).
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
    while at < len {
        // Fits in usize: at most MAP_WINDOW.
        let size = (len - at).min(window) as usize;
        if testing::refuse_map(at) {
            return Mapped::Refused { at, faulted };
        }
        // SAFETY: memmap2 requires that nobody changes the file while the map
        // lives, which no program can promise for files of other processes.
        // What we guarantee instead: the bytes are only read as plain data
        // (no invariant of ours depends on them); a shrink cannot kill us
        // (the SIGBUS guard below); and any change at all is detected
        // afterwards and reported as an error, so a digest of inconsistent
        // contents is never printed.
        let map = match unsafe { MmapOptions::new().offset(at).len(size).map(file) } {
            Ok(map) => map,
            Err(_) => return Mapped::Refused { at, faulted },
        };
        // Only a hint; reading works the same without it.
        let _ = map.advise(Advice::Sequential);
        // Every slot taken cannot happen here (a batch frees its slots
        // before the sequential path runs), but reading is the safe answer.
        let Some(guard) = sigbus::Guard::arm(map.as_ptr(), map.len()) else {
            return Mapped::Refused { at, faulted };
        };
        testing::pause("hash");
        if size >= PREFAULT_MIN {
            // Page faults off the hashing thread(s): another thread maps the
            // pages in ahead of them.
            std::thread::scope(|s| {
                // Without a thread to spare, the hashing thread faults.
                let _ = crate::readahead::spawn(s, || prefault(&map));
                consume(&map);
            });
        } else {
            consume(&map);
        }
        faulted |= guard.disarm();
        drop(map);
        at += size as u64;
    }
    Mapped::Whole { faulted }
}

/// Map in the pages of `map` from its start, step by step, so that the
/// thread hashing it behind does not fault on them: one `madvise` per step
/// instead of one fault (and its trap) per 16 pages on the hashing path.
/// Past a new end of the file (it shrank) this fails with `EFAULT` rather
/// than raising SIGBUS, and stops: the hashing thread's guard handles the
/// rest. Where the call is not known (Linux before 5.14, other systems),
/// the hashing thread faults as before.
fn prefault(map: &memmap2::Mmap) {
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

#[cfg(unix)]
pub(crate) mod sigbus {
    use std::ptr;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
    use std::sync::OnceLock;

    /// How many mappings can be watched at once: one for the sequential
    /// path, up to this many for a batch (`crate::batch` reads a file
    /// instead of mapping it when every slot is taken).
    const SLOTS: usize = 256;

    /// One watched mapping (start, length; length 0 = slot unused).
    struct Slot {
        busy: AtomicBool,
        start: AtomicUsize,
        len: AtomicUsize,
        faulted: AtomicBool,
    }

    #[allow(clippy::declare_interior_mutable_const)]
    const FREE: Slot = Slot {
        busy: AtomicBool::new(false),
        start: AtomicUsize::new(0),
        len: AtomicUsize::new(0),
        faulted: AtomicBool::new(false),
    };
    static WATCHED: [Slot; SLOTS] = [FREE; SLOTS];
    static PAGE: AtomicUsize = AtomicUsize::new(4096);
    /// The SIGBUS action before ours, to hand foreign faults back to.
    static PREVIOUS: OnceLock<libc::sigaction> = OnceLock::new();

    /// Watches one mapping while it is hashed (on any thread).
    pub struct Guard(usize);

    impl Guard {
        /// `None` if every slot is taken.
        pub fn arm(start: *const u8, len: usize) -> Option<Guard> {
            install();
            let index = WATCHED.iter().position(|slot| {
                slot.busy
                    .compare_exchange(false, true, SeqCst, SeqCst)
                    .is_ok()
            })?;
            let slot = &WATCHED[index];
            slot.faulted.store(false, SeqCst);
            slot.start.store(start as usize, SeqCst);
            slot.len.store(len, SeqCst);
            Some(Guard(index))
        }

        /// Stop watching; whether a page of the mapping had to be replaced.
        pub fn disarm(self) -> bool {
            let slot = &WATCHED[self.0];
            slot.len.store(0, SeqCst);
            slot.faulted.load(SeqCst)
            // Drop frees the slot.
        }
    }

    impl Drop for Guard {
        fn drop(&mut self) {
            let slot = &WATCHED[self.0];
            slot.len.store(0, SeqCst);
            slot.busy.store(false, SeqCst);
        }
    }

    fn install() {
        PREVIOUS.get_or_init(|| {
            // SAFETY: sysconf has no preconditions.
            let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
            if page > 0 {
                PAGE.store(page as usize, SeqCst);
            }
            // SAFETY: all-zero is a valid `sigaction` (no handler, empty mask).
            let mut ours: libc::sigaction = unsafe { std::mem::zeroed() };
            let handler: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                on_sigbus;
            ours.sa_sigaction = handler as usize;
            ours.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            // SAFETY: as above.
            let mut previous: libc::sigaction = unsafe { std::mem::zeroed() };
            // SAFETY: both pointers are to live, initialized sigaction values;
            // `on_sigbus` has the SA_SIGINFO signature and only does
            // async-signal-safe work (atomics, mmap, sigaction).
            unsafe {
                libc::sigemptyset(&mut ours.sa_mask);
                libc::sigaction(libc::SIGBUS, &ours, &mut previous);
            }
            previous
        });
    }

    extern "C" fn on_sigbus(
        _signal: libc::c_int,
        info: *mut libc::siginfo_t,
        _context: *mut libc::c_void,
    ) {
        // SAFETY: with SA_SIGINFO the kernel passes a valid siginfo_t.
        let (code, address) = unsafe { ((*info).si_code, (*info).si_addr() as usize) };
        if code <= 0 {
            // Sent by a process (kill, raise), not a fault: act as if we had
            // never been here, by the default action once this handler returns.
            // SAFETY: signal and raise are async-signal-safe.
            unsafe {
                libc::signal(libc::SIGBUS, libc::SIG_DFL);
                libc::raise(libc::SIGBUS);
            }
            return;
        }
        let watched = WATCHED.iter().find_map(|slot| {
            let (start, len) = (slot.start.load(SeqCst), slot.len.load(SeqCst));
            (len != 0 && address >= start && address - start < len).then_some((slot, start, len))
        });
        if let Some((slot, start, len)) = watched {
            let page = PAGE.load(SeqCst);
            let from = address & !(page - 1);
            let end = (start + len).div_ceil(page) * page;
            // SAFETY: [from, end) lies inside our own live mapping (mmap
            // returned `start` page-aligned and the map is only dropped after
            // the guard is disarmed); MAP_FIXED replaces those pages with
            // private zero pages, so the faulting read is retried and succeeds.
            let replaced = unsafe {
                libc::mmap(
                    from as *mut libc::c_void,
                    end - from,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if replaced != libc::MAP_FAILED {
                slot.faulted.store(true, SeqCst);
                return;
            }
        }
        // A fault not in our mapping (or no way to repair it): give the
        // signal back to the previous action; returning retries the access,
        // which faults again and reaches it.
        let previous = PREVIOUS
            .get()
            .map_or(ptr::null(), |p| p as *const libc::sigaction);
        // SAFETY: signal and sigaction are async-signal-safe, and `previous`
        // points to the action saved at installation, alive for the process.
        unsafe {
            if previous.is_null() {
                libc::signal(libc::SIGBUS, libc::SIG_DFL);
            } else {
                libc::sigaction(libc::SIGBUS, previous, ptr::null_mut());
            }
        }
    }
}

#[cfg(not(unix))]
pub(crate) mod sigbus {
    /// Elsewhere (Windows) a mapped file cannot be truncated, so there is no
    /// fault to catch; the before/after comparison still applies.
    pub struct Guard(());
    impl Guard {
        pub fn arm(_start: *const u8, _len: usize) -> Option<Guard> {
            Some(Guard(()))
        }
        pub fn disarm(self) -> bool {
            false
        }
    }
}
