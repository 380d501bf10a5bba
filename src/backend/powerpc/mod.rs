//! PowerPC (32- and 64-bit, either byte order): one module per instruction
//! set. They need unstable compiler features, so `build.rs` enables them only
//! where the compiler accepts those (`skein_simd_nightly`).

pub(crate) mod altivec;
pub(crate) mod vsx;

/// The walk of a single-stream block function over its blocks, written once
/// for both instruction sets: a raw pointer and a count (the code of these
/// backends calls no library function that might stay out of line, see
/// `altivec`), and the tweak, whose position advances before each block
/// (carrying from word 0 into word 1) and whose first-block flag clears
/// after it.
pub(super) struct Blocks {
    at: *const u8,
    left: usize,
    bytes: usize,
    step: u64,
    t0: u64,
    t1: u64,
}

impl Blocks {
    /// `n` blocks of `bytes` bytes from `at`, the tweak advancing by `step`
    /// per block.
    #[inline(always)]
    pub(super) fn new(tweak: &[u64; 2], at: *const u8, n: usize, bytes: usize, step: u64) -> Self {
        Blocks {
            at,
            left: n,
            bytes,
            step,
            t0: tweak[0],
            t1: tweak[1],
        }
    }

    /// The next block and its tweak words, `None` after the last.
    #[inline(always)]
    pub(super) fn next(&mut self) -> Option<(*const u8, u64, u64)> {
        if self.left == 0 {
            return None;
        }
        self.t0 = self.t0.wrapping_add(self.step);
        if self.t0 < self.step {
            self.t1 = self.t1.wrapping_add(1);
        }
        Some((self.at, self.t0, self.t1))
    }

    /// The block from [`next`](Self::next) is hashed: clear the first-block
    /// flag and move on.
    ///
    /// # Safety
    /// The walk's blocks are in one allocation.
    #[inline(always)]
    pub(super) unsafe fn done(&mut self) {
        self.t1 &= !crate::spec::T1_FIRST;
        // SAFETY: the caller's; at most one past the last block.
        self.at = unsafe { self.at.add(self.bytes) };
        self.left -= 1;
    }

    /// The tweak after the walk.
    #[inline(always)]
    pub(super) fn tweak(&self) -> [u64; 2] {
        [self.t0, self.t1]
    }
}
