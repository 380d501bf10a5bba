//! RISC-V (64-bit, little-endian): one module per instruction set. The
//! vector extension's code is written on `core::simd`, which LLVM lowers to
//! RVV inside `#[target_feature(enable = "v")]` functions; that and its
//! run-time detection are unstable in Rust, so `build.rs` enables the
//! folder only where the compiler accepts them (`skein_simd_nightly`).

pub(crate) mod rvv;
