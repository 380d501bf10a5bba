//! Many FILE arguments at once: regular files are gathered into a bounded
//! window, hashed side by side on the library's lanes ([`SkeinMany`]) and
//! across the threads of the current rayon pool, and handed back in order.
//!
//! A window holds at most [`WINDOW_FILES`] files. Each thread takes a
//! chunk of [`CHUNK_FILES`] files of it at a time, opens each file and
//! takes its snapshot of the open file (size, mtime: `crate::files::Snapshot`),
//! reads it to its end (under `BATCH_MMAP_MIN`, into buffers reused from
//! chunk to chunk) or maps it whole (`crate::files::whole`), hashes the
//! chunk on lanes and snapshots each open file again. The chunks keep the
//! window's bytes read or mapped at once to [`WINDOW_BYTES`], plus at most
//! one file (of up to [`BATCH_FILE_MAX`]) per chunk running when that is
//! reached: a chunk that would pass it hashes what it holds and lets go of
//! it before it reads more, and always takes its first file. This module
//! plans the windows and hashes; every open, read, mapping and check of a
//! file is `crate::files`'s. A change of the file while it is read or
//! mapped, or a shrink under its mapping (caught by the SIGBUS guard of
//! `crate::files::sigbus`), is the same error as on the sequential path.
//!
//! Everything else (standard input: the name `-`, never a file of that
//! name, FIFOs, devices, directories, names that cannot be opened, files
//! whose size `stat` gives as 0 or that hold more or less than it says, as
//! procfs and sysfs files do, files over [`BATCH_FILE_MAX`], digests over
//! [`BATCH_OUTPUT_MAX`]) is left to the sequential path, in its place:
//! [`Outcome::Sequential`]. So is a file whose open found no descriptor
//! free (`EMFILE`, `ENFILE`: the sequential path opens it when its turn
//! comes, and later windows open fewer files at once), a file for which
//! neither a mapping nor a read buffer could be had (memory is never a
//! file's own error: the sequential path maps one window at a time, or
//! reads in small blocks) or a lease on it (the sequential path's open
//! waits for the holder to let go).
//!
//! A FIFO or device named by the user is handed to the sequential path
//! open, as the window's open left it (`crate::input::Reader::adopt`):
//! closing it could lose what a writer let through by that open wrote. Of
//! each such file only its first name in the window is handed on; a later
//! name of it is opened again when its turn comes, as `sha256sum` does
//! (`crate::files::whole::keep_first_of_each`). And once a chunk has
//! handed one on, no chunk opens a name past it (`Shared::handed`): the
//! descriptors held for their turn are at most one per chunk, not one per
//! name, so the sequential path's own opens find one free. The window then
//! ends at the first name left unopened, the next window taking the rest,
//! unless a chunk handed on a file beyond it (then those names take the
//! sequential path).

use std::fs::File;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use skein_simd::mask_unused_bits;
use skein_simd::{Params, SkeinMany, StateSize};
use smallvec::SmallVec;

use crate::config::HashConfig;
use crate::files::descriptors::Relief;
use crate::files::mapped::MAP_WINDOW;
use crate::files::whole::{keep_first_of_each, open_regular, Opened, Whole};
use crate::files::{InputError, Origin};
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
/// Read buffers up to this capacity are kept for the next chunk.
const SPARE_MAX: usize = (WINDOW_BYTES / WINDOW_FILES as u64) as usize;
/// Files of the window at least this large are mapped (unless
/// `--no-mmap`), smaller ones read into buffers reused from chunk to
/// chunk: the smallest size class where mapping took less time than reading
/// (docs/skeinsum.md, "Map or read, per size class").
const BATCH_MMAP_MIN: u64 = 512 << 10;
/// Longer digests take the sequential path (the window's digests stay small).
pub const BATCH_OUTPUT_MAX: usize = 4096;

/// A digest of the batch: held inline up to 512 bits (the default output
/// of `-a 256` and `-a 512`), so that thousands of small files cost no
/// allocation each; a longer one spills to the heap. Not longer inline:
/// each outcome is moved a few times on its way to the output.
pub type Digest = SmallVec<[u8; 64]>;

/// What became of one requested file.
pub enum Outcome {
    Digest(Digest),
    Failed(InputError),
    /// Not for a batch: hash it on the sequential path, in its place; with
    /// the file if the window opened it and must not close it (a FIFO or
    /// device, the first name of it in the window: see
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
        let largest = BATCH_FILE_MAX.min(testing::map_window(MAP_WINDOW));
        let window = &requests[..requests.len().min(WINDOW_FILES)];
        // The hasher of each file; none (the sequential path) for `-`,
        // which is standard input, never a file of that name.
        let wanted: Vec<Option<usize>> = window
            .iter()
            .map(|r| {
                let stdin = r.origin == Origin::Named && r.name == b"-";
                self.many_index((r.state, r.output_bits)).filter(|_| !stdin)
            })
            .collect();
        testing::pause("window");

        // Open, take the snapshot, read or map, hash and check again a
        // chunk of consecutive files at a time on each thread: each name is
        // looked up once (by its open), what was read is hashed while it is
        // still in cache, and read buffers go from chunk to chunk, so a
        // window faults in the buffers of a few chunks, not of every file.
        // A chunk of a few large files is still hashed on every thread
        // (`SkeinMany` splits a batch of 128 KiB or more across the pool);
        // only their reading or mapping is one thread's.
        let use_mmap = self.use_mmap;
        let pool = Mutex::new(std::mem::take(&mut self.spare));
        let manys = &self.manys;
        let chunk = self.chunk_max;
        let exhausted = AtomicBool::new(false);
        let held = AtomicUsize::new(0);
        let handed = AtomicUsize::new(usize::MAX);
        let passed = AtomicUsize::new(usize::MAX);
        let window_bytes = testing::window_bytes(WINDOW_BYTES);
        let shared = Shared {
            manys,
            use_mmap,
            largest,
            window_bytes,
            reserve_step: RESERVE_STEP.min(window_bytes),
            pool: &pool,
            exhausted: &exhausted,
            held: &held,
            handed: &handed,
            passed: &passed,
        };
        let mut outcomes: Vec<(Outcome, u64)> = window
            .par_chunks(chunk)
            .zip(wanted.par_chunks(chunk))
            .enumerate()
            .map(|(i, (requests, wanted))| hash_chunk(&shared, i * chunk, requests, wanted))
            .flatten_iter()
            .collect();
        if exhausted.into_inner() && self.relief.take_step().is_some() {
            self.chunk_max /= 2;
        }
        self.spare = pool.into_inner().unwrap_or_else(PoisonError::into_inner);
        keep_first_of_each(
            outcomes
                .iter_mut()
                .filter_map(|(outcome, _)| match outcome {
                    Outcome::Sequential(file) => Some(file),
                    _ => None,
                }),
        );
        // The window ends at its first name left unopened, unless a file
        // handed on lies beyond it (which must not be closed): what was
        // hashed past that name is hashed again in the next window.
        let passed = passed.into_inner();
        if passed < outcomes.len()
            && !outcomes[passed..]
                .iter()
                .any(|(outcome, _)| matches!(outcome, Outcome::Sequential(Some(_))))
        {
            outcomes.truncate(passed);
        }
        self.advance(outcomes.iter().map(|(_, bytes)| bytes).sum());
        outcomes.into_iter().map(|(outcome, _)| outcome).collect()
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

/// What the chunks of one window share.
struct Shared<'a> {
    /// The prepared hashers, by (state size, output bits).
    manys: &'a [Prepared],
    use_mmap: bool,
    /// Larger files take the sequential path.
    largest: u64,
    /// Bytes the window holds read or mapped at once ([`WINDOW_BYTES`]).
    window_bytes: u64,
    /// What a chunk reserves of them at a time, at least ([`RESERVE_STEP`]).
    reserve_step: u64,
    /// Read buffers, from chunk to chunk.
    pool: &'a Mutex<Vec<Vec<u8>>>,
    /// Set when an open found no descriptor free.
    exhausted: &'a AtomicBool,
    /// Bytes the window's chunks have reserved to read or map
    /// (`reserve_step` at a time, so that small files touch it once a
    /// chunk): against `window_bytes`. A `usize`, as 32-bit targets
    /// without 64-bit atomics (32-bit PowerPC) have no `AtomicU64`: the
    /// sum stays below `WINDOW_BYTES` plus a step a chunk.
    held: &'a AtomicUsize,
    /// The lowest index in the window of a file handed on open (a FIFO
    /// or device: [`Outcome::Sequential`]); no name past it is opened, so
    /// that a chunk hands on one file at most, and the window holds a few
    /// such descriptors for their turn, not up to [`WINDOW_FILES`].
    handed: &'a AtomicUsize,
    /// The lowest index in the window of a name left unopened for that
    /// reason: where the window ends, if nothing handed on lies beyond.
    passed: &'a AtomicUsize,
}

/// What a chunk reserves of the window's bytes at a time (at least).
const RESERVE_STEP: u64 = BATCH_FILE_MAX;

/// A chunk's reservation as the shared count's `usize`: files in a batch
/// hold at most [`BATCH_FILE_MAX`] bytes, so a reservation is at most a
/// window's bytes and a step, far below 4 GiB.
fn in_usize(bytes: u64) -> usize {
    usize::try_from(bytes).expect("a chunk's reservation fits in usize")
}

/// Open the files of `requests` (the window's from index `first` on) for
/// which `wanted` names a hasher (the rest are the sequential path's), read
/// or map them, hash them on lanes grouped by their arguments, and check
/// each again: one outcome per request, in order, each with the bytes
/// hashed for it. When the window holds [`WINDOW_BYTES`] (with what this
/// chunk would add), what the chunk holds is hashed and let go before it
/// reads more; a chunk always takes its first file.
fn hash_chunk(
    shared: &Shared<'_>,
    first: usize,
    requests: &[Request<'_>],
    wanted: &[Option<usize>],
) -> Vec<(Outcome, u64)> {
    let locked = || shared.pool.lock().unwrap_or_else(PoisonError::into_inner);
    let map_min = shared.use_mmap.then_some(BATCH_MMAP_MIN);
    let mut outcomes = Vec::with_capacity(requests.len());
    let mut slots: Vec<Slot> = Vec::with_capacity(requests.len());
    let (mut bytes, mut reserved) = (0u64, 0u64);
    for (index, (request, many)) in (first..).zip(requests.iter().zip(wanted)) {
        if index > shared.handed.load(Ordering::Relaxed) {
            shared.passed.fetch_min(index, Ordering::Relaxed);
            slots.push(Slot::Sequential(None));
            continue;
        }
        let Some(many) = *many else {
            slots.push(Slot::Sequential(None));
            continue;
        };
        let regular = match open_regular(request.name, request.origin, shared.largest) {
            Ok(Opened::Ready(regular)) => regular,
            Ok(Opened::Sequential(file)) => {
                if file.is_some() {
                    shared.handed.fetch_min(index, Ordering::Relaxed);
                }
                slots.push(Slot::Sequential(file));
                continue;
            }
            // The sequential path opens it when its turn comes: by then the
            // window's regular files are closed, and of the files it handed
            // on only those of later names are still held (one per chunk at
            // most: `Shared::handed`). Later windows open fewer at once.
            Ok(Opened::NoDescriptor) => {
                shared.exhausted.store(true, Ordering::Relaxed);
                slots.push(Slot::Sequential(None));
                continue;
            }
            Err(e) => {
                slots.push(Slot::Failed(e));
                continue;
            }
        };
        let len = regular.len();
        if bytes + len > reserved {
            let step = (bytes + len - reserved).max(shared.reserve_step);
            let total = shared.held.fetch_add(in_usize(step), Ordering::Relaxed) as u64 + step;
            reserved += step;
            if bytes > 0 && total > shared.window_bytes {
                finish(shared, &mut slots, &mut outcomes);
                shared.held.fetch_sub(in_usize(reserved), Ordering::Relaxed);
                bytes = 0;
                reserved = len.max(shared.reserve_step);
                shared.held.fetch_add(in_usize(reserved), Ordering::Relaxed);
            }
        }
        bytes += len;
        slots.push(
            match regular.read(map_min, || locked().pop().unwrap_or_default()) {
                Ok(Some(whole)) => Slot::Ready(whole, many),
                Ok(None) => Slot::Sequential(None),
                Err(e) => Slot::Failed(e),
            },
        );
    }
    finish(shared, &mut slots, &mut outcomes);
    shared.held.fetch_sub(in_usize(reserved), Ordering::Relaxed);
    outcomes
}

/// Hash the ready files of `slots` on lanes, check each again and close
/// it: the outcomes of all `slots`, in order, with the bytes hashed for
/// each, go to `outcomes`.
fn finish(shared: &Shared<'_>, slots: &mut Vec<Slot>, outcomes: &mut Vec<(Outcome, u64)>) {
    let slots = std::mem::take(slots);
    testing::pause("batch");

    // Hash each group of equal arguments on lanes. A chunk holds at most
    // CHUNK_FILES files: its lists stay on the stack.
    let mut digests: SmallVec<[Option<Digest>; CHUNK_FILES]> =
        (0..slots.len()).map(|_| None).collect();
    for (index, ((_, output_bits), many)) in shared.manys.iter().enumerate() {
        let Some(many) = many else { continue };
        let members: SmallVec<[usize; CHUNK_FILES]> = (0..slots.len())
            .filter(|&i| matches!(slots[i], Slot::Ready(_, m) if m == index))
            .collect();
        if members.is_empty() {
            continue;
        }
        let messages: SmallVec<[&[u8]; CHUNK_FILES]> = members
            .iter()
            .map(|&i| match &slots[i] {
                Slot::Ready(ready, _) => ready.bytes(),
                _ => unreachable!("members are ready"),
            })
            .collect();
        let len = output_bits.div_ceil(8) as usize;
        let mut out: SmallVec<[u8; CHUNK_FILES * 64]> =
            smallvec::smallvec![0u8; members.len() * len];
        many.hash_many_into(&messages, &mut out);
        for (&i, digest) in members.iter().zip(out.chunks_exact_mut(len)) {
            mask_unused_bits(digest, *output_bits);
            digests[i] = Some(Digest::from_slice(digest));
        }
    }

    // Check every file again; the outcomes stay in order.
    let locked = || shared.pool.lock().unwrap_or_else(PoisonError::into_inner);
    outcomes.extend(
        slots
            .into_iter()
            .zip(digests)
            .map(|(slot, digest)| match slot {
                Slot::Sequential(file) => (Outcome::Sequential(file), 0),
                Slot::Failed(e) => (Outcome::Failed(e), 0),
                Slot::Ready(ready, _) => {
                    let len = ready.bytes().len() as u64;
                    let (settled, buffer) = ready.settle();
                    // Kept only up to SPARE_MAX, and no more buffers exist than
                    // files of a window: at most WINDOW_FILES * SPARE_MAX =
                    // WINDOW_BYTES.
                    if let Some(buffer) = buffer.filter(|b| b.capacity() <= SPARE_MAX) {
                        locked().push(buffer);
                    }
                    let outcome = match settled {
                        Ok(()) => Outcome::Digest(digest.expect("every ready file is hashed")),
                        Err(e) => Outcome::Failed(e),
                    };
                    (outcome, len)
                }
            }),
    );
}
