//! Subtree hashing (the library's `hazmat::ObjectTree`): `ObjectTree`
//! describes the tree of one object of a known length, `split` cuts it into
//! `SubtreeRange`s, any process hashes a range (`hash_range` from bytes,
//! `hash_file_range` from a file, reading only that range) into a
//! `Subtrees` value, and `root` merges the values into the digest that
//! `skein512(data, tree=...)` gives. Ranges and values pickle (plain
//! numbers and bytes), so they travel between processes and machines;
//! the tree itself holds the key's chain and does not: build it in each
//! process from the same arguments.

use crate::args::{self, HashArgs};
use crate::buffer::Bytes;
use crate::common::{alloc_output, CHUNK_BYTES};
use crate::extras::KEYWORDS;
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PySlice, PyTuple};
use skein_simd::hazmat;
use skein_simd::mask_unused_bits;

/// The library's tree of each state size.
enum Tree {
    S256(hazmat::ObjectTree<4>),
    S512(hazmat::ObjectTree<8>),
    S1024(hazmat::ObjectTree<16>),
}

/// `$body` with `$t` the tree of whatever state size, `$w` its word count.
macro_rules! with_tree {
    ($tree:expr, $t:ident, $w:ident => $body:expr) => {
        match $tree {
            Tree::S256($t) => {
                const $w: usize = 4;
                $body
            }
            Tree::S512($t) => {
                const $w: usize = 8;
                $body
            }
            Tree::S1024($t) => {
                const $w: usize = 16;
                $body
            }
        }
    };
}

#[path = "proof.rs"]
pub(crate) mod proof; // after `with_tree!`, which it uses
fn value_error(e: skein_simd::Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// `ObjectTree(length, digest_bits=state_bits, *, state_bits=512, key=b'',
/// pers=b'', public_key=b'', key_id=b'', nonce=b'', tree)`
///
/// The tree of one object of `length` bytes hashed with these arguments
/// (`tree=(leaf, fan_out, max_height)` is required). Sharp tool: values
/// from another object or other arguments give a wrong digest, not an
/// error; build the same tree in every process.
#[pyclass(frozen, module = "skein_simd", name = "ObjectTree")]
pub struct ObjectTree {
    tree: Tree,
    state_bits: u64,
    digest_bits: u64,
}

/// `SubtreeRange(level, first, count, start, end)`: the nodes `first ..
/// first + count` of tree level `level` (1: leaves) and the object's bytes
/// `start:end` under them. Made by `ObjectTree.split` or `ObjectTree.range`;
/// pickles as those five numbers.
#[pyclass(frozen, eq, hash, module = "skein_simd", name = "SubtreeRange")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SubtreeRange {
    #[pyo3(get)]
    level: u8,
    #[pyo3(get)]
    first: u64,
    #[pyo3(get)]
    count: u64,
    #[pyo3(get)]
    start: u64,
    #[pyo3(get)]
    end: u64,
}

/// `Subtrees(data)`: the chaining values of a run of nodes of one level, as
/// `bytes(values)` wrote them. Pickles as those bytes. In a keyed tree they
/// are keyed values: treat them as the key's.
#[pyclass(frozen, module = "skein_simd", name = "Subtrees")]
pub struct Subtrees {
    /// The library's byte form (`hazmat::Subtrees::to_bytes`), checked.
    data: Vec<u8>,
}

impl Subtrees {
    fn of<const W: usize>(values: &hazmat::Subtrees<W>) -> Subtrees {
        Subtrees {
            data: values.to_bytes(),
        }
    }

    fn get<const W: usize>(&self) -> PyResult<hazmat::Subtrees<W>> {
        hazmat::Subtrees::<W>::from_bytes(&self.data).map_err(|_| {
            PyValueError::new_err(format!(
                "values of a {}-bit state, not {}",
                64 * u64::from(self.data[0]),
                64 * W
            ))
        })
    }
}

#[pymethods]
impl Subtrees {
    #[new]
    fn new(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let data = Bytes::get(data)?.as_slice().to_vec();
        let valid = match data.first() {
            Some(4) => hazmat::Subtrees::<4>::from_bytes(&data).is_ok(),
            Some(8) => hazmat::Subtrees::<8>::from_bytes(&data).is_ok(),
            Some(16) => hazmat::Subtrees::<16>::from_bytes(&data).is_ok(),
            _ => false,
        };
        if !valid {
            return Err(PyValueError::new_err("not the bytes of subtree values"));
        }
        Ok(Subtrees { data })
    }

    /// The level of the nodes (1: leaves).
    #[getter]
    fn level(&self) -> u8 {
        self.data[1]
    }

    /// The index of the first node in its level.
    #[getter]
    fn first(&self) -> u64 {
        u64::from_le_bytes(self.data[2..10].try_into().expect("checked"))
    }

    /// How many nodes.
    #[getter]
    fn count(&self) -> u64 {
        ((self.data.len() - 10) / (8 * usize::from(self.data[0]))) as u64
    }

    /// The state size, 256, 512 or 1024.
    #[getter]
    fn state_bits(&self) -> u64 {
        64 * u64::from(self.data[0])
    }

    fn __bytes__<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.data)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let data = PyBytes::new(py, &slf.get().data);
        PyTuple::new(
            py,
            [
                slf.get_type().into_any(),
                PyTuple::new(py, [data])?.into_any(),
            ],
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "Subtrees(level={}, first={}, count={}, state_bits={})",
            self.level(),
            self.first(),
            self.count(),
            self.state_bits()
        )
    }
}

#[pymethods]
impl SubtreeRange {
    #[new]
    fn new(level: u8, first: u64, count: u64, start: u64, end: u64) -> Self {
        // Checked against the tree where it is used (`ObjectTree` methods).
        SubtreeRange {
            level,
            first,
            count,
            start,
            end,
        }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let r = slf.get();
        let args = (r.level, r.first, r.count, r.start, r.end).into_pyobject(py)?;
        PyTuple::new(py, [slf.get_type().into_any(), args.into_any()])
    }

    fn __repr__(&self) -> String {
        format!(
            "SubtreeRange(level={}, first={}, count={}, start={}, end={})",
            self.level, self.first, self.count, self.start, self.end
        )
    }
}

impl SubtreeRange {
    fn of(r: &hazmat::SubtreeRange) -> SubtreeRange {
        SubtreeRange {
            level: r.level(),
            first: r.first(),
            count: r.count(),
            start: r.bytes().start,
            end: r.bytes().end,
        }
    }
}

impl ObjectTree {
    /// The library's range for `range`, if it is one of this tree's.
    fn range_in<const W: usize>(
        tree: &hazmat::ObjectTree<W>,
        range: &SubtreeRange,
    ) -> PyResult<hazmat::SubtreeRange> {
        let r = tree
            .range(range.level, range.first, range.count)
            .map_err(value_error)?;
        if r.bytes() != (range.start..range.end) {
            return Err(value_error(skein_simd::Error::SubtreeMismatch));
        }
        Ok(r)
    }
}

#[pymethods]
impl ObjectTree {
    #[new]
    #[pyo3(signature = (*args, **kwargs), text_signature = "(length, digest_bits=None, *, state_bits=512, key=b'', pers=b'', public_key=b'', key_id=b'', nonce=b'', tree)")]
    fn new(args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let mut named = args::by_name(
            "ObjectTree",
            args,
            kwargs,
            &["length", "digest_bits"],
            &KEYWORDS,
        )?;
        named.retain(|(name, value)| !(*name == "digest_bits" && value.is_none()));
        let Some(length) = args::get(&named, "length") else {
            return Err(PyTypeError::new_err(
                "ObjectTree() missing required argument 'length' (pos 1)",
            ));
        };
        let length: u64 = length.extract()?;
        let state_bits = args::state_bits(&named)?;
        let hash_args = HashArgs::parse(&named, state_bits)?;
        if hash_args.tree.is_none() {
            return Err(PyTypeError::new_err(
                "ObjectTree() needs tree=(leaf, fan_out, max_height)",
            ));
        }
        let params = hash_args.params();
        let tree = match state_bits {
            256 => Tree::S256(hazmat::ObjectTree::new(&params, length).map_err(value_error)?),
            512 => Tree::S512(hazmat::ObjectTree::new(&params, length).map_err(value_error)?),
            _ => Tree::S1024(hazmat::ObjectTree::new(&params, length).map_err(value_error)?),
        };
        Ok(ObjectTree {
            tree,
            state_bits,
            digest_bits: hash_args.digest_bits,
        })
    }

    /// The object's length in bytes.
    #[getter]
    fn length(&self) -> u64 {
        with_tree!(&self.tree, t, _W => t.len())
    }

    /// The state size, 256, 512 or 1024.
    #[getter]
    fn state_bits(&self) -> u64 {
        self.state_bits
    }

    /// The digest length in bits.
    #[getter]
    fn digest_bits(&self) -> u64 {
        self.digest_bits
    }

    /// The level of the root (1: the object is one leaf).
    #[getter]
    fn root_level(&self) -> u8 {
        with_tree!(&self.tree, t, _W => t.root_level())
    }

    /// Nodes of tree level `level` (1: leaves): 1 at the root, 0 above.
    fn nodes_at(&self, level: u8) -> u64 {
        with_tree!(&self.tree, t, _W => t.nodes_at(level))
    }

    /// Message bytes under one node of `level` (1: a leaf).
    fn node_span(&self, level: u8) -> u64 {
        with_tree!(&self.tree, t, _W => t.node_span(level))
    }

    /// At most `parts` consecutive ranges of about equal size, each whole
    /// subtrees of one level (fewer when the object has fewer nodes).
    fn split(&self, parts: usize) -> Vec<SubtreeRange> {
        with_tree!(&self.tree, t, _W => t.split(parts).iter().map(SubtreeRange::of).collect())
    }

    /// The nodes `first .. first + count` of `level`; `ValueError` when the
    /// tree has no such nodes.
    fn range(&self, level: u8, first: u64, count: u64) -> PyResult<SubtreeRange> {
        with_tree!(&self.tree, t, _W => t.range(level, first, count).map(|r| SubtreeRange::of(&r)).map_err(value_error))
    }

    /// The values of `range` from its bytes (`data`, exactly
    /// `range.end - range.start` of them), hashed with the GIL released.
    fn hash_range(
        &self,
        py: Python<'_>,
        range: &SubtreeRange,
        data: &Bound<'_, PyAny>,
    ) -> PyResult<Subtrees> {
        let data = Bytes::get(data)?;
        let data = data.as_slice();
        with_tree!(&self.tree, t, _W => {
            let r = Self::range_in(t, range)?;
            let mut hasher = t.hasher(&r).map_err(value_error)?;
            if data.len() as u64 != range.end - range.start {
                return Err(PyValueError::new_err(format!(
                    "the range has {} bytes, {} given",
                    range.end - range.start,
                    data.len()
                )));
            }
            let values = py.detach(|| {
                hasher.update(data);
                hasher.finish()
            });
            Ok(Subtrees::of(&values.map_err(value_error)?))
        })
    }

    /// The values of `range` from the file at `path` (str, bytes or
    /// os.PathLike), reading only the range's bytes, in pieces, with the GIL
    /// released while hashing; Ctrl-C interrupts it between pieces. A file
    /// that ends before the range does is an `OSError`.
    fn hash_file_range(
        &self,
        py: Python<'_>,
        path: &Bound<'_, PyAny>,
        range: &SubtreeRange,
    ) -> PyResult<Subtrees> {
        py.import("os")?.call_method1("fspath", (path,))?;
        with_tree!(&self.tree, t, _W => {
            let r = Self::range_in(t, range)?;
            let mut hasher = t.hasher(&r).map_err(value_error)?;
            let file = py.import("builtins")?.call_method1("open", (path, "rb", 0))?;
            let read = (|| -> PyResult<()> {
                file.call_method1("seek", (range.start,))?;
                let buf = PyByteArray::new_with(py, CHUNK_BYTES, |_| Ok(()))?;
                let whole = py.import("builtins")?.getattr("memoryview")?.call1((&buf,))?;
                let mut left = range.end - range.start;
                while left > 0 {
                    // `readinto` a view of at most what the range has left.
                    let want = left.min(CHUNK_BYTES as u64) as isize;
                    let part = whole.get_item(PySlice::new(py, 0, want, 1))?;
                    let n: usize = file.call_method1("readinto", (&part,))?.extract()?;
                    if n == 0 {
                        return Err(PyOSError::new_err(format!(
                            "file ends before byte {} of the range: {}",
                            range.end,
                            path.repr()?
                        )));
                    }
                    let bytes = Bytes::get(&buf)?;
                    let piece = &bytes.as_slice()[..n];
                    py.detach(|| {
                        hasher.update(piece);
                    });
                    left -= n as u64;
                    py.check_signals()?;
                }
                Ok(())
            })();
            let closed = file.call_method0("close");
            read?;
            closed?;
            let values = py.detach(|| hasher.finish()).map_err(value_error)?;
            Ok(Subtrees::of(&values))
        })
    }

    /// The parents of `children` one level up (a run that starts at a
    /// parent's first child and ends at a parent's last one or at the
    /// level's end).
    fn parents(&self, py: Python<'_>, children: &Subtrees) -> PyResult<Subtrees> {
        with_tree!(&self.tree, t, W => {
            let children = children.get::<W>()?;
            let up = py.detach(|| t.parents(&children)).map_err(value_error)?;
            Ok(Subtrees::of(&up))
        })
    }

    /// The digest (`digest_bits` bits, as `skein512(data, digest_bits,
    /// tree=...).digest()` gives it) from `values`: consecutive runs of one
    /// level, in order, that hold all of its nodes.
    fn root<'py>(
        &self,
        py: Python<'py>,
        values: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let held: Vec<Bound<'py, Subtrees>> = values
            .try_iter()?
            .map(|v| Ok(v?.cast_into::<Subtrees>()?))
            .collect::<PyResult<_>>()?;
        let mut out = alloc_output(self.digest_bits.div_ceil(8))?;
        with_tree!(&self.tree, t, W => {
            let parts: Vec<hazmat::Subtrees<W>> =
                held.iter().map(|v| v.get().get::<W>()).collect::<PyResult<_>>()?;
            py.detach(|| -> Result<(), skein_simd::Error> {
                t.root(&parts)?.fill(&mut out);
                Ok(())
            })
            .map_err(value_error)?;
        });
        mask_unused_bits(&mut out, self.digest_bits);
        Ok(PyBytes::new(py, &out))
    }

    fn __repr__(&self) -> String {
        format!(
            "ObjectTree(length={}, digest_bits={}, state_bits={}, root_level={})",
            self.length(),
            self.digest_bits,
            self.state_bits,
            self.root_level()
        )
    }
}
