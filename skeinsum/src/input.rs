//! Feeding a file or standard input to a hasher, one after another: large
//! regular files are memory-mapped (in bounded windows), everything else is
//! read in large blocks, and a regular file must not change while it is
//! hashed. Opening, mapping and checking files is `crate::files`'s.

use std::fs::File;
use std::io::{self, Read, Seek};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use skein_simd::mask_unused_bits;
use skein_simd::DynSkein;

use crate::files::mapped::{self, Mapped};
use crate::files::open::{blocking, open_named, open_walked, stdin, stdin_snapshot};
use crate::files::{is_a_directory, unchanged, Snapshot};
use crate::files::{InputError, Origin};
use crate::quote::quote_name;
use crate::readahead;
use crate::testing;

/// Regular files at least this large are mapped; smaller ones are cheaper to
/// read than to map.
pub const MMAP_MIN: u64 = 16 * 1024;
/// Read size for small files.
const READ_BLOCK: usize = 1 << 20;
/// Streams (standard input, pipes, devices) and files at least this large
/// that are not mapped are read ahead on another thread
/// (`crate::readahead`); below it, starting that thread costs more than it
/// saves.
const READ_AHEAD_MIN: u64 = 4 << 20;
/// Before an input this large (or a stream), pending result lines are
/// written out (`crate::report::write_pending`).
const WRITE_PENDING_MIN: u64 = 1 << 20;
/// Inputs at least this large get a progress bar with `--progress`.
pub(crate) const PROGRESS_MIN: u64 = 64 << 20;
/// With a progress bar, a mapped file is hashed in pieces this large.
const PROGRESS_STEP: usize = 4 << 20;

/// The `output_bits`-bit digest of a finished hasher, the unused low bits
/// of its last byte cleared (`skein_simd::mask_unused_bits`). Its buffer
/// is reserved fallibly, so an output too large for this machine is an
/// error for this file, not an abort of the run.
pub fn finish(hasher: DynSkein, output_bits: u64) -> Result<Vec<u8>, InputError> {
    let mut digest = Vec::new();
    digest.try_reserve_exact(hasher.output_len()).map_err(|_| {
        io::Error::new(
            io::ErrorKind::OutOfMemory,
            "not enough memory for the digest",
        )
    })?;
    digest.resize(hasher.output_len(), 0);
    hasher.finalize_into(&mut digest);
    mask_unused_bits(&mut digest, output_bits);
    Ok(digest)
}

/// Reads inputs one after another, reusing one buffer.
pub struct Reader {
    buffer: Vec<u8>,
    /// Blocks for reading ahead.
    blocks: readahead::Pool,
    /// A file the batch opened and handed over, with its name (`adopt`).
    adopted: Option<(Vec<u8>, File)>,
    use_mmap: bool,
    progress: bool,
}

impl Reader {
    /// `progress` is honoured only when stderr is a terminal.
    pub fn new(use_mmap: bool, progress: bool) -> Reader {
        use std::io::IsTerminal;
        Reader {
            buffer: Vec::new(),
            blocks: readahead::Pool::default(),
            adopted: None,
            use_mmap,
            progress: progress && io::stderr().is_terminal(),
        }
    }

    /// The next [`hash`](Self::hash) of `name` reads `file` (if given), not
    /// the file it finds by that name then. The batch opens files without
    /// waiting (`O_NONBLOCK`), and a FIFO or device it opened that way
    /// (the first name of it in its window) must not be closed and opened
    /// again: a writer let through by the first open may have written and
    /// gone by the second, which would then wait for ever.
    pub fn adopt(&mut self, name: &[u8], file: Option<File>) {
        self.adopted = file.map(|file| (name.to_vec(), file));
    }

    /// Feed the input named `name` (`-` = standard input) to `hasher`. A
    /// regular file (standard input too, when it is one) that changes size
    /// or mtime meanwhile, or shrinks under its mapping, is an error.
    pub fn hash(&mut self, name: &[u8], hasher: &mut DynSkein) -> Result<(), InputError> {
        self.hash_from(name, Origin::Named, hasher)
    }

    /// [`hash`](Self::hash) a name from `origin`: one that `-r` found is
    /// hashed only if it is still a regular file ([`Origin::Walked`]).
    pub fn hash_from(
        &mut self,
        name: &[u8],
        origin: Origin,
        hasher: &mut DynSkein,
    ) -> Result<(), InputError> {
        if let Origin::Walked { follow_links } = origin {
            // Never an adopted file: that one is made to block.
            self.adopted = None;
            let file = open_walked(name, follow_links)?;
            let meta = file.metadata()?;
            return self.hash_file(file, meta, name, hasher);
        }
        if name == b"-" {
            crate::report::write_pending();
            let input = stdin()?;
            let before = stdin_snapshot(&input);
            self.hash_stream(&input, before.map(|s| s.len), name, hasher)?;
            return unchanged(before, stdin_snapshot(&input));
        }
        let (file, meta) = match self.adopted.take() {
            Some((adopted, file)) if adopted == name => {
                // Never a regular file: it may wait for a writer.
                crate::report::write_pending();
                let file = blocking(file)?;
                let meta = file.metadata()?;
                (file, meta)
            }
            _ => open_named(name)?,
        };
        self.hash_file(file, meta, name, hasher)
    }

    /// Hash the open file `file`, named `name`, whose metadata is `meta`.
    fn hash_file(
        &mut self,
        mut file: File,
        meta: std::fs::Metadata,
        name: &[u8],
        hasher: &mut DynSkein,
    ) -> Result<(), InputError> {
        if meta.is_dir() {
            return Err(is_a_directory().into());
        }
        let before = Snapshot::of(&meta);
        let size = before.map(|s| s.len);
        if size.is_none_or(|len| len >= WRITE_PENDING_MIN) {
            // A stream or a large file: no result line waits behind it.
            crate::report::write_pending();
        }
        let mut faulted = false;
        match size {
            Some(len) if self.use_mmap && len >= MMAP_MIN => {
                testing::pause("map");
                let bar = self.bar(Some(len), name);
                let outcome = mapped::hash_mapped(&file, len, &mut |bytes| match &bar {
                    None => hasher.update(bytes),
                    Some(bar) => {
                        for piece in bytes.chunks(PROGRESS_STEP) {
                            hasher.update(piece);
                            bar.inc(piece.len() as u64);
                        }
                    }
                });
                if let Some(bar) = bar {
                    bar.finish_and_clear();
                }
                match outcome {
                    Mapped::Whole { faulted: f } => faulted = f,
                    // Mapping was refused (a file system without mmap, a
                    // full address space): read the rest instead.
                    Mapped::Refused { at, faulted: f } => {
                        faulted = f;
                        file.seek(io::SeekFrom::Start(at))?;
                        self.hash_stream(&file, Some(len - at), name, hasher)?;
                    }
                }
            }
            _ => self.hash_stream(&file, size, name, hasher)?,
        }
        if faulted {
            return Err(InputError::Changed);
        }
        unchanged(before, Snapshot::of(&file.metadata()?))
    }

    fn hash_stream(
        &mut self,
        mut input: impl Read + Send,
        size: Option<u64>,
        name: &[u8],
        hasher: &mut DynSkein,
    ) -> Result<(), InputError> {
        let progress = self.progress;
        let mut bar = size.and_then(|s| progress_bar(progress, Some(s), name));
        let mut total = 0u64;
        let mut consume = |bytes: &[u8]| {
            hasher.update(bytes);
            if total == 0 {
                testing::pause("read");
            }
            total += bytes.len() as u64;
            // Streams of unknown size get a spinner once they prove large.
            if bar.is_none() && size.is_none() && total >= PROGRESS_MIN {
                bar = progress_bar(progress, None, name);
                if let Some(b) = &bar {
                    b.set_position(total);
                }
            } else if let Some(b) = &bar {
                b.inc(bytes.len() as u64);
            }
        };
        if size.is_none_or(|len| len >= READ_AHEAD_MIN) {
            // A stream, or a large file read without mapping.
            self.blocks.read_all(input, &mut consume)?;
        } else {
            if self.buffer.is_empty() {
                // Smaller if memory is short (`readahead::try_buffer`).
                self.buffer =
                    readahead::try_buffer(READ_BLOCK).ok_or_else(readahead::out_of_memory)?;
            }
            loop {
                let n = match input.read(&mut self.buffer) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e.into()),
                };
                consume(&self.buffer[..n]);
            }
        }
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        Ok(())
    }

    /// A progress bar on stderr for a large input, if asked for.
    fn bar(&self, size: Option<u64>, name: &[u8]) -> Option<ProgressBar> {
        progress_bar(self.progress, size, name)
    }
}

/// A progress bar on stderr for a large input, if `progress` asks for one.
fn progress_bar(progress: bool, size: Option<u64>, name: &[u8]) -> Option<ProgressBar> {
    if !progress || size.is_some_and(|s| s < PROGRESS_MIN) {
        return None;
    }
    let bar = match size {
        Some(len) => ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr())
            .with_style(
                ProgressStyle::with_template(
                    "{prefix} [{wide_bar}] {bytes}/{total_bytes} {binary_bytes_per_sec} ETA {eta}",
                )
                .expect("valid template")
                .progress_chars("=> "),
            ),
        None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(
            ProgressStyle::with_template("{prefix} {spinner} {bytes} {binary_bytes_per_sec}")
                .expect("valid template"),
        ),
    };
    bar.set_prefix(quote_name(name));
    Some(bar)
}
