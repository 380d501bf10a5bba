//! AArch64 (little-endian): one module per instruction set.

pub(crate) mod neon;
