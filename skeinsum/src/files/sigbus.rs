//! The SIGBUS guard: a mapped file that shrinks under its mapping raises
//! SIGBUS on the first page past its new end. While a mapping is watched
//! (`Guard::arm` to `Guard::disarm`), a fault in it maps zero pages over the
//! rest of the mapping and is recorded, so hashing finishes on zeros and the
//! caller reports the file as changed. A SIGBUS anywhere else goes to the
//! action that was there before (the default one kills, as it should).

#[cfg(not(unix))]
pub(crate) use self::other::Guard;
#[cfg(unix)]
pub(crate) use self::unix::Guard;

#[cfg(unix)]
mod unix {
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
mod other {
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
