//! The single-stream Threefish engine of the 128-bit-and-wider SIMD backends
//! that keep a state half in whole registers (x86's sse2, avx2, avx512 and
//! WebAssembly's simd128), written once over a `Half` of the state; it uses
//! no instruction of its own (their multi-lane kernels are
//! `backend::lanes::kernel` over their `Row`s).
//!
//! Layout (`layout.rs` beside this file, shared with PowerPC): the even words, which are always
//! the addition targets of MIX, live in one `Half`; the odd words, which are
//! always rotated and xored, in another. A round is then
//! `even += odd; odd = rotl(odd, counts) ^ even; odd = permute(odd)`.
//! Only the odd half is ever permuted: the spec's π maps evens to evens and
//! odds to odds, so the even half can stay in place while its lanes take on
//! new logical words; the odd half is permuted so that each lane again holds
//! the MIX partner of the even word beside it. The evens' relabeling is π
//! restricted to the even words, whose fourth power is the identity, so
//! every four rounds (at each key injection) both halves are back in the
//! natural order: lane l of `even` holds word 2l and of `odd` word 2l+1.
//!
//! Subkeys are formed on the fly: with the extended key stored as the cyclic
//! sequence ks[0], ks[2], .., ks[W], ks[1], ks[3], .., ks[W-1] (stride two
//! through an odd modulus visits every word), the even and odd lanes of
//! subkey s are each one unaligned load at a compile-time offset. The tweak
//! words and the subkey number are added from small per-block vectors.

use crate::backend::dispatch::isa::{width, BlockRun, SingleStream};
use crate::backend::even_odd::layout::{key_pos, lane_rotations, odd_permutations};
use crate::spec::{self, C240, T1_FIRST};
use core::marker::PhantomData;

/// `[f(0), .., f(K-1)]`, for a `Half` of `K` registers, as a plain loop
/// (`array::from_fn` is not always inlined, which would put a call in every
/// round).
#[inline(always)]
pub(crate) fn each<T: Copy, const K: usize>(f: impl Fn(usize) -> T) -> [T; K] {
    let mut out = [f(0); K];
    for (r, o) in out.iter_mut().enumerate().skip(1) {
        *o = f(r);
    }
    out
}

/// Half of a Threefish state (W/2 words) in some vector registers.
///
/// # Safety
/// Implementations use instructions of one target feature set; the engine's
/// functions may only be called where the implementing backend's token
/// proves the CPU has them.
pub(crate) trait Half: Copy {
    /// W/2: the number of 64-bit words (vector lanes) in the half.
    const WORDS: usize;
    /// Load `WORDS` words from `words` (no alignment needed).
    unsafe fn load(words: &[u64]) -> Self;
    /// Store the lanes to `words[..WORDS]`.
    unsafe fn store(self, words: &mut [u64]);
    unsafe fn add(self, other: Self) -> Self;
    unsafe fn xor(self, other: Self) -> Self;
    /// Rotate lane l left by `counts[l]` (1..=63).
    unsafe fn rotl(self, counts: &[u32; 8]) -> Self;
    /// Lane l of the result is lane `index[l]` of `self`.
    unsafe fn permute(self, index: &[usize; 8]) -> Self;
}

/// Per-lane constant of subkey s on the odd half: s in the last lane.
const fn subkey_number<const W: usize>(s: usize) -> [u64; 8] {
    let mut c = [0u64; 8];
    c[W / 2 - 1] = s as u64;
    c
}

#[inline(always)]
unsafe fn round<H: Half, const W: usize, const D: usize>(e: &mut H, o: &mut H) {
    let counts = const { lane_rotations::<W>()[D % 8] };
    let index = const { odd_permutations::<W>()[D % 4] };
    // SAFETY: the caller's contract, the backend's token, covers the `Half`
    // implementation's instructions.
    unsafe {
        *e = e.add(*o);
        *o = o.rotl(&counts).xor(*e).permute(&index);
    }
}

/// Per-block subkey material: the cyclic extended key and tweak vectors.
struct Subkeys<H> {
    key: [u64; 40],
    tweak_even: [H; 3],
    tweak_odd: [H; 3],
}

#[inline(always)]
unsafe fn inject<H: Half, const W: usize, const S: usize>(e: &mut H, o: &mut H, k: &Subkeys<H>) {
    let n0 = const { key_pos::<W>(S) };
    let n1 = const { key_pos::<W>(S + 1) };
    let number = const { subkey_number::<W>(S) };
    // SAFETY: see `round`.
    unsafe {
        let ke = H::load(&k.key[n0..]).add(k.tweak_even[(S + 1) % 3]);
        let ko = H::load(&k.key[n1..]).add(k.tweak_odd[S % 3].add(H::load(&number)));
        *e = e.add(ke);
        *o = o.add(ko);
    }
}

#[inline(always)]
unsafe fn eight_rounds<H: Half, const W: usize, const S: usize>(
    e: &mut H,
    o: &mut H,
    k: &Subkeys<H>,
) {
    // SAFETY: see `round`.
    unsafe {
        round::<H, W, 0>(e, o);
        round::<H, W, 1>(e, o);
        round::<H, W, 2>(e, o);
        round::<H, W, 3>(e, o);
        match S + 1 {
            1 => inject::<H, W, 1>(e, o, k),
            3 => inject::<H, W, 3>(e, o, k),
            5 => inject::<H, W, 5>(e, o, k),
            7 => inject::<H, W, 7>(e, o, k),
            9 => inject::<H, W, 9>(e, o, k),
            11 => inject::<H, W, 11>(e, o, k),
            13 => inject::<H, W, 13>(e, o, k),
            15 => inject::<H, W, 15>(e, o, k),
            17 => inject::<H, W, 17>(e, o, k),
            _ => inject::<H, W, 19>(e, o, k),
        }
        round::<H, W, 4>(e, o);
        round::<H, W, 5>(e, o);
        round::<H, W, 6>(e, o);
        round::<H, W, 7>(e, o);
        match S + 2 {
            2 => inject::<H, W, 2>(e, o, k),
            4 => inject::<H, W, 4>(e, o, k),
            6 => inject::<H, W, 6>(e, o, k),
            8 => inject::<H, W, 8>(e, o, k),
            10 => inject::<H, W, 10>(e, o, k),
            12 => inject::<H, W, 12>(e, o, k),
            14 => inject::<H, W, 14>(e, o, k),
            16 => inject::<H, W, 16>(e, o, k),
            18 => inject::<H, W, 18>(e, o, k),
            _ => inject::<H, W, 20>(e, o, k),
        }
    }
}

/// `WORDS`, `load`, `store`, `add` and `xor` of a [`Half`] `Regs<K>` of
/// `K` registers of two lanes (`struct Regs<const K: usize>([V; K])`),
/// written once (inside the `impl Half`) for SSE2 and SIMD128: the unaligned
/// load and store and the lane-wise add and xor are the arguments. (SIMD128's
/// add and xor are safe functions, hence the `allow`.)
macro_rules! two_lane_registers {
    (load = $load:path, store = $store:path, add = $add:path, xor = $xor:path) => {
        const WORDS: usize = 2 * K;
        #[inline(always)]
        unsafe fn load(words: &[u64]) -> Self {
            assert!(words.len() >= 2 * K);
            Regs($crate::backend::even_odd::engine::each::<_, K>(
                // SAFETY: the trait's contract; 2K readable words, and the loads
                // need no alignment.
                |r| unsafe { $load(words[2 * r..].as_ptr().cast()) },
            ))
        }
        #[inline(always)]
        unsafe fn store(self, words: &mut [u64]) {
            assert!(words.len() >= 2 * K);
            for r in 0..K {
                // SAFETY: the trait's contract; 2K writable words, and the
                // stores need no alignment.
                unsafe { $store(words[2 * r..].as_mut_ptr().cast(), self.0[r]) }
            }
        }
        #[inline(always)]
        #[allow(unused_unsafe)]
        unsafe fn add(self, o: Self) -> Self {
            Regs($crate::backend::even_odd::engine::each::<_, K>(
                // SAFETY: the trait's contract.
                |r| unsafe { $add(self.0[r], o.0[r]) },
            ))
        }
        #[inline(always)]
        #[allow(unused_unsafe)]
        unsafe fn xor(self, o: Self) -> Self {
            Regs($crate::backend::even_odd::engine::each::<_, K>(
                // SAFETY: the trait's contract.
                |r| unsafe { $xor(self.0[r], o.0[r]) },
            ))
        }
    };
}
pub(crate) use two_lane_registers;

/// `WORDS`, `load`, `store`, `add` and `xor` of a [`Half`] that is one
/// register (a tuple struct around it) of `$words` lanes, written once
/// (inside the `impl Half`); the unaligned load and store intrinsics and
/// the lane-wise add and xor are the arguments.
#[cfg(skein_simd_x86)]
macro_rules! register_half {
    ($words:literal, load = $load:path, store = $store:path, add = $add:path, xor = $xor:path) => {
        const WORDS: usize = $words;
        #[inline(always)]
        unsafe fn load(words: &[u64]) -> Self {
            assert!(words.len() >= $words);
            // SAFETY: the trait's contract; `$words` readable words.
            Self(unsafe { $load(words.as_ptr().cast()) })
        }
        #[inline(always)]
        unsafe fn store(self, words: &mut [u64]) {
            assert!(words.len() >= $words);
            // SAFETY: the trait's contract; `$words` writable words.
            unsafe { $store(words.as_mut_ptr().cast(), self.0) }
        }
        #[inline(always)]
        unsafe fn add(self, o: Self) -> Self {
            // SAFETY: the trait's contract.
            Self(unsafe { $add(self.0, o.0) })
        }
        #[inline(always)]
        unsafe fn xor(self, o: Self) -> Self {
            // SAFETY: the trait's contract.
            Self(unsafe { $xor(self.0, o.0) })
        }
    };
}
#[cfg(skein_simd_x86)]
pub(crate) use register_half;

/// The halves of Skein-256 and -512 in one register, `X2` (one xmm) and
/// `X4` (one ymm), for the backends with a rotate count per lane (AVX2 and
/// AVX-512), written once: the loads, stores, adds, xors and the odd
/// permutations that are fixed shuffles are the same in both; the backend
/// names its per-lane rotates (`rotl128(v, &counts[..2])`,
/// `rotl256(v, &counts[..4])`) and its permutation of four lanes in any order
/// (`permute_any256(v, [a, b, c, d])`). Also writes `permute256`, the
/// permutation of four lanes with the fixed shuffles first.
#[cfg(skein_simd_x86)]
macro_rules! register_halves {
    (rotl128 = $rotl128:path, rotl256 = $rotl256:path, permute_any256 = $any:path) => {
        /// Two lanes (Skein-256 half state).
        #[derive(Clone, Copy)]
        struct X2(__m128i);
        /// Four lanes (Skein-512 half state).
        #[derive(Clone, Copy)]
        struct X4(__m256i);

        /// Lane l of the result is lane `i[l]` of `v` (all four indices < 4).
        #[inline(always)]
        unsafe fn permute256(v: __m256i, i: &[usize]) -> __m256i {
            // SAFETY: the caller holds the backend's token.
            unsafe {
                match (i[0], i[1], i[2], i[3]) {
                    (0, 1, 2, 3) => v,
                    // Swapping within 128-bit halves is a one-cycle in-lane shuffle.
                    (1, 0, 3, 2) => _mm256_shuffle_epi32::<0x4E>(v),
                    (3, 2, 1, 0) => _mm256_permute4x64_epi64::<0x1B>(v),
                    (a, b, c, d) => $any(v, [a, b, c, d]),
                }
            }
        }

        impl Half for X2 {
            register_half! { 2, load = _mm_loadu_si128, store = _mm_storeu_si128, add = _mm_add_epi64, xor = _mm_xor_si128 }
            #[inline(always)]
            unsafe fn rotl(self, c: &[u32; 8]) -> Self {
                // SAFETY: `Half` is used only under this backend's token.
                X2(unsafe { $rotl128(self.0, &c[..2]) })
            }
            #[inline(always)]
            unsafe fn permute(self, i: &[usize; 8]) -> Self {
                // The one odd permutation of two lanes is the swap.
                if i[0] == 0 {
                    self
                } else {
                    // SAFETY: SSE2 is part of x86-64.
                    X2(unsafe { _mm_shuffle_epi32::<0x4E>(self.0) })
                }
            }
        }

        impl Half for X4 {
            register_half! { 4, load = _mm256_loadu_si256, store = _mm256_storeu_si256, add = _mm256_add_epi64, xor = _mm256_xor_si256 }
            #[inline(always)]
            unsafe fn rotl(self, c: &[u32; 8]) -> Self {
                // SAFETY: `Half` is used only under this backend's token.
                X4(unsafe { $rotl256(self.0, &c[..4]) })
            }
            #[inline(always)]
            unsafe fn permute(self, i: &[usize; 8]) -> Self {
                // SAFETY: `Half` is used only under this backend's token.
                X4(unsafe { permute256(self.0, &i[..4]) })
            }
        }
    };
}
#[cfg(skein_simd_x86)]
pub(crate) use register_halves;

/// The single-stream block function of a backend whose halves are `H4`,
/// `H8` and `H16` for Skein-256, -512 and -1024.
pub(crate) struct EvenOdd<H4, H8, H16>(PhantomData<(H4, H8, H16)>);

impl<H4: Half, H8: Half, H16: Half> SingleStream for EvenOdd<H4, H8, H16> {
    #[inline(always)]
    unsafe fn compress<const W: usize>(run: BlockRun<'_, W>) {
        // SAFETY: the caller's; each arm is the one whose width is W.
        unsafe {
            match W {
                4 => {
                    compress::<H4, 4>(width(run.chain), run.tweak, run.blocks, run.bytes_per_block)
                }
                8 => {
                    compress::<H8, 8>(width(run.chain), run.tweak, run.blocks, run.bytes_per_block)
                }
                _ => compress::<H16, 16>(
                    width(run.chain),
                    run.tweak,
                    run.blocks,
                    run.bytes_per_block,
                ),
            }
        }
    }
}

/// The block function of `portable::compress`, on the even/odd layout.
///
/// # Safety
/// The CPU must support the instructions `H` uses; `H::WORDS == W / 2`.
#[inline(always)]
unsafe fn compress<H: Half, const W: usize>(
    chain: &mut [u64; W],
    tweak: &mut [u64; 2],
    blocks: &[u8],
    bytes_per_block: u64,
) {
    debug_assert_eq!(blocks.len() % (8 * W), 0);
    let half = const {
        assert!((W == 4 || W == 8 || W == 16) && H::WORDS == W / 2);
        W / 2
    };
    let mut even = [0u64; 8];
    let mut odd = [0u64; 8];
    for l in 0..half {
        even[l] = chain[2 * l];
        odd[l] = chain[2 * l + 1];
    }
    // SAFETY: the caller guarantees the CPU runs `H`'s instructions.
    unsafe {
        let mut key_even = H::load(&even);
        let mut key_odd = H::load(&odd);
        let mut tw_even = [0u64; 24];
        let mut tw_odd = [0u64; 24];
        let mut k = Subkeys {
            key: [0u64; 40],
            tweak_even: [key_even; 3],
            tweak_odd: [key_odd; 3],
        };
        for block in blocks.chunks_exact(8 * W) {
            let mut m_even = [0u64; 8];
            let mut m_odd = [0u64; 8];
            for l in 0..half {
                m_even[l] = u64::from_le_bytes(block[16 * l..16 * l + 8].try_into().unwrap());
                m_odd[l] = u64::from_le_bytes(block[16 * l + 8..16 * l + 16].try_into().unwrap());
            }
            let m_even = H::load(&m_even);
            let m_odd = H::load(&m_odd);

            *tweak = spec::advance_tweak(*tweak, bytes_per_block);
            let ts = [tweak[0], tweak[1], tweak[0] ^ tweak[1]];
            for r in 0..3 {
                tw_even[r * half + half - 1] = ts[r];
                tw_odd[r * half + half - 2] = ts[r];
            }
            for r in 0..3 {
                k.tweak_even[r] = H::load(&tw_even[r * half..]);
                k.tweak_odd[r] = H::load(&tw_odd[r * half..]);
            }

            // Cyclic key sequence, twice: evens, parity, odds.
            key_even.store(&mut k.key[..]);
            key_odd.store(&mut k.key[half + 1..]);
            let mut parity = C240;
            for i in (0..half).chain(half + 1..W + 1) {
                parity ^= k.key[i];
            }
            k.key[half] = parity;
            key_even.store(&mut k.key[W + 1..]);
            key_odd.store(&mut k.key[W + half + 2..]);
            k.key[W + 1 + half] = parity;

            let mut e = m_even.add(key_even).add(k.tweak_even[1]);
            let mut o = m_odd.add(key_odd).add(k.tweak_odd[0]);
            eight_rounds::<H, W, 0>(&mut e, &mut o, &k);
            eight_rounds::<H, W, 2>(&mut e, &mut o, &k);
            eight_rounds::<H, W, 4>(&mut e, &mut o, &k);
            eight_rounds::<H, W, 6>(&mut e, &mut o, &k);
            eight_rounds::<H, W, 8>(&mut e, &mut o, &k);
            eight_rounds::<H, W, 10>(&mut e, &mut o, &k);
            eight_rounds::<H, W, 12>(&mut e, &mut o, &k);
            eight_rounds::<H, W, 14>(&mut e, &mut o, &k);
            eight_rounds::<H, W, 16>(&mut e, &mut o, &k);
            if W == 16 {
                eight_rounds::<H, W, 18>(&mut e, &mut o, &k);
            }
            key_even = e.xor(m_even);
            key_odd = o.xor(m_odd);
            tweak[1] &= !T1_FIRST;
        }
        key_even.store(&mut even);
        key_odd.store(&mut odd);
    }
    for l in 0..half {
        chain[2 * l] = even[l];
        chain[2 * l + 1] = odd[l];
    }
}
