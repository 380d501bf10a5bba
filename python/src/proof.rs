//! Proofs of inclusion (the library's `hazmat::SubtreeProof`): one range of
//! an object checked against the object's digest with the chaining values
//! beside its path to the root, without the rest of the object.
//! `ObjectTree.proof(range, values)` makes a `SubtreeProof` from the
//! values of a whole level (those of a split), `ObjectTree.verify(range,
//! data, proof, digest)` checks a range's bytes. Proofs pickle as their
//! bytes.
//!
//! A child module of `subtree` (declared there), so that it reads the
//! private state of `ObjectTree`, `SubtreeRange` and `Subtrees` rather than
//! widening it; its methods of `ObjectTree` are a second `#[pymethods]`
//! block (pyo3's `multiple-pymethods`).

use super::{value_error, ObjectTree, SubtreeRange, Subtrees, Tree};
use crate::buffer::Bytes;
use crate::pickling;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use skein_simd::hazmat::{self, ProofError};

fn proof_error(e: ProofError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// `SubtreeProof(data)`: the proof of one range, as `bytes(proof)` wrote
/// it (the state size, the range's level, first node and count, then the
/// siblings' chaining values). Pickles as those bytes. In a keyed tree the
/// values are keyed values.
#[pyclass(frozen, module = "skein_simd", name = "SubtreeProof")]
pub struct SubtreeProof {
    /// The library's byte form (`hazmat::SubtreeProof::to_bytes`), checked.
    data: Vec<u8>,
}

impl SubtreeProof {
    fn of<const W: usize>(proof: &hazmat::SubtreeProof<W>) -> SubtreeProof {
        SubtreeProof {
            data: proof.to_bytes(),
        }
    }

    fn get<const W: usize>(&self) -> PyResult<hazmat::SubtreeProof<W>> {
        hazmat::SubtreeProof::<W>::from_bytes(&self.data).map_err(proof_error)
    }

    fn word(&self, at: usize) -> u64 {
        u64::from_le_bytes(self.data[at..at + 8].try_into().expect("checked"))
    }
}

#[pymethods]
impl SubtreeProof {
    #[new]
    fn new(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let data = Bytes::get(data)?.as_slice().to_vec();
        let checked = match data.first() {
            Some(4) => hazmat::SubtreeProof::<4>::from_bytes(&data).map(|_| ()),
            Some(8) | None => hazmat::SubtreeProof::<8>::from_bytes(&data).map(|_| ()),
            Some(16) => hazmat::SubtreeProof::<16>::from_bytes(&data).map(|_| ()),
            Some(_) => Err(ProofError::Malformed(
                "a state size byte other than 4, 8 or 16",
            )),
        };
        checked.map_err(proof_error)?;
        Ok(SubtreeProof { data })
    }

    /// The level of the range's nodes (1: leaves).
    #[getter]
    fn level(&self) -> u8 {
        self.data[1]
    }

    /// The index of the range's first node in its level.
    #[getter]
    fn first(&self) -> u64 {
        self.word(2)
    }

    /// How many nodes the range has.
    #[getter]
    fn count(&self) -> u64 {
        self.word(10)
    }

    /// How many chaining values (the range's siblings) the proof holds.
    #[getter]
    fn siblings(&self) -> u64 {
        ((self.data.len() - 18) / (8 * usize::from(self.data[0]))) as u64
    }

    /// The state size, 256, 512 or 1024.
    #[getter]
    fn state_bits(&self) -> u64 {
        64 * u64::from(self.data[0])
    }

    fn __bytes__<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.data)
    }

    fn __len__(&self) -> usize {
        self.data.len()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        pickling::reduce_to_bytes(slf.as_any(), &slf.get().data)
    }

    fn __repr__(&self) -> String {
        format!(
            "SubtreeProof(level={}, first={}, count={}, siblings={}, state_bits={})",
            self.level(),
            self.first(),
            self.count(),
            self.siblings(),
            self.state_bits()
        )
    }
}

#[pymethods]
impl ObjectTree {
    /// The proof of `range` from `values`: consecutive runs of one level at
    /// or below the range's, in order, that hold all of its nodes (the
    /// values of all the ranges of a split).
    fn proof(
        &self,
        py: Python<'_>,
        range: &SubtreeRange,
        values: &Bound<'_, PyAny>,
    ) -> PyResult<SubtreeProof> {
        let held: Vec<Bound<'_, Subtrees>> = values
            .try_iter()?
            .map(|v| Ok(v?.cast_into::<Subtrees>()?))
            .collect::<PyResult<_>>()?;
        with_tree!(&self.tree, t, W => {
            let r = Self::range_in(t, range)?;
            let parts: Vec<hazmat::Subtrees<W>> =
                held.iter().map(|v| v.get().get::<W>()).collect::<PyResult<_>>()?;
            let proof = py.detach(|| t.proof(&r, &parts)).map_err(value_error)?;
            Ok(SubtreeProof::of(&proof))
        })
    }

    /// The length in bytes of the proof of `range` (`len(proof)`): 18
    /// bytes and one chaining value for each sibling on the range's path
    /// to the root.
    fn proof_len(&self, range: &SubtreeRange) -> PyResult<u64> {
        with_tree!(&self.tree, t, _W => {
            let r = Self::range_in(t, range)?;
            t.proof_len(&r).map_err(value_error)
        })
    }

    /// Checks that `data` (exactly `range.end - range.start` bytes) are the
    /// object's bytes at `range`, given the object's `digest` (as `root`
    /// gives it) and the range's `proof`; hashes with the GIL released,
    /// compares in constant time. `None` when they are; `ValueError`
    /// saying why when not (a changed byte of the data, the proof or the
    /// digest, a proof of another range or tree).
    fn verify(
        &self,
        py: Python<'_>,
        range: &SubtreeRange,
        data: &Bound<'_, PyAny>,
        proof: &SubtreeProof,
        digest: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let data = Bytes::get(data)?;
        let digest = Bytes::get(digest)?;
        let (data, digest) = (data.as_slice(), digest.as_slice());
        with_tree!(&self.tree, t, W => {
            let r = Self::range_in(t, range)?;
            let proof = proof.get::<W>()?;
            py.detach(|| t.verify(&r, data, &proof, digest)).map_err(proof_error)
        })
    }
}
