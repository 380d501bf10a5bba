//! The state tuple that pickles of hash objects hold: `skein.__reduce__`
//! gives `(_from_state, (state,))`, and `_from_state(state)` makes the
//! object again (both in hasher.rs, with [`save`] and [`load`]).
//!
//! `state` is the tuple `("skein_simd", 1, saved, message_bytes,
//! pending_bits, pending_value)`: a format tag and version, the library's
//! saved hasher (`DynSkein::export_state`, whose format the library keeps
//! stable and validates on import; it holds the state size, output length
//! and tree shape), the whole message bytes hashed (for `hashed_bits`), and a
//! partial byte not yet given to the library (0..=7 bits, top first). As in
//! pyskein, a state that is not a tuple is a `TypeError` and a malformed one
//! a `ValueError`.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt, PyString, PyTuple};
use skein_simd::DynSkein;

const TAG: &str = "skein_simd";
const VERSION: u8 = 1;

/// What a state tuple restores.
pub struct Saved {
    pub hasher: DynSkein,
    /// Whole message bytes given to `hasher`.
    pub bytes: u64,
    /// A partial byte not given to `hasher`: its bits (top first) and how many (1..=7).
    pub pending: Option<(u8, u8)>,
    pub state_bits: u64,
    pub digest_bits: u64,
    pub tree: bool,
}

/// The state tuple of a hash object (see the module comment).
pub fn save<'py>(
    py: Python<'py>,
    hasher: &DynSkein,
    tree: bool,
    bytes: u64,
    pending: Option<(u8, u8)>,
) -> PyResult<Bound<'py, PyTuple>> {
    // A tree hasher hashes its batch of buffered leaves to save them.
    let saved = if tree {
        py.detach(|| hasher.export_state())
    } else {
        hasher.export_state()
    };
    let (pending_bits, pending_value) = pending.map_or((0, 0), |(v, n)| (n, v));
    (
        TAG,
        VERSION,
        PyBytes::new(py, &saved),
        bytes,
        pending_bits,
        pending_value,
    )
        .into_pyobject(py)
}

fn invalid(why: &str) -> PyErr {
    PyValueError::new_err(format!("invalid state: {why}"))
}

/// Field `i` of the state tuple as an int in range for `T`.
fn int_field<T: TryFrom<i128>>(fields: &Bound<'_, PyTuple>, i: usize) -> PyResult<T> {
    let v = fields.get_item(i)?;
    if !v.is_instance_of::<PyInt>() {
        return Err(invalid("a field is not an int"));
    }
    v.extract::<i128>()
        .ok()
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| invalid("a field is out of range"))
}

/// What the state tuple `state` holds, checked: `TypeError` if it is not a
/// tuple, `ValueError` if it is malformed (as pyskein's `_from_state`).
pub fn load(py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<Saved> {
    let fields = state.cast::<PyTuple>().map_err(|_| {
        let type_name = state
            .get_type()
            .name()
            .map_or_else(|_| "?".to_string(), |n| n.to_string());
        PyTypeError::new_err(format!(
            "_from_state() argument 1 must be tuple, not {type_name}"
        ))
    })?;
    if fields.len() != 6 {
        return Err(invalid("not a skein_simd state tuple of 6 fields"));
    }
    let tag = fields.get_item(0)?;
    if !tag.is_instance_of::<PyString>() || tag.extract::<String>()? != TAG {
        return Err(invalid("not a skein_simd state"));
    }
    let version: u8 = int_field(fields, 1)?;
    if version != VERSION {
        return Err(invalid(&format!(
            "format version {version}; this build reads version {VERSION}"
        )));
    }
    let saved = fields.get_item(2)?;
    let saved = saved
        .cast::<PyBytes>()
        .map_err(|_| invalid("the saved hasher is not bytes"))?
        .as_bytes();
    let bytes: u64 = int_field(fields, 3)?;
    let pending_bits: u8 = int_field(fields, 4)?;
    let pending_value: u8 = int_field(fields, 5)?;
    let pending = match pending_bits {
        0 if pending_value == 0 => None,
        1..=7 if pending_value & (0xFF >> pending_bits) == 0 => Some((pending_value, pending_bits)),
        _ => return Err(invalid("bad partial byte")),
    };
    let hasher = py
        .detach(|| DynSkein::import_state(saved))
        .map_err(|e| invalid(&e.to_string()))?;
    let shape = Shape::of(&hasher, saved).ok_or_else(|| invalid("not a version-1 saved hasher"))?;
    if shape.bit_padded {
        // Partial bytes stay here until `digest()`; the library never sees
        // one mid-stream.
        return Err(invalid("the saved hasher ends in a partial byte"));
    }
    Ok(Saved {
        hasher,
        bytes,
        pending,
        state_bits: shape.state_bits,
        digest_bits: shape.digest_bits,
        tree: shape.tree,
    })
}

/// What a saved hasher holds that this module needs, from the typed API
/// where it has it (state size, output length) and from the saved state's
/// header for the flags (the library's format version 1, documented with
/// `DynSkein::export_state` and in docs/design.md: magic (8 bytes), version,
/// state words, flags (bit 0 bit pad, bit 1 tree)). Another version is
/// refused rather than misread.
struct Shape {
    state_bits: u64,
    digest_bits: u64,
    tree: bool,
    bit_padded: bool,
}

impl Shape {
    fn of(hasher: &DynSkein, saved: &[u8]) -> Option<Shape> {
        if saved.get(..9)? != b"SKEIN-ST\x01" {
            return None;
        }
        let flags = *saved.get(10)?;
        let (state_bits, digest_bits) = match hasher {
            DynSkein::S256(h) => (256, h.output_bits()),
            DynSkein::S512(h) => (512, h.output_bits()),
            DynSkein::S1024(h) => (1024, h.output_bits()),
        };
        Some(Shape {
            state_bits,
            digest_bits,
            tree: flags & 2 != 0,
            bit_padded: flags & 1 != 0,
        })
    }
}
