//! What pickles hold. Hash objects: the state tuple, `skein.__reduce__`
//! gives `(_from_state, (state,))`, and `_from_state(state)` makes the
//! object again (both in hasher.rs, with [`save`] and [`load`]). Objects
//! that are their bytes (subtree values, proofs): [`reduce_to_bytes`].
//!
//! `state` is the tuple `("skein_simd", 1, saved, message_bytes,
//! pending_bits, pending_value)`: a format tag and version, the library's
//! saved hasher (`DynSkein::export_state`, whose format the library keeps
//! stable and validates on import; it holds the state size, output length
//! and tree shape), the whole message bytes hashed (for `hashed_bits`), and a
//! partial byte not yet given to the library (0..=7 bits, top first). As in
//! pyskein, a state that is not a tuple is a `TypeError` and a malformed one
//! a `ValueError`.
//!
//! The message byte count is also where the saved hasher stands (its
//! position and buffered bytes, or its closed leaves and open leaf): a count
//! that disagrees with it is refused, so `hashed_bits` is always right. A
//! message never grows past [`MAX_MESSAGE_BYTES`], so every hash object saves
//! a state that loads again.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt, PyString, PyTuple};
use skein_simd::DynSkein;

/// `obj.__reduce__()` of a class whose constructor takes the object's own
/// bytes: `(type(obj), (data,))`, so that unpickling calls `type(obj)(data)`
/// and the constructor checks the bytes again.
pub fn reduce_to_bytes<'py>(obj: &Bound<'py, PyAny>, data: &[u8]) -> PyResult<Bound<'py, PyTuple>> {
    let py = obj.py();
    let args = PyTuple::new(py, [PyBytes::new(py, data)])?;
    PyTuple::new(py, [obj.get_type().into_any(), args.into_any()])
}

const TAG: &str = "skein_simd";
const VERSION: u8 = 1;

/// The most message bytes (a partial last byte counted as one) a hash object
/// holds: the highest position the library's `import_state` accepts
/// (2^96 - 2^64 bytes, so that no input after an import can carry into the
/// tweak's reserved bits). Below it, every object's saved state loads again;
/// `update` refuses to go past it rather than wrap.
pub const MAX_MESSAGE_BYTES: u128 = (1 << 96) - (1 << 64);

/// What a state tuple restores.
pub struct Saved {
    pub hasher: DynSkein,
    /// Whole message bytes given to `hasher` (checked against it).
    pub bytes: u128,
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
    bytes: u128,
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
    let bytes: u128 = int_field(fields, 3)?;
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
    let held = shape
        .message_bytes
        .ok_or_else(|| invalid("the saved tree's closed leaves reach past 2^64 message bytes"))?;
    if bytes != held {
        return Err(invalid(&format!(
            "message byte count {bytes} disagrees with the saved hasher, which holds {held} bytes"
        )));
    }
    if bytes + pending.is_some() as u128 > MAX_MESSAGE_BYTES {
        return Err(invalid(
            "message longer than 2^96 - 2^64 bytes, the most a state can hold",
        ));
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
/// where it has it (state size, output length) and from the saved state
/// itself for the rest (the library's format version 1, documented with
/// `DynSkein::export_state`, in src/saved_state/versioned.rs and in docs/design.md: magic (8
/// bytes), version, state words W, flags (bit 0 bit pad, bit 1 tree), output
/// bits (u64), start chain (W u64), then the message part). Another version
/// is refused rather than misread. Read only after `import_state` accepted
/// the bytes, so the lengths are known to be right.
struct Shape {
    state_bits: u64,
    digest_bits: u64,
    tree: bool,
    bit_padded: bool,
    /// Message bytes the saved hasher holds; `None` for a tree whose closed
    /// leaves alone pass 2^64 bytes.
    message_bytes: Option<u128>,
}

fn u64_at(saved: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(saved.get(at..at + 8)?.try_into().ok()?))
}

/// Message bytes in the message part of a saved hasher of `words` state
/// words, starting at `at`:
/// - sequential: compressed bytes (u128), then the UBI (chain of W u64,
///   buffered count u8, ...): compressed + buffered;
/// - tree: Yl, Yf, Ym (3 u8), closed leaves (u64), bytes in the open leaf
///   (u64), ...: closed leaves * 8W * 2^Yl + bytes in the open leaf.
fn message_bytes(saved: &[u8], at: usize, words: usize, tree: bool) -> Option<Option<u128>> {
    if !tree {
        let compressed = u128::from_le_bytes(saved.get(at..at + 16)?.try_into().ok()?);
        let buffered = *saved.get(at + 16 + 8 * words)?;
        // Saturating: an impossible sum is then refused by the length limit.
        return Some(Some(compressed.saturating_add(buffered as u128)));
    }
    let leaf_log2 = *saved.get(at)? as u32;
    let closed_leaves = u64_at(saved, at + 3)?;
    let open_leaf = u64_at(saved, at + 11)?;
    // The exact leaf size, not the library's saturated one: whole leaves
    // must end below 2^64 bytes, the range of the library's tree positions.
    let block_log2 = (8 * words).trailing_zeros();
    let closed = match closed_leaves {
        0 => Some(0),
        n => (block_log2 + leaf_log2 < 64)
            .then(|| (n as u128) << (block_log2 + leaf_log2))
            .filter(|&b| b <= u64::MAX as u128),
    };
    Some(closed.map(|c| c + open_leaf as u128))
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
        let words = state_bits as usize / 64;
        if *saved.get(9)? as usize != words {
            return None;
        }
        let tree = flags & 2 != 0;
        // After magic, version, words, flags, output bits and start chain.
        let message_at = 8 + 3 + 8 + 8 * words;
        Some(Shape {
            state_bits,
            digest_bits,
            tree,
            bit_padded: flags & 1 != 0,
            message_bytes: message_bytes(saved, message_at, words, tree)?,
        })
    }
}
