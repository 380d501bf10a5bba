//! The even/odd register layout of the SIMD single-stream block functions:
//! `layout.rs` derives it from the specification's tables (x86, PowerPC and
//! WebAssembly use it), `engine.rs` is the single-stream engine written
//! once over it for the backends that keep a state half in whole registers
//! (x86's sse2, avx2, avx512 and WebAssembly's simd128).

#[cfg(any(skein_simd_x86, skein_simd_wasm32))]
pub(crate) mod engine;
pub(crate) mod layout;
