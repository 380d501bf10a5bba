//! WebAssembly: the SIMD128 backend. WebAssembly has no run-time feature
//! detection (a module that uses SIMD instructions does not even load where
//! they are missing), so this folder is built only when the crate is
//! compiled with `-C target-feature=+simd128` (`build.rs`), and its token's
//! detection is that compile-time fact.

pub(crate) mod simd128;
