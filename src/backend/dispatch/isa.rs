//! What an instruction set is to the rest of the library: two traits.
//!
//! * [`Isa`], implemented by a backend's detection token: detection, the
//!   single-stream block function for every state width, and, where the
//!   instruction set has one, its multi-lane kernel.
//! * [`Row`], implemented by a vector type: the operations the multi-lane
//!   kernel of `lanes/kernel.rs` is written over (one row is one word of `L`
//!   computations). The kernel's other forms ([`LaneForm`]) are rows made
//!   of rows, for every `Row` alike: [`TwoGroups`], two independent groups of
//!   lanes, and [`WithScalar`], a group and a [`Scalar`] lane beside it.
//!
//! The backend table (`mod.rs`) names the token type of each backend and
//! reaches everything else through these traits.

use crate::backend::lanes::{LaneForm, LaneJob, Workload};

/// An instruction set, as its detection token: a value exists only when this
/// CPU (and OS) runs every instruction of the backend's code, which is what
/// makes the safe methods below sound.
pub(crate) trait Isa: Copy + Send + Sync + core::fmt::Debug + Eq + 'static {
    /// Lanes per call of the multi-lane kernel (its one-group form); 0 when
    /// the instruction set has none.
    const LANES: usize = 0;
    /// The forms of the multi-lane kernel, [`LaneForm::OneGroup`] first;
    /// none when the instruction set has no kernel.
    const FORMS: &'static [LaneForm] = &[];

    /// The token, if this CPU runs the instruction set.
    fn detect() -> Option<Self>;

    /// The form of the multi-lane kernel that runs for a state of `words`
    /// words on `work` when no test forces one: the instruction set's rule,
    /// written from measurements (docs/lanes.md) and the same on every
    /// run; the one-group form unless it has others. A form not in
    /// [`FORMS`](Self::FORMS) runs the one-group form.
    fn lane_form(words: usize, work: Workload) -> LaneForm {
        let _ = (words, work);
        LaneForm::OneGroup
    }

    /// Whether this build has the kernel in `form` (one of
    /// [`FORMS`](Self::FORMS)) for a state of `words` words: every form at
    /// every width, unless the instruction set compiles only what its rule
    /// picks (`feature_backend!`'s `compiled`). A form without a kernel
    /// at a width runs the rule's form there.
    fn has_form(form: LaneForm, words: usize) -> bool {
        let _ = words;
        Self::FORMS.contains(&form)
    }

    /// The single-stream block function for a state of `W` words (4, 8 or
    /// 16): for each block of `8 * W` bytes of `run.blocks`, advance the
    /// tweak position by `run.bytes_per_block` (carrying from word 0 into
    /// word 1), set `chain = Threefish(chain, tweak, block) ^ block` and
    /// clear the first-block flag. `run.blocks` is a whole number of blocks.
    fn compress<const W: usize>(self, run: BlockRun<'_, W>);

    /// [`compress`](Self::compress) of a UBI's last blocks, then the first
    /// block of the output stage (spec 3.5.3) from the chain they leave:
    /// `out` gets `UBI(chain, counter 0, Output)` as little-endian words;
    /// `run.chain` and `run.tweak` end as `compress` leaves them. Two calls
    /// of the block function unless the instruction set keeps the chain in
    /// registers from one block to the other (x86-64's assembly).
    fn compress_then_output<const W: usize>(self, run: BlockRun<'_, W>, out: &mut [[u8; 8]; W]) {
        compress_then_output_by_two(self, run, out)
    }

    /// Run `job` on the multi-lane kernel in `form` (one of [`FORMS`](Self::FORMS);
    /// any other runs the one-group form). Called only when `LANES > 0`.
    fn run_lanes<const W: usize, J: LaneJob<W>>(self, form: LaneForm, job: J) -> J::Output {
        let _ = (form, job);
        unreachable!("no multi-lane kernel")
    }
}

/// One call of the single-stream block function: a run of consecutive
/// blocks of one state, and the state it advances.
pub(crate) struct BlockRun<'a, const W: usize> {
    pub(crate) chain: &'a mut [u64; W],
    pub(crate) tweak: &'a mut [u64; 2],
    /// A whole number of blocks of `8 * W` bytes.
    pub(crate) blocks: &'a [u8],
    /// How far the tweak position advances per block.
    pub(crate) bytes_per_block: u64,
}

/// [`Isa::compress_then_output`] as two calls of the block function: the
/// blocks, then the output block from a copy of the chain (wiped after).
pub(crate) fn compress_then_output_by_two<I: Isa, const W: usize>(
    isa: I,
    run: BlockRun<'_, W>,
    out: &mut [[u8; 8]; W],
) {
    use crate::spec::{BlockType, T1_FINAL, T1_FIRST, T1_TYPE_SHIFT};
    use zeroize::Zeroize;
    let BlockRun {
        chain,
        tweak,
        blocks,
        bytes_per_block,
    } = run;
    isa.compress::<W>(BlockRun {
        chain: &mut *chain,
        tweak,
        blocks,
        bytes_per_block,
    });
    let mut g = *chain;
    let counter = [0u64; W];
    let mut out_tweak = [
        0,
        T1_FIRST | T1_FINAL | (BlockType::Output as u64) << T1_TYPE_SHIFT,
    ];
    isa.compress::<W>(BlockRun {
        chain: &mut g,
        tweak: &mut out_tweak,
        blocks: bytemuck::cast_slice(&counter[..]),
        bytes_per_block: 8,
    });
    for (bytes, word) in out.iter_mut().zip(&g) {
        *bytes = word.to_le_bytes();
    }
    g.zeroize();
}

/// A single-stream block function over some registers, compiled inside the
/// `#[target_feature]` entry of a `feature_backend!` module: every
/// implementation is `#[inline(always)]`, so that it, and the intrinsics in
/// it, inline there. Only `feature_backend!` modules (x86's SIMD
/// instruction sets, WebAssembly's and 64-bit PowerPC's VSX) have one.
#[cfg(any(
    skein_simd_x86,
    skein_simd_wasm32,
    all(skein_simd_powerpc, target_arch = "powerpc64")
))]
pub(crate) trait SingleStream {
    /// [`Isa::compress`].
    ///
    /// # Safety
    /// The CPU runs the instructions the implementation uses.
    unsafe fn compress<const W: usize>(run: BlockRun<'_, W>);
}

/// `words` as the `[u64; N]` it is when `W == N`: lets a `compress::<W>`
/// hand its state to code written for one width (checked, free after
/// monomorphization).
#[cfg(any(skein_simd_x86, skein_simd_powerpc, skein_simd_wasm32))]
#[inline(always)]
pub(crate) fn width<T, const W: usize, const N: usize>(words: &mut [T; W]) -> &mut [T; N] {
    <&mut [T; N]>::try_from(&mut words[..]).expect("state width")
}

/// One row of the multi-lane state in vector registers: word `j` of `L`
/// computations, lane `i` holding computation `i`.
///
/// # Safety
/// The methods execute the instruction set's instructions: call them only
/// where the CPU runs them, i.e. inside the backend's `#[target_feature]`
/// function, reached with its token. [`rol`](Row::rol) takes a count in
/// 1..=63 only (some implementations shift by `64 - r` or use a funnel
/// shift that is undefined at 64). Implementations are
/// `#[inline(always)]`, so that they inline into that function and the
/// kernel's indices and rotation counts become constants.
#[cfg(skein_simd_lanes)]
pub(crate) trait Row<const L: usize>: Copy {
    /// The state width `W` (words) at which the lane kernel leaves its
    /// rounds to LLVM's inliner instead of inlining them up front; 0: none.
    /// The instructions are the same; which values stay in registers and
    /// which are moved or spilled changes (docs/performance.md, "Instruction
    /// counts, before and after").
    const ROUNDS_INLINED_LATE: usize = 0;
    /// Every lane `v`.
    unsafe fn splat(v: u64) -> Self;
    /// Lane-wise wrapping addition.
    unsafe fn add(self, other: Self) -> Self;
    /// Lane-wise xor.
    unsafe fn xor(self, other: Self) -> Self;
    /// Lane-wise and.
    unsafe fn and(self, other: Self) -> Self;
    /// Every lane rotated left by `r` (1..=63; a constant once inlined).
    unsafe fn rol(self, r: u32) -> Self;
    /// Tweak words plus `step`, with the carry out of word 0 into word 1.
    unsafe fn advance(t0: Self, t1: Self, step: Self) -> (Self, Self);
    /// One row of a [`LaneState`](crate::backend::lanes::LaneState).
    unsafe fn load_row(row: &[u64; L]) -> Self;
    /// The inverse of [`load_row`](Self::load_row).
    unsafe fn store_row(self, row: &mut [u64; L]);
    /// The message rows of the block at byte `offset` of every lane (the
    /// transposing load: row `j` lane `i` is word `j` of `blocks[i]`).
    ///
    /// # Safety
    /// Also: every `blocks[i]` holds at least `offset + 8 * W` bytes.
    unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; L], offset: usize) -> [Self; W];
    /// Rows 0 and 1 of the block at byte `offset` of every lane: all
    /// a last block of at most 16 bytes has (its other rows are zero, and
    /// the kernel passes them as constants). Word by word here; instruction
    /// sets with wide registers shuffle.
    ///
    /// # Safety
    /// Also: every `blocks[i]` holds at least `offset + 16` bytes.
    #[inline(always)]
    unsafe fn load_two_rows(blocks: &[&[u8]; L], offset: usize) -> [Self; 2] {
        let word = |i: usize, j: usize| {
            let at = offset + 8 * j;
            u64::from_le_bytes(blocks[i][at..at + 8].try_into().expect("8 bytes"))
        };
        let rows: [[u64; L]; 2] = core::array::from_fn(|j| core::array::from_fn(|i| word(i, j)));
        // SAFETY: the caller's.
        unsafe { [Self::load_row(&rows[0]), Self::load_row(&rows[1])] }
    }
    /// The transposing store, as bytes: lane `i` of row `j` little-endian
    /// at byte `8 * (W * i + j)` of `out` (each lane's words together, as
    /// a digest is laid out: `L` digests of a block side by side, straight
    /// into the caller's output).
    /// Row by row here; instruction sets with wide registers transpose in
    /// them.
    ///
    /// # Panics
    /// If `out` is shorter than `L * 8 * W` bytes.
    #[inline(always)]
    unsafe fn store_lanes<const W: usize>(rows: &[Self; W], out: &mut [u8]) {
        // SAFETY: the caller's.
        unsafe { store_lanes_row_by_row::<Self, L, W>(rows, out) }
    }
    /// Threefish's subkey injections and rounds on `x`, under the key
    /// schedule rows `ks` (`W + 1` used) and the tweak rows `ts`, in code of
    /// the row's own (assembly), where it has such code for `W`; false
    /// (`x` untouched) where not, and the generic rounds run.
    ///
    /// `OUT_OF_LINE`: the caller runs these rounds once a call (a message's
    /// last block, its output block), so a row whose code is large may run
    /// one out-of-line copy shared by such callers rather than a copy
    /// inlined at each: a call's code then fits the instruction cache
    /// (docs/lanes.md, "The scalar lane's last and output blocks").
    #[inline(always)]
    unsafe fn own_rounds<const W: usize, const OUT_OF_LINE: bool>(
        x: &mut [Self; W],
        ks: &[Self; 17],
        ts: &[Self; 3],
    ) -> bool {
        let _ = (x, ks, ts);
        false
    }
    /// [`own_rounds`](Self::own_rounds) of the row beside a scalar lane
    /// ([`WithScalar`]): false where the row has no such code.
    #[cfg(skein_simd_x86)]
    #[inline(always)]
    unsafe fn own_rounds_beside_scalar<const W: usize, const OUT_OF_LINE: bool>(
        x: &mut [WithScalar<Self, L>; W],
        ks: &[WithScalar<Self, L>; 17],
        ts: &[WithScalar<Self, L>; 3],
    ) -> bool {
        let _ = (x, ks, ts);
        false
    }
}

/// [`Row::store_lanes`] one row at a time through
/// [`Row::store_row`]: the default, and the fallback of rows that
/// transpose in registers only for some widths.
///
/// # Safety
/// The CPU runs `R`'s instructions.
#[cfg(skein_simd_lanes)]
#[inline(always)]
pub(crate) unsafe fn store_lanes_row_by_row<R: Row<L>, const L: usize, const W: usize>(
    rows: &[R; W],
    out: &mut [u8],
) {
    let out = &mut out[..L * 8 * W];
    let mut row = [0u64; L];
    for (j, r) in rows.iter().enumerate() {
        // SAFETY: the caller's.
        unsafe { r.store_row(&mut row) };
        for (lane, &word) in out.chunks_exact_mut(8 * W).zip(&row) {
            lane[8 * j..8 * j + 8].copy_from_slice(&word.to_le_bytes());
        }
    }
}

/// The lane-wise `add`, `xor` and `and` of a [`Row`] implementation whose
/// operations are one intrinsic (or generic SIMD operation) each, written
/// once: invoked inside the `impl`, as `lanewise!(add = f, xor = g, and =
/// h);`.
#[cfg_attr(
    not(any(skein_simd_x86, all(skein_simd_powerpc, target_arch = "powerpc64"))),
    allow(unused_macros)
)]
macro_rules! lanewise {
    ($($op:ident = $f:path),+ $(,)?) => {
        $(
            #[inline(always)]
            unsafe fn $op(self, b: Self) -> Self {
                // SAFETY: the trait's contract.
                unsafe { $f(self, b) }
            }
        )+
    };
}
#[cfg_attr(
    not(any(skein_simd_x86, all(skein_simd_powerpc, target_arch = "powerpc64"))),
    allow(unused_imports)
)]
pub(crate) use lanewise;

/// `splat`, `load_row` and `store_row` of an x86 [`Row`] of `$lanes` lanes
/// in one register: one broadcast, one unaligned load, one unaligned store.
#[cfg_attr(not(skein_simd_x86), allow(unused_macros))]
macro_rules! register_row {
    ($lanes:literal, splat = $splat:path, load = $load:path, store = $store:path) => {
        #[inline(always)]
        unsafe fn splat(v: u64) -> Self {
            // SAFETY: the trait's contract.
            unsafe { $splat(v as i64) }
        }
        #[inline(always)]
        unsafe fn load_row(row: &[u64; $lanes]) -> Self {
            // SAFETY: the trait's contract; `row` is readable.
            unsafe { $load(row.as_ptr().cast()) }
        }
        #[inline(always)]
        unsafe fn store_row(self, row: &mut [u64; $lanes]) {
            // SAFETY: the trait's contract; `row` is writable.
            unsafe { $store(row.as_mut_ptr().cast(), self) }
        }
    };
}
#[cfg_attr(not(skein_simd_x86), allow(unused_imports))]
pub(crate) use register_row;

/// The two-groups form ([`LaneForm::TwoGroups`]): two independent groups of `L` lanes, lanes `0..L`
/// in `.0[0]` and `L..T` in `.0[1]` (`T = 2 * L`). Each operation acts on
/// both halves side by side, so the one kernel runs two independent
/// dependency chains that the compiler interleaves instruction by
/// instruction, for cores whose vector latency leaves pipes idle.
// Only x86 has a two-groups form so far.
#[cfg(skein_simd_x86)]
#[derive(Clone, Copy)]
pub(crate) struct TwoGroups<R, const L: usize>([R; 2]);

#[cfg(skein_simd_x86)]
impl<R: Row<L>, const L: usize, const T: usize> Row<T> for TwoGroups<R, L> {
    #[inline(always)]
    unsafe fn splat(v: u64) -> Self {
        const { assert!(T == 2 * L) };
        // SAFETY: the caller's: the CPU runs `R`'s instructions.
        let s = unsafe { R::splat(v) };
        TwoGroups([s, s])
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        // SAFETY: the caller's: the CPU runs `R`'s instructions (both halves).
        unsafe { TwoGroups([self.0[0].add(o.0[0]), self.0[1].add(o.0[1])]) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: the caller's: the CPU runs `R`'s instructions (both halves).
        unsafe { TwoGroups([self.0[0].xor(o.0[0]), self.0[1].xor(o.0[1])]) }
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        // SAFETY: the caller's: the CPU runs `R`'s instructions (both halves).
        unsafe { TwoGroups([self.0[0].and(o.0[0]), self.0[1].and(o.0[1])]) }
    }
    #[inline(always)]
    unsafe fn rol(self, r: u32) -> Self {
        // SAFETY: the caller's: the CPU runs `R`'s instructions (both halves).
        unsafe { TwoGroups([self.0[0].rol(r), self.0[1].rol(r)]) }
    }
    #[inline(always)]
    unsafe fn advance(t0: Self, t1: Self, step: Self) -> (Self, Self) {
        // SAFETY: the caller's: the CPU runs `R`'s instructions.
        let (a0, a1) = unsafe { R::advance(t0.0[0], t1.0[0], step.0[0]) };
        // SAFETY: the caller's: the CPU runs `R`'s instructions.
        let (b0, b1) = unsafe { R::advance(t0.0[1], t1.0[1], step.0[1]) };
        (TwoGroups([a0, b0]), TwoGroups([a1, b1]))
    }
    #[inline(always)]
    unsafe fn load_row(row: &[u64; T]) -> Self {
        let (lo, hi) = row.split_at(L);
        // SAFETY: the caller's: the CPU runs `R`'s instructions (both halves).
        unsafe {
            TwoGroups([
                R::load_row(lo.try_into().expect("half a row")),
                R::load_row(hi.try_into().expect("half a row")),
            ])
        }
    }
    #[inline(always)]
    unsafe fn store_row(self, row: &mut [u64; T]) {
        let (lo, hi) = row.split_at_mut(L);
        // SAFETY: the caller's: the CPU runs `R`'s instructions (both halves).
        unsafe {
            self.0[0].store_row(lo.try_into().expect("half a row"));
            self.0[1].store_row(hi.try_into().expect("half a row"));
        }
    }
    #[inline(always)]
    unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; T], offset: usize) -> [Self; W] {
        let (lo, hi) = blocks.split_at(L);
        // SAFETY: the caller's: the CPU runs `R`'s instructions, and every
        // lane of both halves holds `offset + 8 * W` bytes.
        let (lo, hi) = unsafe {
            (
                R::load_rows::<W>(lo.try_into().expect("half the lanes"), offset),
                R::load_rows::<W>(hi.try_into().expect("half the lanes"), offset),
            )
        };
        core::array::from_fn(|j| TwoGroups([lo[j], hi[j]]))
    }
    #[inline(always)]
    unsafe fn load_two_rows(blocks: &[&[u8]; T], offset: usize) -> [Self; 2] {
        let (lo, hi) = blocks.split_at(L);
        // SAFETY: the caller's: the CPU runs `R`'s instructions, and every
        // lane of both halves holds `offset + 16` bytes.
        let (lo, hi) = unsafe {
            (
                R::load_two_rows(lo.try_into().expect("half the lanes"), offset),
                R::load_two_rows(hi.try_into().expect("half the lanes"), offset),
            )
        };
        [TwoGroups([lo[0], hi[0]]), TwoGroups([lo[1], hi[1]])]
    }
    #[inline(always)]
    unsafe fn store_lanes<const W: usize>(rows: &[Self; W], out: &mut [u8]) {
        let (lo, hi) = out.split_at_mut(L * 8 * W);
        let lo_rows: [R; W] = core::array::from_fn(|j| rows[j].0[0]);
        let hi_rows: [R; W] = core::array::from_fn(|j| rows[j].0[1]);
        // SAFETY: the caller's.
        unsafe {
            R::store_lanes::<W>(&lo_rows, lo);
            R::store_lanes::<W>(&hi_rows, hi);
        }
    }
}

/// The single-stream block function of a state of `W` words, as a pointer
/// (a `feature_backend!` module's, like [`SingleStream`]).
#[cfg(any(
    skein_simd_x86,
    skein_simd_wasm32,
    all(skein_simd_powerpc, target_arch = "powerpc64")
))]
pub(crate) type StreamEntry<const W: usize> = unsafe fn(&mut [u64; W], &mut [u64; 2], &[u8], u64);

/// The multi-lane kernel of `L` lanes for a state of `W` words, as a pointer.
pub(crate) type LaneEntry<T, const W: usize, const L: usize> =
    fn(T, crate::backend::lanes::LaneCall<'_, W, L>);

/// The entry for a state of `W` words (4, 8 or 16) among `entries`, one per
/// width in that order, as its type `E` (which names `W`).
///
/// Why statics of pointers: the backends reach their block functions and
/// kernels only through `static`s of their entries, one per state width,
/// read here. A `static` is compiled once, in the crate that defines
/// it, with the functions it points to. Named directly from the generic
/// code above them (`lanes::<R, L, W>`), every crate that hashes through the
/// library's generic API (`Skein<W>`, `SkeinMany<W>`, `hash_many_into<M>`)
/// and is optimized at level 2 or 3 compiled every kernel and block
/// function again, since such crates do not share generic instances
/// (docs/testing.md, "Each kernel compiled once per build", has the
/// release build times before and after). The call
/// through a pointer costs nothing next to a kernel call: the kernels are
/// `#[target_feature]` functions, never inlined into their callers anyway.
/// Once inlined, `W` and the statics' types are known, and the choice
/// folds away.
///
/// # Panics
/// If `E` is not the type of the entry for `W` (a bug in the caller).
#[inline(always)]
pub(crate) fn by_width<const W: usize, E, A, B, C>(entries: &'static (A, B, C)) -> E
where
    E: core::any::Any + Copy,
    A: core::any::Any,
    B: core::any::Any,
    C: core::any::Any,
{
    let entry: &dyn core::any::Any = match W {
        4 => &entries.0,
        8 => &entries.1,
        _ => &entries.2,
    };
    *entry
        .downcast_ref::<E>()
        .expect("the entry for the state width")
}

/// One lane in a general-purpose register: the scalar row, which hashes a
/// lane beside the vector rows in [`WithScalar`] (the integer ALUs are
/// otherwise idle while the vector unit runs the kernel).
#[cfg(any(skein_simd_x86, skein_simd_aarch64, skein_simd_wasm32))]
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct Scalar(pub(crate) u64);

#[cfg(any(skein_simd_x86, skein_simd_aarch64, skein_simd_wasm32))]
impl Row<1> for Scalar {
    #[inline(always)]
    unsafe fn splat(v: u64) -> Self {
        Scalar(v)
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        Scalar(self.0.wrapping_add(o.0))
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        Scalar(self.0 ^ o.0)
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        Scalar(self.0 & o.0)
    }
    #[inline(always)]
    unsafe fn rol(self, r: u32) -> Self {
        Scalar(self.0.rotate_left(r))
    }
    #[inline(always)]
    unsafe fn advance(t0: Self, t1: Self, step: Self) -> (Self, Self) {
        let (sum, carry) = t0.0.overflowing_add(step.0);
        (Scalar(sum), Scalar(t1.0.wrapping_add(carry as u64)))
    }
    #[inline(always)]
    unsafe fn load_row(row: &[u64; 1]) -> Self {
        Scalar(row[0])
    }
    #[inline(always)]
    unsafe fn store_row(self, row: &mut [u64; 1]) {
        row[0] = self.0;
    }
    #[inline(always)]
    unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; 1], offset: usize) -> [Self; W] {
        let p = blocks[0].as_ptr();
        core::array::from_fn(|j| {
            // SAFETY: the caller's: `offset + 8 * W` bytes of `blocks[0]`
            // are readable, and `j < W`; `read_unaligned` needs no alignment.
            Scalar(u64::from_le(unsafe {
                p.add(offset + 8 * j).cast::<u64>().read_unaligned()
            }))
        })
    }
    #[inline(always)]
    unsafe fn store_lanes<const W: usize>(rows: &[Self; W], out: &mut [u8]) {
        for (word, r) in out[..8 * W].chunks_exact_mut(8).zip(rows) {
            word.copy_from_slice(&r.0.to_le_bytes());
        }
    }
}

/// The vector rows of `L` lanes and one scalar lane beside them, lane `L` in
/// `.1` (`T = L + 1`): each operation acts on both, so the kernel runs the
/// vector and the scalar dependency chains side by side, on the vector
/// unit and the integer ALUs at once.
///
/// `#[repr(C)]`: assembly reads rows of it from memory (`own_rounds`).
#[cfg(any(skein_simd_x86, skein_simd_aarch64, skein_simd_wasm32))]
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct WithScalar<R, const L: usize>(pub(crate) R, pub(crate) Scalar);

#[cfg(any(skein_simd_x86, skein_simd_aarch64, skein_simd_wasm32))]
impl<R: Row<L>, const L: usize, const T: usize> Row<T> for WithScalar<R, L> {
    const ROUNDS_INLINED_LATE: usize = R::ROUNDS_INLINED_LATE;
    #[cfg(skein_simd_x86)]
    #[inline(always)]
    unsafe fn own_rounds<const W: usize, const OUT_OF_LINE: bool>(
        x: &mut [Self; W],
        ks: &[Self; 17],
        ts: &[Self; 3],
    ) -> bool {
        // SAFETY: the caller's.
        unsafe { R::own_rounds_beside_scalar::<W, OUT_OF_LINE>(x, ks, ts) }
    }
    #[inline(always)]
    unsafe fn splat(v: u64) -> Self {
        const { assert!(T == L + 1) };
        // SAFETY: the caller's: the CPU runs `R`'s instructions.
        unsafe { WithScalar(R::splat(v), Scalar(v)) }
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        // SAFETY: the caller's: the CPU runs `R`'s instructions (`Scalar`'s are plain Rust).
        unsafe { WithScalar(self.0.add(o.0), self.1.add(o.1)) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        // SAFETY: the caller's: the CPU runs `R`'s instructions (`Scalar`'s are plain Rust).
        unsafe { WithScalar(self.0.xor(o.0), self.1.xor(o.1)) }
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        // SAFETY: the caller's: the CPU runs `R`'s instructions (`Scalar`'s are plain Rust).
        unsafe { WithScalar(self.0.and(o.0), self.1.and(o.1)) }
    }
    #[inline(always)]
    unsafe fn rol(self, r: u32) -> Self {
        // SAFETY: the caller's: the CPU runs `R`'s instructions (`Scalar`'s are plain Rust).
        unsafe { WithScalar(self.0.rol(r), self.1.rol(r)) }
    }
    #[inline(always)]
    unsafe fn advance(t0: Self, t1: Self, step: Self) -> (Self, Self) {
        // SAFETY: the caller's: the CPU runs `R`'s instructions.
        let (a0, a1) = unsafe { R::advance(t0.0, t1.0, step.0) };
        // SAFETY: `Scalar`'s operations are plain Rust.
        let (b0, b1) = unsafe { Scalar::advance(t0.1, t1.1, step.1) };
        (WithScalar(a0, b0), WithScalar(a1, b1))
    }
    #[inline(always)]
    unsafe fn load_row(row: &[u64; T]) -> Self {
        let (lo, hi) = row.split_at(L);
        // SAFETY: the caller's: the CPU runs `R`'s instructions (`Scalar`'s are plain Rust).
        unsafe {
            WithScalar(
                R::load_row(lo.try_into().expect("the vector lanes")),
                Scalar::load_row(hi.try_into().expect("the scalar lane")),
            )
        }
    }
    #[inline(always)]
    unsafe fn store_row(self, row: &mut [u64; T]) {
        let (lo, hi) = row.split_at_mut(L);
        // SAFETY: the caller's: the CPU runs `R`'s instructions (`Scalar`'s are plain Rust).
        unsafe {
            self.0.store_row(lo.try_into().expect("the vector lanes"));
            self.1.store_row(hi.try_into().expect("the scalar lane"));
        }
    }
    #[inline(always)]
    unsafe fn load_rows<const W: usize>(blocks: &[&[u8]; T], offset: usize) -> [Self; W] {
        let (lo, hi) = blocks.split_at(L);
        // SAFETY: the caller's: the CPU runs `R`'s instructions, and every
        // lane, the scalar one too, holds `offset + 8 * W` bytes.
        let (lo, hi) = unsafe {
            (
                R::load_rows::<W>(lo.try_into().expect("the vector lanes"), offset),
                Scalar::load_rows::<W>(hi.try_into().expect("the scalar lane"), offset),
            )
        };
        core::array::from_fn(|j| WithScalar(lo[j], hi[j]))
    }
    #[inline(always)]
    unsafe fn load_two_rows(blocks: &[&[u8]; T], offset: usize) -> [Self; 2] {
        let (lo, hi) = blocks.split_at(L);
        // SAFETY: the caller's: the CPU runs `R`'s instructions, and every
        // lane holds `offset + 16` bytes: the scalar lane's two rows.
        let (lo, hi) = unsafe {
            (
                R::load_two_rows(lo.try_into().expect("the vector lanes"), offset),
                Scalar::load_rows::<2>(hi.try_into().expect("the scalar lane"), offset),
            )
        };
        [WithScalar(lo[0], hi[0]), WithScalar(lo[1], hi[1])]
    }
    #[inline(always)]
    unsafe fn store_lanes<const W: usize>(rows: &[Self; W], out: &mut [u8]) {
        let (lo, hi) = out.split_at_mut(L * 8 * W);
        let vector: [R; W] = core::array::from_fn(|j| rows[j].0);
        let scalar: [Scalar; W] = core::array::from_fn(|j| rows[j].1);
        // SAFETY: the caller's (`Scalar`'s is plain Rust).
        unsafe {
            R::store_lanes::<W>(&vector, lo);
            Scalar::store_lanes::<W>(&scalar, hi);
        }
    }
}
