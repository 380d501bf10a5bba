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
use crate::common::alloc_output;
use crate::extras::KEYWORDS;
use crate::pickling;
use pyo3::exceptions::{PyIsADirectoryError, PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};
use skein_simd::hazmat;
use skein_simd::mask_unused_bits;
use std::fs::File;
use std::io::{self, Read as _, Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, SystemTime};

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
        pickling::reduce_to_bytes(slf.as_any(), &slf.get().data)
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
    /// os.PathLike), reading only the range's bytes, in pieces, with the
    /// GIL released; Ctrl-C interrupts it between pieces. `threads`: None
    /// (all cores, the library's pool) or how many threads hash the range
    /// (1: one, as a Dask worker thread with one task at a time wants). A
    /// file that ends before the range does, or that changes while it is
    /// read, is an `OSError`. `mmap=True` (Linux 5.14 and later, else
    /// read) maps the range instead of copying it, which costs less system
    /// time, but a file truncated while mapped kills the process (SIGBUS).
    #[pyo3(signature = (path, range, *, threads=None, mmap=false))]
    fn hash_file_range(
        &self,
        py: Python<'_>,
        path: &Bound<'_, PyAny>,
        range: &SubtreeRange,
        threads: Option<usize>,
        mmap: bool,
    ) -> PyResult<Subtrees> {
        with_tree!(&self.tree, t, _W => file_range(py, t, path, range, threads, mmap))
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

/// Bytes of a file read and hashed at a time by `hash_file_range` (at
/// least: see [`piece_bytes`]), through one buffer reused from piece to
/// piece: small enough to stay in the core's cache between the read that
/// fills it and the hashing that reads it, large enough that the calls
/// cost nothing measurable (docs/subtree.md, "Dask").
const PIECE_BYTES: u64 = 1 << 20;
/// The most lanes of a multi-lane kernel (AVX-512's eight).
const MAX_LANES: u64 = 8;
/// The largest piece, whatever the leaf size.
const PIECE_MAX_BYTES: u64 = 64 << 20;
/// How long the thread that called `hash_file_range` waits for the
/// hashing at a time before it looks for pending signals (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// How reading a range of a file into its hasher ended, short of an I/O
/// error.
enum RangeRead {
    Done,
    /// The file ended before the range did.
    Short,
    /// Asked to stop (a signal is pending in the caller).
    Stopped,
}

/// An `OSError` for an I/O error on the file `path`, as `open()` raises
/// it: `OSError(errno, strerror, filename)`, which Python turns into the
/// subclass of that errno (`FileNotFoundError`, `PermissionError`, ...).
fn file_error(py: Python<'_>, e: io::Error, path: &Bound<'_, PyAny>) -> PyErr {
    #[cfg(unix)]
    if let Some(code) = e.raw_os_error() {
        let strerror = py
            .import("os")
            .and_then(|os| os.call_method1("strerror", (code,)))
            .and_then(|s| s.extract::<String>())
            .unwrap_or_else(|_| e.to_string());
        return PyOSError::new_err((code, strerror, path.clone().unbind()));
    }
    let _ = py;
    PyErr::from(e)
}

/// What shows that a regular file's contents changed while it was read:
/// its size and modification time (as `hash_file` compares them).
fn content_stamp(meta: &std::fs::Metadata) -> Option<(u64, Option<SystemTime>)> {
    meta.is_file().then(|| (meta.len(), meta.modified().ok()))
}

/// The file at `path` (str, bytes or os.PathLike, as `open()` takes
/// it), opened for reading a range: a regular file or a block device,
/// else an `OSError` (a FIFO, a terminal or `/dev/zero` have no ranges).
/// It is opened without waiting (`O_NONBLOCK`, which means nothing to
/// reads of those two), so that a FIFO without a writer is refused
/// rather than waited for with the GIL held; a file under a lease, which
/// refuses that, is opened again waiting for the lease's holder to let
/// go (at most the system's lease break time), with the GIL released.
fn open_for_range(py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<(File, std::fs::Metadata)> {
    // Bytes as they are, through os.fsdecode's round trip.
    let name: PathBuf = py
        .import("os")?
        .call_method1("fsdecode", (path,))?
        .extract()?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = match options.open(&name) {
        Err(e) if e.kind() == io::ErrorKind::WouldBlock => py.detach(|| File::open(&name)),
        opened => opened,
    };
    let file = file.map_err(|e| file_error(py, e, path))?;
    let meta = file.metadata().map_err(|e| file_error(py, e, path))?;
    if meta.is_dir() {
        return Err(PyIsADirectoryError::new_err(format!(
            "Is a directory: {}",
            path.repr()?
        )));
    }
    #[cfg(unix)]
    let seekable =
        meta.is_file() || std::os::unix::fs::FileTypeExt::is_block_device(&meta.file_type());
    #[cfg(not(unix))]
    let seekable = meta.is_file();
    if !seekable {
        return Err(PyOSError::new_err(format!(
            "a range needs a regular file or a block device: {}",
            path.repr()?
        )));
    }
    Ok((file, meta))
}

/// The piece size for leaves of `leaf` bytes hashed on `threads` threads:
/// [`PIECE_BYTES`], or more when that holds fewer leaves than the lanes
/// of the threads take (the tree hashes them straight from the buffer
/// then, not through its batch buffer, a second copy), up to
/// [`PIECE_MAX_BYTES`]. A whole number of leaves when they are smaller
/// than that: a range starts at a leaf, so every piece does.
fn piece_bytes(leaf: u64, threads: usize) -> u64 {
    if leaf >= PIECE_MAX_BYTES {
        return PIECE_MAX_BYTES;
    }
    let lanes_full = leaf.saturating_mul(MAX_LANES * threads as u64);
    lanes_full.clamp(PIECE_BYTES, PIECE_MAX_BYTES) / leaf * leaf
}

/// Hash `len` bytes of `file`, from its current position, into `hasher`,
/// `piece` bytes at a time through one reused buffer, until done or
/// `stop` is set.
fn read_into<const W: usize>(
    file: &mut File,
    len: u64,
    piece: u64,
    hasher: &mut hazmat::SubtreeHasher<W>,
    stop: &AtomicBool,
) -> io::Result<RangeRead> {
    let mut buf = vec![0u8; len.min(piece) as usize];
    let mut left = len;
    while left > 0 {
        if stop.load(Ordering::Relaxed) {
            return Ok(RangeRead::Stopped);
        }
        let part = &mut buf[..left.min(piece) as usize];
        match file.read_exact(part) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(RangeRead::Short),
            Err(e) => return Err(e),
        }
        hasher.update(part);
        left -= part.len() as u64;
    }
    Ok(RangeRead::Done)
}

/// The largest part of a range mapped at once: any range fits in a small
/// address space.
#[cfg(target_os = "linux")]
const MAP_WINDOW: u64 = 64 << 20;

/// [`read_into`] through a memory map of the range, window by window: no
/// copy. Each piece's pages are populated (`MADV_POPULATE_READ`) before
/// it is hashed, which fails rather than faults past the end of a file
/// that shrank: the range is then short. A truncation between that and
/// the hashing of the piece still raises SIGBUS, which kills the process
/// (the caller chose that). Where the kernel cannot populate (before
/// 5.14), the rest of the range is read instead.
#[cfg(target_os = "linux")]
fn map_into<const W: usize>(
    file: &mut File,
    start: u64,
    len: u64,
    piece: u64,
    hasher: &mut hazmat::SubtreeHasher<W>,
    stop: &AtomicBool,
) -> io::Result<RangeRead> {
    use memmap2::{Advice, MmapOptions};
    // A block device's size is not its metadata's length (0); past its
    // end, populating fails as past a file's.
    let meta = file.metadata()?;
    if meta.is_file() && meta.len() < start + len {
        return Ok(RangeRead::Short);
    }
    let mut at = 0;
    while at < len {
        // Fits in usize: at most MAP_WINDOW.
        let size = (len - at).min(MAP_WINDOW) as usize;
        // SAFETY: memmap2 requires that nobody changes the file while the
        // map lives, which no program can promise for other processes'
        // files. The bytes are only read as plain data (no invariant
        // depends on them); a shrink is caught by populating each piece
        // before it is read (below), except in the moment between the two,
        // where it raises SIGBUS, the risk `mmap=True` documents; any
        // change is reported afterwards by the caller's size and mtime check.
        let map = unsafe { MmapOptions::new().offset(start + at).len(size).map(&*file) }?;
        let mut done = 0;
        while done < size {
            if stop.load(Ordering::Relaxed) {
                return Ok(RangeRead::Stopped);
            }
            let step = (size - done).min(piece as usize);
            match map.advise_range(Advice::PopulateRead, done, step) {
                Ok(()) => {}
                // Past the end of the file: it shrank.
                Err(e) if e.raw_os_error() == Some(libc::EFAULT) => return Ok(RangeRead::Short),
                // No MADV_POPULATE_READ: read the rest.
                Err(e) if e.raw_os_error() == Some(libc::EINVAL) => {
                    let from = at + done as u64;
                    file.seek(SeekFrom::Start(start + from))?;
                    return read_into(file, len - from, piece, hasher, stop);
                }
                Err(e) => return Err(e),
            }
            hasher.update(&map[done..done + step]);
            done += step;
        }
        at += size as u64;
    }
    Ok(RangeRead::Done)
}

/// `ObjectTree.hash_file_range` for a tree of `W` words. The file is read
/// and hashed on a thread of its own (in a pool of `threads` threads when
/// given), while the calling thread waits with the GIL released and looks
/// for signals every [`SIGNAL_POLL`]: one hand-over for the whole range,
/// not one per piece.
fn file_range<const W: usize>(
    py: Python<'_>,
    tree: &hazmat::ObjectTree<W>,
    path: &Bound<'_, PyAny>,
    range: &SubtreeRange,
    threads: Option<usize>,
    mmap: bool,
) -> PyResult<Subtrees> {
    if let Some(n) = threads.filter(|n| !(1..=256).contains(n)) {
        return Err(PyValueError::new_err(format!(
            "threads must be 1 to 256, not {n}"
        )));
    }
    let r = ObjectTree::range_in(tree, range)?;
    let mut hasher = tree.hasher(&r).map_err(value_error)?;
    let (mut file, meta) = open_for_range(py, path)?;
    let before = content_stamp(&meta);
    file.seek(SeekFrom::Start(range.start))
        .map_err(|e| file_error(py, e, path))?;
    let piece = piece_bytes(
        tree.node_span(1),
        threads.unwrap_or_else(rayon::current_num_threads),
    );
    let len = range.end - range.start;
    let pool = threads
        .map(|n| rayon::ThreadPoolBuilder::new().num_threads(n).build())
        .transpose()
        .map_err(|e| PyOSError::new_err(format!("cannot start the hashing threads: {e}")))?;
    let stop = AtomicBool::new(false);
    let read = std::thread::scope(|s| -> PyResult<io::Result<RangeRead>> {
        let (done, mut wait) = mpsc::channel();
        let (file, hasher, stop) = (&mut file, &mut hasher, &stop);
        s.spawn(move || {
            let mut work = || {
                #[cfg(target_os = "linux")]
                if mmap {
                    return map_into(file, range.start, len, piece, hasher, stop);
                }
                let _ = mmap;
                read_into(file, len, piece, hasher, stop)
            };
            let read = match &pool {
                Some(pool) => pool.install(work),
                None => work(),
            };
            // The receiver waits until this arrives (or the thread panics).
            let _ = done.send(read);
        });
        loop {
            let (rx, got) = py.detach(move || {
                let got = wait.recv_timeout(SIGNAL_POLL);
                (wait, got)
            });
            wait = rx;
            match got {
                Ok(read) => return Ok(read),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        stop.store(true, Ordering::Relaxed);
                        py.detach(move || wait.recv().ok());
                        return Err(e);
                    }
                }
                // The thread panicked: the scope passes its panic on.
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PyOSError::new_err("the hashing thread failed"))
                }
            }
        }
    })?;
    match read.map_err(|e| file_error(py, e, path))? {
        RangeRead::Done => {}
        RangeRead::Short => {
            return Err(PyOSError::new_err(format!(
                "file ends before byte {} of the range: {}",
                range.end,
                path.repr()?
            )))
        }
        RangeRead::Stopped => unreachable!("stopped only when a signal is raised"),
    }
    let after = file.metadata().map_err(|e| file_error(py, e, path))?;
    if content_stamp(&after) != before {
        return Err(PyOSError::new_err(format!(
            "file changed while being read: {}",
            path.repr()?
        )));
    }
    let values = hasher.finish().map_err(value_error)?;
    Ok(Subtrees::of(&values))
}
