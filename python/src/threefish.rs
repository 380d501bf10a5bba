//! pyskein's `threefish(key, tweak)` block cipher object.

use crate::buffer::Bytes;
use crate::common::{alloc_output, detach_if, GIL_RELEASE_BYTES};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};
use skein_simd::{Threefish1024, Threefish256, Threefish512};
use std::sync::Mutex;
use zeroize::Zeroizing;

enum Cipher {
    T256(Threefish256),
    T512(Threefish512),
    T1024(Threefish1024),
}

impl Cipher {
    /// `key` is 32, 64 or 128 bytes (checked by the caller).
    fn new(key: &[u8], tweak: &[u8; 16]) -> Cipher {
        match key.len() {
            32 => Cipher::T256(Threefish256::new(key, tweak)),
            64 => Cipher::T512(Threefish512::new(key, tweak)),
            _ => Cipher::T1024(Threefish1024::new(key, tweak)),
        }
    }

    fn apply(&self, block: &mut [u8], encrypt: bool) {
        match (self, encrypt) {
            (Cipher::T256(c), true) => c.encrypt_block(block),
            (Cipher::T256(c), false) => c.decrypt_block(block),
            (Cipher::T512(c), true) => c.encrypt_block(block),
            (Cipher::T512(c), false) => c.decrypt_block(block),
            (Cipher::T1024(c), true) => c.encrypt_block(block),
            (Cipher::T1024(c), false) => c.decrypt_block(block),
        }
    }
}

struct Keyed {
    /// Kept to rebuild the cipher when the tweak changes; zeroized on drop.
    key: Zeroizing<Vec<u8>>,
    tweak: [u8; 16],
    cipher: Cipher,
}

/// Threefish-256, -512 or -1024 (chosen by the key length: 32, 64 or 128
/// bytes) with a 16-byte tweak: `threefish(key, tweak)`.
///
/// `encrypt_block(block)` and `decrypt_block(block)` take and return one
/// block as long as the key. `tweak` can be read and set (16 bytes).
#[pyclass(frozen, module = "skein_simd", name = "threefish")]
pub struct Threefish {
    block_bytes: usize,
    keyed: Mutex<Keyed>,
}

fn tweak_array(tweak: &[u8], message: &str) -> PyResult<[u8; 16]> {
    tweak
        .try_into()
        .map_err(|_| PyValueError::new_err(message.to_string()))
}

/// Threefish keys (and blocks) are 32, 64 or 128 bytes.
fn check_key_len(len: usize) -> PyResult<()> {
    match len {
        32 | 64 | 128 => Ok(()),
        _ => Err(PyValueError::new_err(
            "key must be 32, 64 or 128 bytes long",
        )),
    }
}

impl Threefish {
    fn run<'py>(&self, block: &Bound<'py, PyAny>, encrypt: bool) -> PyResult<Bound<'py, PyBytes>> {
        let buf = Bytes::get(block)?;
        if buf.len() != self.block_bytes {
            return Err(PyValueError::new_err(format!(
                "block must have same length as key ({} bytes)",
                self.block_bytes
            )));
        }
        let mut out = Zeroizing::new(buf.as_slice().to_vec());
        self.keyed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .cipher
            .apply(&mut out, encrypt);
        Ok(PyBytes::new(block.py(), &out))
    }
}

#[pymethods]
impl Threefish {
    #[new]
    #[pyo3(signature = (key, tweak, /))]
    fn new(key: &Bound<'_, PyAny>, tweak: &Bound<'_, PyAny>) -> PyResult<Threefish> {
        let key = Bytes::get(key)?;
        let tweak = Bytes::get(tweak)?;
        check_key_len(key.len())?;
        let tweak = tweak_array(tweak.as_slice(), "tweak must be 16 bytes long")?;
        let key = Zeroizing::new(key.as_slice().to_vec());
        let cipher = Cipher::new(&key, &tweak);
        Ok(Threefish {
            block_bytes: key.len(),
            keyed: Mutex::new(Keyed { key, tweak, cipher }),
        })
    }

    /// Encrypt one block (as long as the key); returns the ciphertext.
    #[pyo3(signature = (block, /))]
    fn encrypt_block<'py>(&self, block: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        self.run(block, true)
    }

    /// Decrypt one block (as long as the key); returns the plaintext.
    #[pyo3(signature = (block, /))]
    fn decrypt_block<'py>(&self, block: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        self.run(block, false)
    }

    /// The 16-byte tweak; may be set to another `bytes` or `bytearray` of 16 bytes.
    #[getter]
    fn get_tweak<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(
            py,
            &self.keyed.lock().unwrap_or_else(|e| e.into_inner()).tweak,
        )
    }

    #[setter]
    fn set_tweak(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        // pyskein takes exactly bytes or bytearray here (not other buffers).
        let tweak: Vec<u8> = if let Ok(b) = value.cast::<PyBytes>() {
            b.as_bytes().to_vec()
        } else if let Ok(b) = value.cast::<PyByteArray>() {
            b.to_vec()
        } else {
            return Err(PyTypeError::new_err(format!(
                "expected bytes, {} found",
                value.get_type().name()?
            )));
        };
        let tweak = tweak_array(&tweak, "tweak value must have 16 bytes")?;
        let mut k = self.keyed.lock().unwrap_or_else(|e| e.into_inner());
        k.cipher = Cipher::new(&k.key, &tweak);
        k.tweak = tweak;
        Ok(())
    }

    /// Block (and key) size in bytes: 32, 64 or 128.
    #[getter]
    fn block_size(&self) -> usize {
        self.block_bytes
    }

    /// Block (and key) size in bits: 256, 512 or 1024.
    #[getter]
    fn block_bits(&self) -> usize {
        8 * self.block_bytes
    }
}

/// The loop of `Random.read` (constructions.py) in one call: `count` times,
/// key Threefish with the state and `tweak`, encrypt the counter block 0 (the
/// next state) and the counter block 1 (output). Returns the last state and
/// the output blocks. `state` is 32, 64 or 128 bytes (the caller checks).
#[pyfunction]
pub fn prng_blocks<'py>(
    py: Python<'py>,
    state: &[u8],
    tweak: &[u8],
    count: usize,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let tweak = tweak_array(tweak, "tweak must be 16 bytes long")?;
    let size = state.len();
    check_key_len(size)?;
    let total = count
        .checked_mul(size)
        .ok_or_else(|| pyo3::exceptions::PyMemoryError::new_err("too many random bytes"))?;
    let mut out = alloc_output(total as u64)?;
    let mut key = Zeroizing::new(state.to_vec());
    let run = |out: &mut [u8], key: &mut [u8]| {
        for block in out.chunks_exact_mut(size) {
            let cipher = Cipher::new(key, &tweak);
            // Counter 1 (output) first: `key` is overwritten with counter 0's.
            block.fill(0);
            block[0] = 1;
            cipher.apply(block, true);
            key.fill(0);
            cipher.apply(key, true);
        }
    };
    detach_if(py, total >= GIL_RELEASE_BYTES, || run(&mut out, &mut key));
    Ok((PyBytes::new(py, &key), PyBytes::new(py, &out)))
}
