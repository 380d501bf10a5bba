//! Saved hasher states, in two formats: the crate's own, versioned and
//! self-describing (`versioned.rs`: `export_state` / `import_state`,
//! [`StateError`]), and RustCrypto `skein` 0.2's layout, which the `digest`
//! types' `SerializableState` uses (`rustcrypto.rs`). Each has its own
//! feature, so the folder is built with either.

#[cfg(feature = "digest")]
pub(crate) mod rustcrypto;
#[cfg(feature = "alloc")]
mod versioned;

#[cfg(feature = "alloc")]
pub use versioned::StateError;
