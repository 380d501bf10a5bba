//! x86-64: one module per instruction set, each with one detection `Token`
//! for both its single-stream block function and its multi-lane kernel, and
//! the code they share in `engine`.

pub(crate) mod asm;
pub(crate) mod avx2;
pub(crate) mod avx512;
mod engine;
pub(crate) mod sse2;
