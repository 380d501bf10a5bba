//! WebAssembly: the SIMD128 backend. WebAssembly has no run-time feature
//! detection (a module that uses SIMD instructions does not even load where
//! they are missing), so this folder is built only when the crate is
//! compiled with `-C target-feature=+simd128` (`build.rs`), and its token's
//! detection is that compile-time fact.

pub(crate) mod simd128;

// The even/odd single-stream engine of the x86 backends is written over a
// `Half` of the state and uses no x86 instruction itself: the same file,
// not a copy (it has no x86-specific item outside its macros, which this
// folder does not use).
#[allow(unused_macros, unused_imports)]
#[path = "../x86/engine.rs"]
mod engine;
