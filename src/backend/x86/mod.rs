//! x86-64: one module per instruction set, each with one detection `Token`
//! for both its single-stream block function and its multi-lane kernel, and
//! the code they share in `engine`.

pub(crate) mod asm;
pub(crate) mod avx2;
pub(crate) mod avx512;
mod engine;
pub(crate) mod sse2;

/// `advance` of a [`Row`](crate::backend::isa::Row) on an instruction set
/// without unsigned 64-bit compares (SSE2, AVX2), written once (inside the
/// `impl`, over its `add` and `and`): the carry out of word 0 is the top bit
/// of `(a & b) | ((a | b) & !sum)`, shifted down (`top_bit`) and added to
/// word 1.
macro_rules! carry_advance {
    (or = $or:path, andnot = $andnot:path, top_bit = $top:path) => {
        #[inline(always)]
        unsafe fn advance(t0: Self, t1: Self, step: Self) -> (Self, Self) {
            // SAFETY: the trait's contract.
            unsafe {
                let sum = t0.add(step);
                let carry = $or(t0.and(step), $andnot(sum, $or(t0, step)));
                (sum, t1.add($top(carry)))
            }
        }
    };
}
use carry_advance;

/// Every lane of `$v` rotated left by `$r` as two shifts by a count in a
/// register and an or, for instruction sets without a 64-bit rotate (SSE2,
/// AVX2); `unsafe` (the shift intrinsics need their target features).
macro_rules! rotate_by_shifts {
    ($v:expr, $r:expr, sll = $sll:path, srl = $srl:path, or = $or:path) => {{
        let (v, r): (_, u32) = ($v, $r);
        $or(
            $sll(v, _mm_cvtsi32_si128(r as i32)),
            $srl(v, _mm_cvtsi32_si128(64 - r as i32)),
        )
    }};
}
use rotate_by_shifts;
