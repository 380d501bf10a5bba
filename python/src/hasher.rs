//! The `skein` hash object of pyskein 1.0 and its factories `skein256`,
//! `skein512`, `skein1024`.
//!
//! Bits: pyskein lets a message end in a partial byte and lets later
//! `update(..., bits=n)` calls fill that byte up, bit by bit, until it is
//! whole again. The library's `update_bits` ends a message at a partial byte,
//! so the partial byte waits here (`Pending`) and reaches the library either
//! whole (as a plain byte) or, at `digest()`, through `update_bits` on a copy.
//!
//! Output: pyskein clears the unused low bits of the last byte of a digest
//! whose length is not a multiple of 8; the specification and its reference
//! code (and so the library) leave them as they come. This module follows
//! pyskein ([`mask_unused_bits_of_slice`]).

use crate::args::{self, HashArgs};
use crate::buffer::Bytes;
use crate::common::{
    alloc_output, detach_if, digest_list, mask_unused_bits_of_slice, CHUNK_BYTES, GIL_RELEASE_BYTES,
};
use crate::pickling;
use pyo3::exceptions::{PyOverflowError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyInt, PyList, PyTuple};
use skein_simd::{DynSkein, SkeinMany, StateSize};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, TryLockError};

/// The first `n` (0..=8) bits of a byte, most significant first.
fn top_bits(byte: u8, n: u8) -> u8 {
    byte & (0xFF00u16 >> n) as u8
}

/// Why `update` refused its arguments (pyskein's `ValueError`s, and an
/// `OverflowError` for a message that would pass
/// [`pickling::MAX_MESSAGE_BYTES`]).
enum BitsError {
    Negative,
    TooMany,
    Unaligned(u8),
    TooLong,
}

impl From<BitsError> for PyErr {
    fn from(e: BitsError) -> PyErr {
        if let BitsError::TooLong = e {
            return PyOverflowError::new_err(
                "message too long: a skein hash object holds at most 2**96 - 2**64 bytes",
            );
        }
        PyValueError::new_err(match e {
            BitsError::Negative => "'bits' may not be negative".to_string(),
            BitsError::TooMany => "'bits' larger than 8*len(message)".to_string(),
            BitsError::Unaligned(missing) => {
                format!("<={missing} bits required for byte alignment")
            }
            BitsError::TooLong => unreachable!("an OverflowError"),
        })
    }
}

/// The message state: the library's hasher plus the bits of a partial last
/// byte that it has not seen yet.
#[derive(Clone)]
struct State {
    hasher: DynSkein,
    /// Whole message bytes given to `hasher`; with a partial byte, at most
    /// `pickling::MAX_MESSAGE_BYTES` ([`State::split`] keeps it so).
    bytes: u128,
    /// A partial byte: its bits (top first, the rest zero) and how many (1..=7).
    pending: Option<(u8, u8)>,
}

impl State {
    /// How `update(message, bits)` divides a message of `len` bytes: the
    /// whole bytes it hashes and the bits (0..=7) of the next byte, checked
    /// as pyskein checks them (see the module comment).
    fn split(&self, len: usize, bits: Option<isize>) -> Result<(usize, u8), BitsError> {
        if len == 0 {
            return Ok((0, 0)); // pyskein ignores `bits` then
        }
        let (whole, partial) = match bits {
            // pyskein's C code stands for "no bits" with -1, so -1 is "all".
            None | Some(-1) => (len, 0),
            Some(b) if b < 0 => return Err(BitsError::Negative),
            Some(b) => {
                let b = b as usize;
                if b.div_ceil(8) > len {
                    return Err(BitsError::TooMany);
                }
                (b / 8, (b % 8) as u8)
            }
        };
        if let Some((_, have)) = self.pending {
            let missing = 8 - have;
            if whole > 0 || partial > missing {
                return Err(BitsError::Unaligned(missing));
            }
            // Bits into the pending byte, which is counted already.
            return Ok((whole, partial));
        }
        let total = self
            .bytes
            .checked_add(whole as u128 + (partial > 0) as u128);
        if total.is_none_or(|t| t > pickling::MAX_MESSAGE_BYTES) {
            return Err(BitsError::TooLong);
        }
        Ok((whole, partial))
    }

    /// `update(message, bits)` (pyskein semantics, see the module comment).
    fn update(&mut self, msg: &[u8], bits: Option<isize>) -> Result<(), BitsError> {
        let (whole, partial) = self.split(msg.len(), bits)?;
        self.absorb(msg, whole, partial);
        Ok(())
    }

    /// Hash `whole` bytes of `msg`, then `partial` bits of the next one, as
    /// [`State::split`] allowed.
    fn absorb(&mut self, msg: &[u8], whole: usize, partial: u8) {
        match self.pending {
            None => {
                self.hasher.update(&msg[..whole]);
                self.bytes += whole as u128;
                if partial > 0 {
                    self.pending = Some((top_bits(msg[whole], partial), partial));
                }
            }
            Some((value, have)) => {
                if partial == 0 {
                    return;
                }
                let value = value | (top_bits(msg[0], partial) >> have);
                if have + partial == 8 {
                    self.hasher.update(&[value]);
                    self.bytes += 1;
                    self.pending = None;
                } else {
                    self.pending = Some((value, have + partial));
                }
            }
        }
    }

    fn hashed_bits(&self) -> u128 {
        8 * self.bytes + self.pending.map_or(0, |(_, n)| n as u128)
    }

    /// Bytes `start..stop` of the digest (unused bits masked), leaving
    /// `self` as it is: only the output blocks that hold them are computed.
    fn digest(&self, digest_bits: u64, start: u64, stop: u64) -> PyResult<Vec<u8>> {
        let mut out = alloc_output(stop - start)?;
        let mut h = self.hasher.clone();
        if let Some((value, n)) = self.pending {
            h.update_bits(&[value], n as u64);
        }
        let mut reader = h.finalize_xof();
        reader.set_position(start);
        let filled = reader.fill(&mut out);
        debug_assert_eq!(filled, out.len(), "the slice lies inside the output");
        mask_unused_bits_of_slice(&mut out, start, digest_bits);
        Ok(out)
    }
}

/// A Skein hash object, as returned by `skein256()`, `skein512()` and
/// `skein1024()`.
///
/// Methods: `update(message, bits=None)`, `digest()` / `digest(start, stop)`,
/// `hexdigest()`, `copy()`, `hash_many_from(messages)`. Attributes: `name`, `digest_size`,
/// `digest_bits`, `block_size`, `block_bits`, `hashed_bits`.
///
/// One object may be used from several threads; calls on it take turns.
#[pyclass(frozen, module = "skein_simd", name = "skein")]
pub struct Skein {
    state_bits: u64,
    digest_bits: u64,
    /// Tree hashing: finishing may hash a batch of buffered leaves.
    tree: bool,
    state: Mutex<State>,
    /// The thread (its [`this_thread`] mark) inside a long `update` that
    /// holds `state` while it runs signal handlers between pieces; 0 when
    /// none. A handler on that thread that uses this object gets an error,
    /// as waiting for the lock would wait for itself.
    updating: AtomicUsize,
}

/// A number that tells the calling thread from every other running thread
/// (the address of a thread-local), never 0.
fn this_thread() -> usize {
    thread_local! {
        static MARK: u8 = const { 0 };
    }
    MARK.with(|m| m as *const u8 as usize)
}

/// Clears [`Skein::updating`] when the long `update` ends, however it ends.
struct UpdatingMark<'a>(&'a AtomicUsize);

impl<'a> UpdatingMark<'a> {
    fn set(flag: &'a AtomicUsize) -> Self {
        flag.store(this_thread(), Ordering::Relaxed);
        UpdatingMark(flag)
    }
}

impl Drop for UpdatingMark<'_> {
    fn drop(&mut self) {
        self.0.store(0, Ordering::Relaxed);
    }
}

impl Skein {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave `State` half-updated in
        // a way that matters more than the panic itself; keep going.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Before waiting for the lock: `RuntimeError` if this thread holds it
    /// already (a signal handler run by a long `update` of this object).
    fn check_not_reentered(&self) -> PyResult<()> {
        if self.updating.load(Ordering::Relaxed) == this_thread() {
            return Err(PyRuntimeError::new_err(
                "skein object used by a signal handler while this thread updates it",
            ));
        }
        Ok(())
    }

    /// The lock, taken on a thread that holds the GIL: while another thread
    /// has it, wait with the GIL released (that thread may need the GIL to
    /// finish), then try again.
    fn lock_attached(&self, py: Python<'_>) -> PyResult<MutexGuard<'_, State>> {
        loop {
            match self.state.try_lock() {
                Ok(guard) => return Ok(guard),
                Err(TryLockError::Poisoned(e)) => return Ok(e.into_inner()),
                Err(TryLockError::WouldBlock) => {
                    self.check_not_reentered()?;
                    py.detach(|| drop(self.lock()))
                }
            }
        }
    }

    /// Run `f` on the state; with the GIL released for long work, or when
    /// another thread holds the object (it may be hashing without the GIL).
    fn with_state<R: Send>(
        &self,
        py: Python<'_>,
        long: bool,
        f: impl FnOnce(&mut State) -> R + Send,
    ) -> PyResult<R> {
        if !long {
            match self.state.try_lock() {
                Ok(mut s) => return Ok(f(&mut s)),
                Err(TryLockError::Poisoned(e)) => return Ok(f(&mut e.into_inner())),
                Err(TryLockError::WouldBlock) => {}
            }
        }
        self.check_not_reentered()?;
        Ok(py.detach(|| f(&mut self.lock())))
    }

    /// Bytes `start..stop` of the digest, the object left as it is; without
    /// the GIL when finishing is long (tree hashing, long slices).
    fn finish(&self, py: Python<'_>, start: u64, stop: u64) -> PyResult<Vec<u8>> {
        let long = self.tree || stop - start >= GIL_RELEASE_BYTES as u64;
        let digest_bits = self.digest_bits;
        let snapshot = self.snapshot(py)?;
        detach_if(py, long, || snapshot.digest(digest_bits, start, stop))
    }

    /// The whole digest.
    fn finish_all(&self, py: Python<'_>) -> PyResult<Vec<u8>> {
        self.finish(py, 0, self.digest_bits.div_ceil(8))
    }

    /// A hash object around a state (a copy, or one restored by pickle).
    fn with(state_bits: u64, digest_bits: u64, tree: bool, state: State) -> Skein {
        Skein {
            state_bits,
            digest_bits,
            tree,
            state: Mutex::new(state),
            updating: AtomicUsize::new(0),
        }
    }

    /// A copy of the message state, taken in turn with other threads.
    fn snapshot(&self, py: Python<'_>) -> PyResult<State> {
        self.with_state(py, false, |s| s.clone())
    }

    /// A hasher from pyskein's constructor arguments.
    fn from_args(
        py: Python<'_>,
        function: &str,
        state_bits: u64,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Skein> {
        let named = args::by_name(
            function,
            args,
            kwargs,
            &["init", "digest_bits"],
            &["key", "pers", "public_key", "key_id", "nonce", "tree"],
        )?;
        // Byte arguments first (init, then the others), as pyskein checks them.
        let init = args::get(&named, "init").map(Bytes::get).transpose()?;
        let hash_args = HashArgs::parse(&named, state_bits)?;
        let size = StateSize::from_bits(state_bits).expect("256, 512 or 1024");
        let params = hash_args.params();
        let init = init.as_ref().map_or(&[][..], Bytes::as_slice);
        // A long key or init is hashed without the GIL too.
        let long = init.len() >= GIL_RELEASE_BYTES || hash_args.bytes_len() >= GIL_RELEASE_BYTES;
        let build = || {
            let hasher = DynSkein::new(size, &params).map_err(|e| e.to_string())?;
            let mut state = State {
                hasher,
                bytes: 0,
                pending: None,
            };
            let _ = state.update(init, None); // cannot fail without `bits`
            Ok::<State, String>(state)
        };
        let state = detach_if(py, long, build).map_err(PyValueError::new_err)?;
        Ok(Skein::with(
            state_bits,
            hash_args.digest_bits,
            hash_args.tree.is_some(),
            state,
        ))
    }
}

/// A `digest(start, stop)` bound, read as pyskein reads it (the `K` format
/// of `PyArg_ParseTuple`): an `int` (or `bool`, or any int subclass), its own
/// value taken modulo 2**64; any other type, even one with `__index__`, is a
/// `TypeError` naming the argument by its position (1 or 2). No method of a
/// subclass runs: `PyLong_AsUnsignedLongLongMask`, pyskein's own call, reads
/// an int's value directly (`operator.index` and `&` would call a subclass's
/// `__and__` on Python 3.9, where `index` returns the subclass object).
fn digest_bound(v: &Bound<'_, PyAny>, position: usize) -> PyResult<u64> {
    if !v.is_instance_of::<PyInt>() {
        let type_name = if v.is_none() {
            "None".to_string()
        } else {
            v.get_type().name()?.to_string()
        };
        return Err(PyTypeError::new_err(format!(
            "digest() argument {position} must be int, not {type_name}"
        )));
    }
    // SAFETY: `v` is a live int object (checked above) and we hold the GIL;
    // the call only reads it.
    let value = unsafe { pyo3::ffi::PyLong_AsUnsignedLongLongMask(v.as_ptr()) };
    // An int cannot fail here, but the C API's error signal is -1 (u64::MAX)
    // with an exception set.
    if value == u64::MAX {
        if let Some(err) = PyErr::take(v.py()) {
            return Err(err);
        }
    }
    Ok(value)
}

#[pymethods]
impl Skein {
    /// Hash `message` (any bytes-like object). With `bits`, hash only its
    /// first `bits` bits: `bits // 8` whole bytes, then the `bits % 8` most
    /// significant bits of the next byte. After a partial byte, further calls
    /// must give at most the bits that complete it (`ValueError` otherwise),
    /// as in pyskein. A message holds at most 2**96 - 2**64 bytes
    /// (`OverflowError` past it, the object unchanged). Long messages are
    /// hashed with the GIL released.
    #[pyo3(signature = (message, bits=None))]
    fn update(
        &self,
        py: Python<'_>,
        message: &Bound<'_, PyAny>,
        bits: Option<isize>,
    ) -> PyResult<()> {
        let buf = Bytes::get(message)?;
        let msg = buf.as_slice();
        if msg.len() <= CHUNK_BYTES {
            self.with_state(py, msg.len() >= GIL_RELEASE_BYTES, |s| s.update(msg, bits))??;
            return Ok(());
        }
        // Long: piece by piece with the GIL released, handling signals
        // between pieces. The object stays locked throughout, so calls from
        // other threads still take turns with this one; an interrupted call
        // leaves it as it was before.
        let mut guard = self.lock_attached(py)?;
        let _mark = UpdatingMark::set(&self.updating);
        let state: &mut State = &mut guard;
        let (whole, partial) = state.split(msg.len(), bits)?;
        if state.pending.is_some() {
            // Only up to 7 bits can follow a partial byte: nothing long.
            state.absorb(msg, whole, partial);
            return Ok(());
        }
        let before = state.clone();
        for piece in msg[..whole].chunks(CHUNK_BYTES) {
            py.detach(|| state.hasher.update(piece));
            state.bytes += piece.len() as u128;
            if let Err(e) = py.check_signals() {
                *state = before;
                return Err(e);
            }
        }
        state.absorb(&msg[whole..], 0, partial);
        Ok(())
    }

    /// The digest of everything hashed so far, `digest_size` bytes (the
    /// object stays usable). `digest(start, stop)` is `digest()[start:stop]`,
    /// computing only the output blocks that hold it (any `digest_bits`).
    ///
    /// When `digest_bits` is not a multiple of 8, the unused low bits of the
    /// last byte are zero (as in pyskein).
    #[pyo3(signature = (*args))]
    fn digest<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let len = self.digest_bits.div_ceil(8);
        let (start, stop) = match args.len() {
            0 => (0, len),
            2 => {
                let start = digest_bound(&args.get_item(0)?, 1)?;
                let stop = digest_bound(&args.get_item(1)?, 2)?;
                match (start, stop) {
                    (a, b) if a <= b && b <= len => (a, b),
                    _ => {
                        return Err(PyValueError::new_err(
                            "digest(start, stop) has to fulfill 0<=start<=stop<=digest_size",
                        ))
                    }
                }
            }
            _ => {
                return Err(PyTypeError::new_err(
                    "digest() takes either 0 or 2 parameters",
                ))
            }
        };
        if start == stop {
            return Ok(PyBytes::new(py, b""));
        }
        let out = self.finish(py, start, stop)?;
        Ok(PyBytes::new(py, &out))
    }

    /// The digests of many messages that each continue this object's
    /// message (as `copy()`, `update(m)`, `digest()` for each `m` of
    /// `messages`, an iterable of bytes-like objects), as a list of bytes,
    /// computed several at a time on the SIMD lanes and on all cores with the
    /// GIL released. What was hashed so far (a key, a shared header) is not
    /// hashed again; the object stays as it is. `ValueError` after a partial
    /// byte (only bits may follow it).
    fn hash_many_from<'py>(
        &self,
        py: Python<'py>,
        messages: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let held: Vec<Bytes> = messages
            .try_iter()?
            .map(|m| Bytes::get(&m?))
            .collect::<PyResult<_>>()?;
        let slices: Vec<&[u8]> = held.iter().map(Bytes::as_slice).collect();
        let state = self.snapshot(py)?;
        if state.pending.is_some() {
            return Err(PyValueError::new_err(
                "hash_many_from: the message ends inside a byte; no whole bytes may follow",
            ));
        }
        let longest = slices.iter().map(|s| s.len()).max().unwrap_or(0);
        if state.bytes + longest as u128 > pickling::MAX_MESSAGE_BYTES {
            return Err(PyOverflowError::new_err(
                "hash_many_from: a message would exceed 2**96 - 2**64 bytes",
            ));
        }
        let len = self.digest_bits.div_ceil(8);
        let mut out = alloc_output(len.saturating_mul(slices.len() as u64))?;
        py.detach(|| match &state.hasher {
            DynSkein::S256(h) => SkeinMany::continuing(h).hash_many_into(&slices, &mut out),
            DynSkein::S512(h) => SkeinMany::continuing(h).hash_many_into(&slices, &mut out),
            DynSkein::S1024(h) => SkeinMany::continuing(h).hash_many_into(&slices, &mut out),
        });
        digest_list(py, &mut out, len as usize, self.digest_bits)
    }

    /// The digest as a string of lower-case hexadecimal digits.
    fn hexdigest(&self, py: Python<'_>) -> PyResult<String> {
        Ok(hex::encode(self.finish_all(py)?))
    }

    /// A copy of the hash object, to hash several messages that share a prefix.
    fn copy(&self, py: Python<'_>) -> PyResult<Skein> {
        let state = self.snapshot(py)?;
        Ok(Skein::with(
            self.state_bits,
            self.digest_bits,
            self.tree,
            state,
        ))
    }

    /// `copy.copy()`: as `copy()`.
    fn __copy__(&self, py: Python<'_>) -> PyResult<Skein> {
        self.copy(py)
    }

    /// `copy.deepcopy()`: as `copy()` (the object holds no other objects).
    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<Skein> {
        self.copy(py)
    }

    /// Pickling: `(_from_state, (state,))`, the state a tuple that
    /// `_from_state` checks (see `pickling.rs`).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let s = self.snapshot(py)?;
        let fields = pickling::save(py, &s.hasher, self.tree, s.bytes, s.pending)?;
        let from_state = py.import("skein_simd")?.getattr("_from_state")?;
        (from_state, (fields,)).into_pyobject(py)
    }

    /// `'Skein-256'`, `'Skein-512'` or `'Skein-1024'`.
    #[getter]
    fn name(&self) -> String {
        format!("Skein-{}", self.state_bits)
    }

    /// Internal state size in bytes: 32, 64 or 128.
    #[getter]
    fn block_size(&self) -> u64 {
        self.state_bits / 8
    }

    /// Internal state size in bits: 256, 512 or 1024.
    #[getter]
    fn block_bits(&self) -> u64 {
        self.state_bits
    }

    /// Digest length in bytes (rounded up).
    #[getter]
    fn digest_size(&self) -> u64 {
        self.digest_bits.div_ceil(8)
    }

    /// Digest length in bits.
    #[getter]
    fn digest_bits(&self) -> u64 {
        self.digest_bits
    }

    /// Number of message bits hashed so far.
    #[getter]
    fn hashed_bits(&self, py: Python<'_>) -> PyResult<u128> {
        self.with_state(py, false, |s| s.hashed_bits())
    }

    fn __repr__(slf: &Bound<'_, Self>) -> String {
        format!(
            "<Skein-{} hash object at {:p}>",
            slf.get().state_bits,
            slf.as_ptr()
        )
    }
}

/// A hash object from the state its pickle holds (`TypeError` if it is not
/// a tuple, `ValueError` if it is malformed, as in pyskein).
#[pyfunction]
#[pyo3(name = "_from_state")]
pub fn from_state(py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<Skein> {
    let saved = pickling::load(py, state)?;
    let state = State {
        hasher: saved.hasher,
        bytes: saved.bytes,
        pending: saved.pending,
    };
    Ok(Skein::with(
        saved.state_bits,
        saved.digest_bits,
        saved.tree,
        state,
    ))
}

macro_rules! factory {
    ($name:ident, $bits:literal, $signature:literal, $doc:literal) => {
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(signature = (*args, **kwargs), text_signature = $signature)]
        pub fn $name(
            py: Python<'_>,
            args: &Bound<'_, PyTuple>,
            kwargs: Option<&Bound<'_, PyDict>>,
        ) -> PyResult<Skein> {
            Skein::from_args(py, stringify!($name), $bits, args, kwargs)
        }
    };
}

factory!(
    skein256,
    256,
    "(init=b'', digest_bits=256, *, key=b'', pers=b'', public_key=b'', key_id=b'', nonce=b'', tree=None)",
    "A new Skein-256 hash object (see `skein512`)."
);
factory!(
    skein512,
    512,
    "(init=b'', digest_bits=512, *, key=b'', pers=b'', public_key=b'', key_id=b'', nonce=b'', tree=None)",
    "A new Skein-512 hash object.\n\n`init`: first message bytes; `digest_bits`: output length in bits\n(1..2**64-1, default: the state size). Keyword-only: `key` (MAC or KDF\nkey), `pers` (personalization), `public_key`, `key_id` (KDF key\nidentifier), `nonce`, `tree=(leaf, fan_out, max_height)` (tree hashing\nwith leaves of 2**leaf blocks and nodes of 2**fan_out children, on all\ncores). Byte arguments take any bytes-like object."
);
factory!(
    skein1024,
    1024,
    "(init=b'', digest_bits=1024, *, key=b'', pers=b'', public_key=b'', key_id=b'', nonce=b'', tree=None)",
    "A new Skein-1024 hash object (see `skein512`)."
);
