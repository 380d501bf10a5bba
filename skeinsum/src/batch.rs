//! Many FILE arguments at once: regular files are gathered into a bounded
//! window, hashed side by side on the library's lanes ([`SkeinMany`]) and
//! across the threads of the current rayon pool, and handed back in order.
//!
//! A window holds at most [`WINDOW_FILES`] files and [`WINDOW_BYTES`] bytes.
//! Its names are looked up in parallel (the snapshot: size, mtime and
//! identity, `crate::files::Snapshot`); then each thread takes a chunk of
//! [`CHUNK_FILES`] files at a time, opens them and reads them to their end
//! (under `BATCH_MMAP_MIN`, into buffers reused from chunk to chunk) or maps
//! them whole with the looked-up size (`crate::files::whole`), hashes them
//! on lanes and snapshots each open file again. This module plans the
//! windows and hashes; every open, read, mapping and check of a file is
//! `crate::files`'s. Another file than the
//! one looked up (the name replaced before the open) goes to the sequential
//! path; a change of the same file, or a shrink under its mapping (caught by
//! the SIGBUS guard of `crate::files::sigbus`), is the same error as on the
//! sequential path. Everything else (standard input: the name `-`, never
//! a file of that name, FIFOs,
//! devices, directories, names that cannot be looked up, files whose size
//! `stat` gives as 0 or that hold more or less than it says, as procfs and
//! sysfs files do, files over
//! [`BATCH_FILE_MAX`], digests over [`BATCH_OUTPUT_MAX`]) is left to the
//! sequential path, in its place: [`Outcome::Sequential`]. So is a file
//! whose open found no descriptor free (`EMFILE`, `ENFILE`: the sequential
//! path opens it once the window's files are closed, and later windows open
//! fewer files at once), a file for which neither a mapping nor a read
//! buffer could be had (memory is never a file's own error: the sequential
//! path maps one window at a time, or reads in small blocks) or a lease on
//! it (the sequential path's open waits for the holder to let go).

use std::fs::File;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use skein_simd::mask_unused_bits;
use skein_simd::{Params, SkeinMany, StateSize};

use crate::config::HashConfig;
use crate::files::descriptors::Relief;
use crate::files::mapped::MAP_WINDOW;
use crate::files::open::lookup;
use crate::files::whole::{open_whole, Opened, Whole};
use crate::files::{InputError, Origin, Snapshot};
use crate::input::PROGRESS_MIN;
use crate::testing;

/// Files per window: enough to keep every lane of every thread busy, few
/// enough to bound open descriptors and guarded mappings.
pub const WINDOW_FILES: usize = 256;
/// Bytes per window (read or mapped at once).
pub const WINDOW_BYTES: u64 = 256 << 20;
/// Larger files take the sequential path: on its own, one long message
/// would hold a lane (at a fraction of the one-stream speed) while the
/// others idle, and one stream already hashes it at full speed.
pub const BATCH_FILE_MAX: u64 = 8 << 20;
/// Files opened, read, hashed and checked together on one thread: a
/// chunk fills the 16 lanes of the widest kernel, and a window of 256 has
/// 16 chunks to share out between threads.
const CHUNK_FILES: usize = 16;
/// A window of fewer files holding at least this many bytes is cut into
/// one chunk per thread instead, so that a few large files are still read
/// or mapped in parallel (bringing them in takes long enough to share:
/// docs/skeinsum.md, "On Zen 5 with AVX-512: chunks of 16 files").
const SPLIT_MIN_BYTES: u64 = 8 << 20;
/// Read buffers up to this capacity are kept for the next chunk.
const SPARE_MAX: usize = (WINDOW_BYTES / WINDOW_FILES as u64) as usize;
/// Files of the window at least this large are mapped (unless
/// `--no-mmap`), smaller ones read into buffers reused from chunk to
/// chunk: the smallest size class where mapping took less time than reading
/// (docs/skeinsum.md, "Map or read, per size class").
const BATCH_MMAP_MIN: u64 = 512 << 10;
/// Longer digests take the sequential path (the window's digests stay small).
pub const BATCH_OUTPUT_MAX: usize = 4096;

/// What became of one requested file.
pub enum Outcome {
    Digest(Vec<u8>),
    Failed(InputError),
    /// Not for a batch: hash it on the sequential path, in its place; with
    /// the file if it was opened already (it turned into something other
    /// than a regular file after it was looked up: see
    /// `crate::input::Reader::adopt`).
    Sequential(Option<File>),
}

/// One file to hash: its name and the digest it needs.
#[derive(Clone, Copy)]
pub struct Request<'a> {
    pub name: &'a [u8],
    pub state: StateSize,
    pub output_bits: u64,
    pub origin: Origin,
}

/// [`SkeinMany`] of any state width, behind one pointer: the batch meets
/// each (state size, output bits) once and keeps its prepared arguments.
trait Lanes: Send + Sync {
    fn hash_many_into(&self, messages: &[&[u8]], out: &mut [u8]);
}

impl<const W: usize> Lanes for SkeinMany<W> {
    fn hash_many_into(&self, messages: &[&[u8]], out: &mut [u8]) {
        SkeinMany::hash_many_into(self, messages, out)
    }
}

/// The prepared hasher for `state`. `None` if the library refuses these
/// arguments (none that the command line accepts: a forced backend without
/// a multi-lane kernel hashes on the portable one): the sequential path
/// takes those files and reports why.
fn lanes(state: StateSize, params: &Params<'_>) -> Option<Box<dyn Lanes>> {
    fn boxed<const W: usize>(params: &Params<'_>) -> Option<Box<dyn Lanes>> {
        Some(Box::new(SkeinMany::<W>::with_params(params).ok()?))
    }
    match state {
        StateSize::S256 => boxed::<4>(params),
        StateSize::S512 => boxed::<8>(params),
        StateSize::S1024 => boxed::<16>(params),
    }
}

/// The hasher prepared for one (state size, output bits), if batching
/// serves it.
type Prepared = ((StateSize, u64), Option<Box<dyn Lanes>>);

/// How a file of the window stands before hashing.
enum Slot {
    Ready(Whole, usize),
    Failed(InputError),
    Sequential(Option<File>),
}

/// Hashes windows of files; see the module documentation.
pub struct Batch<'c> {
    config: &'c HashConfig,
    use_mmap: bool,
    /// Prepared arguments per (state size, output bits) met.
    manys: Vec<Prepared>,
    /// `--progress` (stderr is a terminal): one bar for every batched byte.
    progress: bool,
    bar: Option<ProgressBar>,
    hashed: u64,
    /// Read buffers of the last window, for the next: fresh ones would
    /// cost a page fault per 4 KiB (and 128 KiB or more come straight from
    /// `mmap`, to be unmapped again on free).
    spare: Vec<Vec<u8>>,
    /// Files a thread holds open at once ([`CHUNK_FILES`]), halved after
    /// each window in which an open found no descriptor free (a step of
    /// `relief`, as many steps as halvings down to one file).
    chunk_max: usize,
    relief: Relief,
}

impl<'c> Batch<'c> {
    /// `progress` is honoured only when stderr is a terminal.
    pub fn new(config: &'c HashConfig, use_mmap: bool, progress: bool) -> Batch<'c> {
        use std::io::IsTerminal;
        Batch {
            config,
            use_mmap,
            manys: Vec::new(),
            progress: progress && io::stderr().is_terminal(),
            bar: None,
            hashed: 0,
            spare: Vec::new(),
            chunk_max: CHUNK_FILES,
            relief: Relief::new(CHUNK_FILES.ilog2() as u8),
        }
    }

    /// The prepared hasher for `key`, if batching serves it.
    fn many_index(&mut self, (state, output_bits): (StateSize, u64)) -> Option<usize> {
        let found = self
            .manys
            .iter()
            .position(|(k, _)| *k == (state, output_bits));
        let index = found.unwrap_or_else(|| {
            let many = (output_bits.div_ceil(8) as usize <= BATCH_OUTPUT_MAX)
                .then(|| lanes(state, &self.config.params(output_bits)))
                .flatten();
            self.manys.push(((state, output_bits), many));
            self.manys.len() - 1
        });
        self.manys[index].1.is_some().then_some(index)
    }

    /// Hash one window taken from the front of `requests` (at least one
    /// request); one outcome per request taken, in order.
    pub fn hash_window(&mut self, requests: &[Request<'_>]) -> Vec<Outcome> {
        // A window can take a while: the lines before it go out first.
        crate::report::write_pending();
        // Look the next names up (in parallel: for small files these system
        // calls cost more than hashing), then choose the window by size. No
        // further than one window's worth of names: a name looked up here but
        // left for the next window would be looked up twice.
        let largest = BATCH_FILE_MAX.min(testing::map_window(MAP_WINDOW));
        let ahead = &requests[..requests.len().min(WINDOW_FILES)];
        let manys: Vec<Option<usize>> = ahead
            .iter()
            .map(|r| self.many_index((r.state, r.output_bits)))
            .collect();
        // The snapshot taken here is the one the file is compared with after
        // hashing (with its identity: see `Snapshot`), so that the open file
        // needs no `fstat` of its own.
        let looked: Vec<Option<Snapshot>> = ahead
            .par_iter()
            .zip(&manys)
            .map(|(request, many)| {
                // `-` is standard input, never a file of that name.
                let stdin = request.origin == Origin::Named && request.name == b"-";
                many.filter(|_| !stdin)
                    .and_then(|_| lookup(request.name, request.origin).ok())
                    .and_then(|m| Snapshot::of(&m))
                    .filter(|s| s.len > 0 && s.len <= largest)
            })
            .collect();
        testing::pause("lookup");
        let mut chosen = Vec::new();
        let (mut files, mut bytes) = (0, 0u64);
        for (many, snapshot) in manys.into_iter().zip(looked) {
            let wanted = many.zip(snapshot);
            if let Some((_, Snapshot { len, .. })) = wanted {
                if files > 0 && (files == WINDOW_FILES || bytes + len > WINDOW_BYTES) {
                    break;
                }
                files += 1;
                bytes += len;
            }
            chosen.push(wanted);
        }

        // Open, read or map, hash and check again a chunk of consecutive
        // files at a time on each thread: what was read is hashed while it
        // is still in cache, and read buffers go from chunk to chunk, so a
        // window faults in the buffers of a few chunks, not of every file.
        let use_mmap = self.use_mmap;
        let pool = Mutex::new(std::mem::take(&mut self.spare));
        let manys = &self.manys;
        let chunk = if bytes >= SPLIT_MIN_BYTES {
            self.chunk_max
                .min(chosen.len().div_ceil(rayon::current_num_threads()))
        } else {
            self.chunk_max
        };
        let exhausted = AtomicBool::new(false);
        let outcomes: Vec<Vec<Outcome>> = requests[..chosen.len()]
            .par_chunks(chunk)
            .zip(chosen.par_chunks(chunk))
            .map(|(requests, chosen)| {
                hash_chunk(manys, requests, chosen, use_mmap, &pool, &exhausted)
            })
            .collect();
        if exhausted.into_inner() && self.relief.take_step().is_some() {
            self.chunk_max /= 2;
        }
        self.spare = pool.into_inner().unwrap_or_else(PoisonError::into_inner);
        self.advance(bytes);
        outcomes.into_iter().flatten().collect()
    }

    /// Count `bytes` more on the progress bar, shown once the batch is large.
    fn advance(&mut self, bytes: u64) {
        self.hashed += bytes;
        if !self.progress || self.hashed < PROGRESS_MIN {
            return;
        }
        let bar = self.bar.get_or_insert_with(|| {
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(
                ProgressStyle::with_template("batch {spinner} {bytes} {binary_bytes_per_sec}")
                    .expect("valid template"),
            )
        });
        bar.set_position(self.hashed);
    }

    /// Run `work` (the sequential path) with the batch's bar hidden.
    pub fn suspend<T>(&self, work: impl FnOnce() -> T) -> T {
        match &self.bar {
            Some(bar) => bar.suspend(work),
            None => work(),
        }
    }
}

impl Drop for Batch<'_> {
    fn drop(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// Open and read or map the `chosen` files of `requests` (the rest are
/// the sequential path's), hash them on lanes grouped by their arguments
/// (`manys`), and check each again: one outcome per request, in order.
/// Read buffers come from and go back to `pool`; `exhausted` is set when
/// an open found no descriptor free.
fn hash_chunk(
    manys: &[Prepared],
    requests: &[Request<'_>],
    chosen: &[Option<(usize, Snapshot)>],
    use_mmap: bool,
    pool: &Mutex<Vec<Vec<u8>>>,
    exhausted: &AtomicBool,
) -> Vec<Outcome> {
    let locked = || pool.lock().unwrap_or_else(PoisonError::into_inner);
    let take = || locked().pop().unwrap_or_default();
    let slots: Vec<Slot> = requests
        .iter()
        .zip(chosen)
        .map(|(request, wanted)| match wanted {
            None => Slot::Sequential(None),
            Some((many, looked)) => {
                let map_min = use_mmap.then_some(BATCH_MMAP_MIN);
                let (name, origin) = (request.name, request.origin);
                match open_whole(name, origin, *looked, map_min, BATCH_FILE_MAX, take) {
                    Ok(Opened::Ready(ready)) => Slot::Ready(ready, *many),
                    Ok(Opened::Sequential(file)) => Slot::Sequential(file),
                    // The window's files are closed before the sequential
                    // path opens it; later windows open fewer at once.
                    Ok(Opened::NoDescriptor) => {
                        exhausted.store(true, Ordering::Relaxed);
                        Slot::Sequential(None)
                    }
                    Err(e) => Slot::Failed(e),
                }
            }
        })
        .collect();
    testing::pause("batch");

    // Hash each group of equal arguments on lanes.
    let mut digests: Vec<Option<Vec<u8>>> = (0..slots.len()).map(|_| None).collect();
    for (index, ((_, output_bits), many)) in manys.iter().enumerate() {
        let Some(many) = many else { continue };
        let members: Vec<usize> = (0..slots.len())
            .filter(|&i| matches!(slots[i], Slot::Ready(_, m) if m == index))
            .collect();
        if members.is_empty() {
            continue;
        }
        let messages: Vec<&[u8]> = members
            .iter()
            .map(|&i| match &slots[i] {
                Slot::Ready(ready, _) => ready.bytes(),
                _ => unreachable!("members are ready"),
            })
            .collect();
        let len = output_bits.div_ceil(8) as usize;
        let mut out = vec![0u8; members.len() * len];
        many.hash_many_into(&messages, &mut out);
        for (&i, digest) in members.iter().zip(out.chunks_exact_mut(len)) {
            mask_unused_bits(digest, *output_bits);
            digests[i] = Some(digest.to_vec());
        }
    }

    // Check every file again; the outcomes stay in order.
    slots
        .into_iter()
        .zip(digests)
        .map(|(slot, digest)| match slot {
            Slot::Sequential(file) => Outcome::Sequential(file),
            Slot::Failed(e) => Outcome::Failed(e),
            Slot::Ready(ready, _) => {
                let (settled, buffer) = ready.settle();
                // Kept only up to SPARE_MAX, and no more buffers exist than
                // files of a window: at most WINDOW_FILES * SPARE_MAX =
                // WINDOW_BYTES.
                if let Some(buffer) = buffer.filter(|b| b.capacity() <= SPARE_MAX) {
                    locked().push(buffer);
                }
                match settled {
                    Ok(true) => Outcome::Digest(digest.expect("every ready file is hashed")),
                    Ok(false) => Outcome::Sequential(None),
                    Err(e) => Outcome::Failed(e),
                }
            }
        })
        .collect()
}
