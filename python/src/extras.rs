//! Beyond pyskein: `hash_many` (many messages on the library's multi-lane
//! kernels and threads), `hash_file` (a memory-mapped file, GIL released) and
//! `platform()` (which backends run).

use crate::args::{self, HashArgs};
use crate::buffer::Bytes;
use crate::hasher::{alloc_output, mask_unused_bits};
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use skein_simd::{Backend, DynSkein, Params, Platform, SkeinMany, SkeinMany512, StateSize};
use std::fs::File;
use std::io::Read;
use std::path::PathBuf;

const KEYWORDS: [&str; 7] = [
    "state_bits",
    "key",
    "pers",
    "public_key",
    "key_id",
    "nonce",
    "tree",
];

/// `digest_bits` and the keyword arguments shared by the extensions.
fn parse<'py>(
    function: &str,
    first: &'static str,
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<(Bound<'py, PyAny>, u64, HashArgs)> {
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
    Ok((first_value, state_bits, hash_args))
}

fn many_digests<const W: usize>(
    params: &Params<'_>,
    messages: &[&[u8]],
    out: &mut [u8],
) -> Result<(), String> {
    let many = SkeinMany::<W>::new(params).map_err(|e| e.to_string())?;
    many.hash_into(messages, out);
    Ok(())
}

/// `hash_many(messages, digest_bits=state_bits, *, state_bits=512, key=b'',
/// pers=b'', public_key=b'', key_id=b'', nonce=b'', tree=None)`
///
/// The digests of many messages (an iterable of bytes-like objects), as a list
/// of bytes: the same as `[skein512(m, digest_bits, key=key, ...).digest() for
/// m in messages]` (`state_bits` picks skein256/512/1024), computed several
/// messages per instruction on the SIMD lanes and on all cores, with the GIL
/// released. The arguments (a MAC key, say) are hashed once for all messages.
#[pyfunction]
#[pyo3(signature = (*args, **kwargs),
       text_signature = "(messages, digest_bits=None, *, state_bits=512, key=b'', pers=b'', public_key=b'', key_id=b'', nonce=b'', tree=None)")]
pub fn hash_many<'py>(
    py: Python<'py>,
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyList>> {
    let (messages, state_bits, hash_args) = parse("hash_many", "messages", args, kwargs)?;
    let held: Vec<Bytes> = messages
        .try_iter()?
        .map(|m| Bytes::get(&m?))
        .collect::<PyResult<_>>()?;
    let slices: Vec<&[u8]> = held.iter().map(Bytes::as_slice).collect();
    let len = hash_args.digest_bits.div_ceil(8);
    let mut out = alloc_output(len.saturating_mul(slices.len() as u64))?;
    let params = hash_args.params();
    py.detach(|| match state_bits {
        256 => many_digests::<4>(&params, &slices, &mut out),
        512 => many_digests::<8>(&params, &slices, &mut out),
        _ => many_digests::<16>(&params, &slices, &mut out),
    })
    .map_err(PyValueError::new_err)?;
    let digests = PyList::empty(py);
    if len > 0 {
        for d in out.chunks_exact_mut(len as usize) {
            mask_unused_bits(d, hash_args.digest_bits);
            digests.append(PyBytes::new(py, d))?;
        }
    }
    Ok(digests)
}

/// Hash an open file: mapped when it is a regular file, read in chunks
/// otherwise (pipes, character devices).
fn hash_open_file(file: &mut File, hasher: &mut DynSkein) -> std::io::Result<()> {
    let len = file.metadata()?.len();
    if file.metadata()?.is_file() && len > 0 {
        // SAFETY: the map is read-only and lives only inside this function.
        // As with every file mapping, another process truncating or writing
        // the file meanwhile changes what is read (or, on truncation, raises
        // SIGBUS); that is the documented contract of `hash_file`.
        let map = unsafe { memmap2::Mmap::map(&*file)? };
        #[cfg(unix)]
        let _ = map.advise(memmap2::Advice::Sequential);
        hasher.update(&map);
        return Ok(());
    }
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match file.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => hasher.update(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// `hash_file(path, digest_bits=state_bits, *, state_bits=512, key=b'',
/// pers=b'', public_key=b'', key_id=b'', nonce=b'', tree=None)`
///
/// The digest of a file's contents, read through a memory map with the GIL
/// released; the same as `skein512(open(path, 'rb').read(), digest_bits,
/// ...).digest()` without holding the file in memory. With `tree`, the file
/// is hashed on all cores. Errors are `OSError`s (`FileNotFoundError`, ...).
#[pyfunction]
#[pyo3(signature = (*args, **kwargs),
       text_signature = "(path, digest_bits=None, *, state_bits=512, key=b'', pers=b'', public_key=b'', key_id=b'', nonce=b'', tree=None)")]
pub fn hash_file<'py>(
    py: Python<'py>,
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let (path, state_bits, hash_args) = parse("hash_file", "path", args, kwargs)?;
    // str, bytes or os.PathLike, as open() takes them.
    let path: PathBuf = py
        .import("os")?
        .call_method1("fsdecode", (path,))?
        .extract()?;
    let size = StateSize::from_bits(state_bits).expect("checked by state_bits");
    let mut hasher = DynSkein::new(size, &hash_args.params())
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let mut out = alloc_output(hash_args.digest_bits.div_ceil(8))?;
    py.detach(|| {
        let mut file = File::open(&path)?;
        hash_open_file(&mut file, &mut hasher)?;
        hasher.finalize_into(&mut out);
        Ok::<(), std::io::Error>(())
    })
    .map_err(|e| match e.raw_os_error() {
        // OSError(errno, strerror, filename) becomes the matching subclass
        // (FileNotFoundError, IsADirectoryError, ...), as `open()` raises.
        Some(errno) => {
            let strerror = std::io::Error::from_raw_os_error(errno).to_string();
            PyOSError::new_err((errno, strerror, path.to_string_lossy().into_owned()))
        }
        None => PyErr::from(e),
    })?;
    mask_unused_bits(&mut out, hash_args.digest_bits);
    Ok(PyBytes::new(py, &out))
}

/// Which instruction sets this machine uses: a dict with the single-stream
/// backend per state size (`'skein256'`, `'skein512'`, `'skein1024'`), the
/// multi-lane backend of `hash_many` and tree hashing (`'lanes'`) and its
/// lane count (`'lane_count'`).
#[pyfunction]
pub fn platform(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let p = Platform::detect();
    let d = PyDict::new(py);
    for bits in [256usize, 512, 1024] {
        d.set_item(format!("skein{bits}"), p.backend(bits).name())?;
    }
    let many =
        SkeinMany512::new(&Params::new()).map_err(|e| PyValueError::new_err(e.to_string()))?;
    d.set_item("lanes", many.backend().name())?;
    d.set_item("lane_count", many.lanes())?;
    let available: Vec<&str> = Backend::available()
        .into_iter()
        .map(Backend::name)
        .collect();
    d.set_item("available", available)?;
    Ok(d)
}
