//! `skein_simd` for Python: pyskein 1.0's API (`skein256`, `skein512`,
//! `skein1024`, `threefish`, `Random`, `RandomBytes`, `StreamCipher`) on the
//! skein-simd library, plus `hash_many`, `hash_file` and `platform`. Only the
//! library's public API is used.

mod args;
mod buffer;
mod common;
mod constructions;
mod extras;
mod hasher;
mod pickling;
mod subtree;
mod threefish;

use pyo3::prelude::*;

/// Skein-256/512/1024 and Threefish: a faster, maintained drop-in for
/// pyskein 1.0 (`import skein_simd as skein`), plus `hash_many` (many
/// messages on SIMD lanes and all cores), `hash_file` (a file, read in pieces)
/// and `platform()` (the backends in use).
#[pymodule(name = "skein_simd")]
mod skein_simd_module {
    #[pymodule_export]
    use crate::extras::{hash_file, hash_many, platform};
    #[pymodule_export]
    use crate::hasher::{from_state, skein1024, skein256, skein512, Skein};
    #[pymodule_export]
    use crate::subtree::proof::SubtreeProof;
    #[pymodule_export]
    use crate::subtree::{ObjectTree, SubtreeRange, Subtrees};
    #[pymodule_export]
    use crate::threefish::Threefish;

    #[pymodule_init]
    fn init(m: &pyo3::Bound<'_, pyo3::types::PyModule>) -> pyo3::PyResult<()> {
        use pyo3::types::PyModuleMethods;
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        crate::constructions::add_to(m)
    }
}
