//! Beyond pyskein: `hash_many` (many messages on the library's multi-lane
//! kernels and threads), `hash_file` (a file read in pieces, GIL released) and
//! `platform()` (which backends run).

use crate::args::{self, HashArgs};
use crate::buffer::Bytes;
use crate::common::{alloc_output, digest_list, CHUNK_BYTES};
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyModule, PyTuple};
use skein_simd::mask_unused_bits;
use skein_simd::{Backend, DynSkein, Params, Platform, SkeinMany, SkeinMany512, StateSize};

/// The keyword-only arguments of the extensions (and of `ObjectTree`).
pub const KEYWORDS: [&str; 7] = [
    "state_bits",
    "key",
    "pers",
    "public_key",
    "key_id",
    "nonce",
    "tree",
];

/// The arguments of an extension function, read by [`parse`].
struct Call<'py> {
    /// Its first argument (the messages, or the path).
    first: Bound<'py, PyAny>,
    state_bits: u64,
    hash_args: HashArgs,
}

/// The first argument, `digest_bits` and the keyword arguments shared by the
/// extensions.
fn parse<'py>(
    function: &str,
    first: &'static str,
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Call<'py>> {
    let mut named = args::by_name(function, args, kwargs, &[first, "digest_bits"], &KEYWORDS)?;
    // Here (unlike pyskein's constructors) `digest_bits=None` means the default.
    named.retain(|(name, value)| !(*name == "digest_bits" && value.is_none()));
    let Some(first_value) = args::get(&named, first).cloned() else {
        return Err(PyTypeError::new_err(format!(
            "{function}() missing required argument '{first}' (pos 1)"
        )));
    };
    let state_bits = args::state_bits(&named)?;
    let hash_args = HashArgs::parse(&named, state_bits)?;
    Ok(Call {
        first: first_value,
        state_bits,
        hash_args,
    })
}

/// A function of the extensions: `first` (a required argument), then
/// `digest_bits` and [`KEYWORDS`], read by [`parse`] and handed to `body`.
macro_rules! extension {
    ($(#[$doc:meta])* $name:ident($first:literal) -> $ret:ty = $body:ident, $signature:literal) => {
        $(#[$doc])*
        #[pyfunction]
        #[pyo3(signature = (*args, **kwargs), text_signature = $signature)]
        pub fn $name<'py>(
            py: Python<'py>,
            args: &Bound<'py, PyTuple>,
            kwargs: Option<&Bound<'py, PyDict>>,
        ) -> PyResult<$ret> {
            $body(py, parse(stringify!($name), $first, args, kwargs)?)
        }
    };
}

fn many_digests<const W: usize>(
    params: &Params<'_>,
    messages: &[&[u8]],
    out: &mut [u8],
) -> Result<(), String> {
    let many = SkeinMany::<W>::with_params(params).map_err(|e| e.to_string())?;
    // No messages, no work, whatever the digest length.
    if !messages.is_empty() {
        many.hash_many_into(messages, out);
    }
    Ok(())
}

extension! {
    /// `hash_many(messages, digest_bits=state_bits, *, state_bits=512, key=b'',
    /// pers=b'', public_key=b'', key_id=b'', nonce=b'', tree=None)`
    ///
    /// The digests of many messages (an iterable of bytes-like objects), as a list
    /// of bytes: the same as `[skein512(m, digest_bits, key=key, ...).digest() for
    /// m in messages]` (`state_bits` picks skein256/512/1024), computed several
    /// messages per instruction on the SIMD lanes and on all cores, with the GIL
    /// released. The arguments (a MAC key, say) are hashed once for all messages.
    hash_many("messages") -> Bound<'py, PyList> = many,
    "(messages, digest_bits=None, *, state_bits=512, key=b'', pers=b'', public_key=b'', key_id=b'', nonce=b'', tree=None)"
}

fn many<'py>(py: Python<'py>, call: Call<'py>) -> PyResult<Bound<'py, PyList>> {
    let hash_args = &call.hash_args;
    let held: Vec<Bytes> = call
        .first
        .try_iter()?
        .map(|m| Bytes::get(&m?))
        .collect::<PyResult<_>>()?;
    let slices: Vec<&[u8]> = held.iter().map(Bytes::as_slice).collect();
    let len = hash_args.digest_bits.div_ceil(8);
    let mut out = alloc_output(len.saturating_mul(slices.len() as u64))?;
    let params = hash_args.params();
    py.detach(|| match call.state_bits {
        256 => many_digests::<4>(&params, &slices, &mut out),
        512 => many_digests::<8>(&params, &slices, &mut out),
        _ => many_digests::<16>(&params, &slices, &mut out),
    })
    .map_err(PyValueError::new_err)?;
    digest_list(py, &mut out, len as usize, hash_args.digest_bits)
}

/// What shows that a regular file's contents changed: its size and its
/// modification time (not its ctime, which `chmod`, `touch -a` or `ln` move
/// without touching the contents). `None` for pipes, devices and the like,
/// whose size and times say nothing about what a read returns.
fn content_stamp(os: &Bound<'_, PyModule>, fd: &Bound<'_, PyAny>) -> PyResult<Option<(u64, i128)>> {
    let st = os.call_method1("fstat", (fd,))?;
    let mode: u32 = st.getattr("st_mode")?.extract()?;
    if mode & 0o170000 != 0o100000 {
        return Ok(None);
    }
    Ok(Some((
        st.getattr("st_size")?.extract()?,
        st.getattr("st_mtime_ns")?.extract()?,
    )))
}

/// Hash an open file (`open(path, 'rb', buffering=0)`) to its end, one
/// [`CHUNK_BYTES`] piece at a time: read with Python's own `readinto` (which
/// releases the GIL and handles `EINTR`), hashed with the GIL released, and
/// pending signals handled between pieces, so Ctrl-C interrupts even an
/// endless file such as `/dev/zero`. Reading rather than mapping is what
/// makes a file that shrinks meanwhile an error instead of a SIGBUS, and
/// what gives pseudo-files (`/proc`, `/sys`) the bytes `read()` returns
/// whatever size they report.
fn hash_open_file(
    py: Python<'_>,
    file: &Bound<'_, PyAny>,
    path: &Bound<'_, PyAny>,
    hasher: &mut DynSkein,
) -> PyResult<()> {
    let os = py.import("os")?;
    let fd = file.call_method0("fileno")?;
    let before = content_stamp(&os, &fd)?;
    let buf = PyByteArray::new_with(py, CHUNK_BYTES, |_| Ok(()))?;
    loop {
        let n: usize = file.call_method1("readinto", (&buf,))?.extract()?;
        if n == 0 {
            break;
        }
        let view = Bytes::get(&buf)?;
        let piece = &view.as_slice()[..n];
        py.detach(|| hasher.update(piece));
        drop(view);
        py.check_signals()?;
    }
    if content_stamp(&os, &fd)? != before {
        return Err(PyOSError::new_err(format!(
            "file changed while being read: {}",
            path.repr()?
        )));
    }
    Ok(())
}

extension! {
    /// `hash_file(path, digest_bits=state_bits, *, state_bits=512, key=b'',
    /// pers=b'', public_key=b'', key_id=b'', nonce=b'', tree=None)`
    ///
    /// The digest of a file's contents: the same as `skein512(open(path,
    /// 'rb').read(), digest_bits, ...).digest()` without holding the file in
    /// memory. The file is opened with `open()` (so errors are the ones `open()`
    /// raises), read in pieces and hashed with the GIL released; Ctrl-C
    /// interrupts it between pieces. A regular file whose size or modification
    /// time changes while it is read raises `OSError` ("file changed while being
    /// read") rather than giving the digest of a mix of contents. With `tree`,
    /// the file is hashed on all cores.
    hash_file("path") -> Bound<'py, PyBytes> = file,
    "(path, digest_bits=None, *, state_bits=512, key=b'', pers=b'', public_key=b'', key_id=b'', nonce=b'', tree=None)"
}

fn file<'py>(py: Python<'py>, call: Call<'py>) -> PyResult<Bound<'py, PyBytes>> {
    let (path, hash_args) = (&call.first, &call.hash_args);
    // A path (str, bytes or os.PathLike), as open() takes it; not a file
    // descriptor, which open() would take over and close.
    py.import("os")?.call_method1("fspath", (path,))?;
    let size = StateSize::from_bits(call.state_bits).expect("checked by state_bits");
    let mut hasher = DynSkein::new(size, &hash_args.params())
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let mut out = alloc_output(hash_args.digest_bits.div_ceil(8))?;
    let file = py
        .import("builtins")?
        .call_method1("open", (path, "rb", 0))?;
    let hashed = hash_open_file(py, &file, path, &mut hasher);
    // Closed on every path, as a `with` block would; the first error wins.
    let closed = file.call_method0("close");
    hashed?;
    closed?;
    py.detach(|| hasher.finalize_into(&mut out));
    mask_unused_bits(&mut out, hash_args.digest_bits);
    Ok(PyBytes::new(py, &out))
}

/// Which instruction sets this machine uses: a dict with the single-stream
/// backend per state size (`'skein256'`, `'skein512'`, `'skein1024'`), the
/// multi-lane backend of `hash_many` and tree hashing (`'lanes'`) and its
/// lane count (`'lane_count'`). Where the lane kernel has several forms
/// (two interleaved groups of lanes, or a scalar lane beside them), a
/// fixed rule per CPU picks one, so `'lane_count'` is the same on every run
/// on a machine (4, 5 or 8 with AVX2); the digests never depend on it.
#[pyfunction]
pub fn platform(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let p = Platform::detect();
    let d = PyDict::new(py);
    for state in [StateSize::S256, StateSize::S512, StateSize::S1024] {
        d.set_item(format!("skein{}", state.bits()), p.backend().name())?;
    }
    let many = SkeinMany512::with_params(&Params::new())
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    d.set_item("lanes", many.backend().name())?;
    d.set_item("lane_count", many.lanes())?;
    let available: Vec<&str> = Backend::available()
        .into_iter()
        .map(Backend::name)
        .collect();
    d.set_item("available", available)?;
    Ok(d)
}
