//! Memory-mapped reading of large regular files: the only `unsafe` of the tool.
//!
//! A mapped file can change under us. The policy, in three parts:
//! 1. We map exactly the length that `fstat` gave before mapping, and compare
//!    length and modification time after hashing with those before; any change
//!    makes the file an error ("file changed while being read") instead of a
//!    digest of a mix of old and new contents.
//! 2. If the file shrinks (between `fstat` and `mmap`, or during hashing),
//!    touching a page past its new end raises SIGBUS, which would kill the
//!    process. On Unix a SIGBUS handler, armed only around the hashing of one
//!    mapping, maps zero pages over the rest of that mapping and records the
//!    fault; hashing then finishes on zeros, and the fault turns into the same
//!    error as in 1. A SIGBUS elsewhere goes to the handler that was there
//!    before (the default one kills, as it should).
//! 3. Small files (under `MMAP_MIN`), pipes and devices are read, never mapped.

use std::fs::File;
use std::io;
use std::time::SystemTime;

use memmap2::{Advice, MmapOptions};

/// What must not change while a file is hashed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot {
    len: u64,
    modified: Option<SystemTime>,
}

impl Snapshot {
    pub fn of(meta: &std::fs::Metadata) -> Snapshot {
        Snapshot {
            len: meta.len(),
            modified: meta.modified().ok(),
        }
    }
    pub fn len(&self) -> u64 {
        self.len
    }
}

/// Map the first `snapshot.len()` bytes of `file`, hand them to `consume`,
/// and tell whether the file stayed as it was: `Ok(true)` when the bytes seen
/// are the file's, `Ok(false)` when it changed size or time or shrank under
/// the mapping.
pub fn with_mapped(file: &File, before: Snapshot, consume: impl FnOnce(&[u8])) -> io::Result<bool> {
    let len = usize::try_from(before.len).map_err(|_| {
        io::Error::new(
            io::ErrorKind::OutOfMemory,
            "file too large to map on this platform",
        )
    })?;
    crate::testing::pause("map");
    // SAFETY: memmap2 requires that nobody changes the file while the map
    // lives, which no program can promise for files of other processes. What
    // we guarantee instead: the bytes are only read as plain data (no
    // invariant of ours depends on them); a shrink cannot kill us (the SIGBUS
    // guard below); and any change at all is detected afterwards and reported
    // as an error, so a digest of inconsistent contents is never printed.
    let map = unsafe { MmapOptions::new().len(len).map(file)? };
    // Only a hint; reading works the same without it.
    let _ = map.advise(Advice::Sequential);
    let guard = sigbus::Guard::arm(map.as_ptr(), map.len());
    crate::testing::pause("hash");
    consume(&map);
    let faulted = guard.disarm();
    drop(map);
    let after = Snapshot::of(&file.metadata()?);
    Ok(!faulted && after == before)
}

#[cfg(unix)]
mod sigbus {
    use std::ptr;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
    use std::sync::OnceLock;

    /// The mapping being hashed (start, length; length 0 = none).
    static START: AtomicUsize = AtomicUsize::new(0);
    static LEN: AtomicUsize = AtomicUsize::new(0);
    static FAULTED: AtomicBool = AtomicBool::new(false);
    static PAGE: AtomicUsize = AtomicUsize::new(4096);
    /// The SIGBUS action before ours, to hand foreign faults back to.
    static PREVIOUS: OnceLock<libc::sigaction> = OnceLock::new();

    /// Watches one mapping at a time (files are hashed one after another).
    pub struct Guard(());

    impl Guard {
        pub fn arm(start: *const u8, len: usize) -> Guard {
            install();
            FAULTED.store(false, SeqCst);
            START.store(start as usize, SeqCst);
            LEN.store(len, SeqCst);
            Guard(())
        }

        /// Stop watching; whether a page of the mapping had to be replaced.
        pub fn disarm(self) -> bool {
            LEN.store(0, SeqCst);
            FAULTED.load(SeqCst)
        }
    }

    impl Drop for Guard {
        fn drop(&mut self) {
            LEN.store(0, SeqCst);
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
        let (start, len) = (START.load(SeqCst), LEN.load(SeqCst));
        if len != 0 && address >= start && address - start < len {
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
                FAULTED.store(true, SeqCst);
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
mod sigbus {
    /// Elsewhere (Windows) a mapped file cannot be truncated, so there is no
    /// fault to catch; the before/after comparison still applies.
    pub struct Guard(());
    impl Guard {
        pub fn arm(_start: *const u8, _len: usize) -> Guard {
            Guard(())
        }
        pub fn disarm(self) -> bool {
            false
        }
    }
}
