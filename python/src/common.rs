//! What the hash object (`hasher.rs`), the extensions (`extras.rs`) and
//! Threefish (`threefish.rs`) share: when to release the GIL, the piece size
//! of long work, output buffers and pyskein's masking of a digest's unused
//! bits.

use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use skein_simd::mask_unused_bits;

/// Inputs at least this long are hashed with the GIL released (`hashlib`'s
/// threshold): below it, releasing and taking the GIL costs more than it lets
/// other threads do.
pub const GIL_RELEASE_BYTES: usize = 2048;

/// Long inputs are hashed in pieces of this many bytes, with pending signals
/// (Ctrl-C) handled between two pieces: short enough that an interrupt
/// comes through at once, long enough that the checks cost nothing
/// measurable (docs/python.md).
pub const CHUNK_BYTES: usize = 1 << 20;

/// `f()`, with the GIL released when the work is `long`.
pub fn detach_if<R: Send>(py: Python<'_>, long: bool, f: impl FnOnce() -> R + Send) -> R {
    if long {
        py.detach(f)
    } else {
        f()
    }
}

/// A Vec of `len` zero bytes, or `MemoryError` instead of an abort.
pub fn alloc_output(len: u64) -> PyResult<Vec<u8>> {
    let too_big = || PyMemoryError::new_err(format!("cannot allocate a digest of {len} bytes"));
    let len = usize::try_from(len).map_err(|_| too_big())?;
    let mut out = Vec::new();
    out.try_reserve_exact(len).map_err(|_| too_big())?;
    out.resize(len, 0);
    Ok(out)
}

/// Bytes `start..start + out.len()` of a `digest_bits`-bit digest with the
/// unused low bits of the digest's last byte cleared, as pyskein does (the
/// library's [`skein_simd::mask_unused_bits`], for a slice): only a
/// slice that ends with the digest holds that byte.
pub fn mask_unused_bits_of_slice(out: &mut [u8], start: u64, digest_bits: u64) {
    if !out.is_empty() && start + out.len() as u64 == digest_bits.div_ceil(8) {
        skein_simd::mask_unused_bits(out, digest_bits - 8 * start);
    }
}

/// `out`, digests of `len` bytes one after the other, as a list of `bytes`,
/// each with its unused bits of a `digest_bits`-bit digest cleared (the
/// batch functions' result).
pub fn digest_list<'py>(
    py: Python<'py>,
    out: &mut [u8],
    len: usize,
    digest_bits: u64,
) -> PyResult<Bound<'py, PyList>> {
    let digests = PyList::empty(py);
    if len > 0 {
        for d in out.chunks_exact_mut(len) {
            mask_unused_bits(d, digest_bits);
            digests.append(PyBytes::new(py, d))?;
        }
    }
    Ok(digests)
}
