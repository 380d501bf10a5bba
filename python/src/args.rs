//! The hash arguments of pyskein's constructors (`init`, `digest_bits`, `key`,
//! `pers`, `public_key`, `key_id`, `nonce`, `tree`), parsed and checked in
//! pyskein 1.0's order with its exception types and messages: first every
//! byte argument (`TypeError`/`BufferError`), then `digest_bits`
//! (`ValueError`), then `tree` (`TypeError` for the shape or the item types,
//! `ValueError` for the ranges).

use crate::buffer::Bytes;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyInt, PyTuple};
use skein_simd::{Params, TreeParams};

/// The byte arguments hashed before the message, in pyskein's keyword order.
pub const BYTE_ARGS: [&str; 5] = ["key", "pers", "public_key", "key_id", "nonce"];

/// Arguments by name, from `*args, **kwargs` with this positional order and
/// these keyword-only names; CPython's `TypeError`s for unknown, repeated or
/// extra arguments.
pub fn by_name<'py>(
    function: &str,
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
    positional: &[&'static str],
    keyword_only: &[&'static str],
) -> PyResult<Vec<(&'static str, Bound<'py, PyAny>)>> {
    if args.len() > positional.len() {
        return Err(PyTypeError::new_err(match positional {
            // pyskein's own message for its constructors.
            ["init", "digest_bits"] => {
                "all arguments except 'init' and 'digest_bits' are keyword-only".to_string()
            }
            _ => format!(
                "{function}() takes at most {} positional arguments ({} given)",
                positional.len(),
                args.len()
            ),
        }));
    }
    let mut out: Vec<(&'static str, Bound<'py, PyAny>)> =
        positional.iter().copied().zip(args.iter()).collect();
    if let Some(kwargs) = kwargs {
        for (key, value) in kwargs.iter() {
            let key: String = key.extract()?;
            let Some(&name) = positional.iter().chain(keyword_only).find(|n| **n == key) else {
                return Err(PyTypeError::new_err(format!(
                    "'{key}' is an invalid keyword argument for {function}()"
                )));
            };
            if out.iter().any(|(n, _)| *n == name) {
                let pos = positional
                    .iter()
                    .position(|n| *n == name)
                    .map_or(0, |p| p + 1);
                return Err(PyTypeError::new_err(format!(
                    "argument for {function}() given by name ('{name}') and position ({pos})"
                )));
            }
            out.push((name, value));
        }
    }
    Ok(out)
}

/// Look up an argument parsed by [`by_name`].
pub fn get<'a, 'py>(
    args: &'a [(&'static str, Bound<'py, PyAny>)],
    name: &str,
) -> Option<&'a Bound<'py, PyAny>> {
    args.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
}

/// Everything of a Skein computation but the message, owned (views of the
/// caller's buffers).
pub struct HashArgs {
    pub digest_bits: u64,
    /// key, pers, public_key, key_id, nonce (in [`BYTE_ARGS`] order).
    bytes: [Option<Bytes>; 5],
    pub tree: Option<TreeParams>,
}

impl HashArgs {
    /// Parse the arguments other than `init`; `state_bits` is the default
    /// output length. Byte arguments first, then `digest_bits`, then `tree`.
    pub fn parse(args: &[(&'static str, Bound<'_, PyAny>)], state_bits: u64) -> PyResult<HashArgs> {
        let mut bytes: [Option<Bytes>; 5] = Default::default();
        for (slot, name) in bytes.iter_mut().zip(BYTE_ARGS) {
            if let Some(v) = get(args, name) {
                *slot = Some(Bytes::get(v)?);
            }
        }
        let digest_bits = match get(args, "digest_bits") {
            Some(v) => digest_bits(v)?,
            None => state_bits,
        };
        let tree = match get(args, "tree") {
            Some(v) if !v.is_none() => Some(tree(v)?),
            _ => None,
        };
        Ok(HashArgs {
            digest_bits,
            bytes,
            tree,
        })
    }

    /// Total length of the byte arguments.
    pub fn bytes_len(&self) -> usize {
        self.bytes.iter().flatten().map(Bytes::len).sum()
    }

    /// The library's view of these arguments.
    pub fn params(&self) -> Params<'_> {
        let arg = |i: usize| self.bytes[i].as_ref().map_or(&[][..], Bytes::as_slice);
        let mut p = Params::new()
            .output_bits(self.digest_bits)
            .key(arg(0))
            .personalization(arg(1))
            .public_key(arg(2))
            .key_id(arg(3))
            .nonce(arg(4));
        if let Some(t) = self.tree {
            p = p.tree(t);
        }
        p
    }
}

/// `digest_bits`: an `int` (or `bool`) in 1..2**64 — pyskein reads it with
/// `PyLong_AsUnsignedLongLong`, so anything else, even an object with
/// `__index__`, is a `ValueError`.
pub fn digest_bits(v: &Bound<'_, PyAny>) -> PyResult<u64> {
    let err = || PyValueError::new_err("digest_bits must be between 1 and 2**64-1");
    if !v.is_instance_of::<PyInt>() {
        return Err(err());
    }
    match v.extract::<u64>() {
        Ok(bits) if bits > 0 => Ok(bits),
        _ => Err(err()),
    }
}

/// `tree=(leaf, fan_out, max_height)`: any sequence of three integers with
/// 1 <= leaf, fan_out <= 56 and 2 <= max_height <= 255, checked in order.
pub fn tree(v: &Bound<'_, PyAny>) -> PyResult<TreeParams> {
    const SHAPE: &str = "'tree' must be triple of tree parameters";
    // pyskein takes any iterable (PySequence_Fast): a list, a tuple, even bytes.
    let items: Vec<Bound<'_, PyAny>> = match v.try_iter() {
        Ok(it) => it
            .collect::<PyResult<_>>()
            .map_err(|_| PyTypeError::new_err(SHAPE))?,
        Err(_) => return Err(PyTypeError::new_err(SHAPE)),
    };
    if items.len() != 3 {
        return Err(PyTypeError::new_err(SHAPE));
    }
    let mut p = [0u8; 3];
    for (i, (item, (min, max))) in items.iter().zip([(1, 56), (1, 56), (2, 255)]).enumerate() {
        if item.is_instance_of::<PyFloat>() {
            return Err(PyTypeError::new_err("tree parameters have to be integers"));
        }
        // Integers (and `__index__` objects) too large for a C long take
        // pyskein's range error, not a type error.
        let value = match item.extract::<i64>() {
            Ok(x) => Some(x),
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(item.py()) => None,
            Err(_) => return Err(PyTypeError::new_err("tree parameters have to be integers")),
        };
        match value {
            Some(x) if (min..=max).contains(&x) => p[i] = x as u8,
            _ => {
                return Err(PyValueError::new_err(
                    "tree parameters have to be between (1, 1, 2) and (56, 56, 255)",
                ))
            }
        }
    }
    Ok(
        TreeParams::new(p[0], p[1], p[2])
            .expect("checked above: the library's tree range is wider"),
    )
}

/// `state_bits` of the extensions: 256, 512 or 1024.
pub fn state_bits(args: &[(&'static str, Bound<'_, PyAny>)]) -> PyResult<u64> {
    match get(args, "state_bits") {
        None => Ok(512),
        Some(v) => match v.extract::<u64>() {
            Ok(b @ (256 | 512 | 1024)) => Ok(b),
            Ok(_) => Err(PyValueError::new_err("state_bits must be 256, 512 or 1024")),
            Err(e) => Err(e),
        },
    }
}
