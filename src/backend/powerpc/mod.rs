//! PowerPC (32- and 64-bit, either byte order): one module per instruction
//! set. They need unstable compiler features, so `build.rs` enables them only
//! where the compiler accepts those (`skein_simd_nightly`).

pub(crate) mod altivec;
pub(crate) mod vsx;
