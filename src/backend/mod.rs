//! Block-function backends, one module per instruction set. Only
//! [`crate::platform`] chooses between them.
//!
//! Each module offers the same seam: a `Token` whose `detect()` succeeds only
//! when this CPU runs the backend, and safe `compress_256/512/1024(token,
//! chain, tweak, blocks, bytes_per_block)` functions (see `portable`).

pub(crate) mod portable;

// Multi-lane kernels (many computations per call): see the "many lanes"
// section of platform.rs.
#[cfg(feature = "alloc")]
pub(crate) mod lanes_portable;
#[cfg(all(feature = "alloc", target_arch = "x86_64"))]
pub(crate) mod lanes_avx2;
#[cfg(all(feature = "alloc", target_arch = "x86_64"))]
pub(crate) mod lanes_avx512;
#[cfg(all(feature = "alloc", target_arch = "x86_64"))]
pub(crate) mod lanes_sse2;

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512;
#[cfg(target_arch = "x86_64")]
pub(crate) mod sse2;
#[cfg(target_arch = "x86_64")]
mod x86_engine;

#[cfg(all(
    any(target_arch = "powerpc", target_arch = "powerpc64"),
    skein_simd_nightly
))]
pub(crate) mod altivec;
#[cfg(all(
    any(target_arch = "powerpc", target_arch = "powerpc64"),
    skein_simd_nightly
))]
pub(crate) mod vsx;

#[cfg(target_arch = "aarch64")]
pub(crate) mod neon;

// Scalar x86-64 assembly (stable `asm!`); lives at its place in the
// one-directory-per-ISA layout.
#[cfg(target_arch = "x86_64")]
#[path = "x86/asm.rs"]
pub(crate) mod x86_asm;
