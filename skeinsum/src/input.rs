//! Feeding a file or standard input to a hasher: large regular files are
//! memory-mapped, everything else is read in large blocks.

use std::fs::File;
use std::io::{self, Read};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use skein_simd::DynSkein;

use crate::config::bytes_os;
use crate::mapped::{self, Snapshot};
use crate::report::{display_name, io_reason};

/// Regular files at least this large are mapped; smaller ones are cheaper to
/// read than to map.
pub const MMAP_MIN: u64 = 16 * 1024;
/// Read size for standard input, pipes, devices and small files.
const READ_BLOCK: usize = 1 << 20;
/// Inputs at least this large get a progress bar with `--progress`.
const PROGRESS_MIN: u64 = 64 << 20;
/// With a progress bar, a mapped file is hashed in pieces this large.
const PROGRESS_STEP: usize = 4 << 20;

/// Why an input gave no digest.
#[derive(Debug)]
pub enum InputError {
    Io(io::Error),
    /// The file changed (size or time) or shrank under the mapping.
    Changed,
}

impl From<io::Error> for InputError {
    fn from(e: io::Error) -> Self {
        InputError::Io(e)
    }
}

impl InputError {
    /// The reason for `skeinsum: NAME: REASON`.
    pub fn reason(&self) -> String {
        match self {
            InputError::Io(e) => io_reason(e),
            InputError::Changed => "file changed while being read; no digest".to_string(),
        }
    }
    pub fn is_not_found(&self) -> bool {
        matches!(self, InputError::Io(e) if e.kind() == io::ErrorKind::NotFound)
    }
}

/// Reads inputs one after another, reusing one buffer.
pub struct Reader {
    buffer: Vec<u8>,
    use_mmap: bool,
    progress: bool,
}

impl Reader {
    /// `progress` is honoured only when stderr is a terminal.
    pub fn new(use_mmap: bool, progress: bool) -> Reader {
        use std::io::IsTerminal;
        Reader {
            buffer: Vec::new(),
            use_mmap,
            progress: progress && io::stderr().is_terminal(),
        }
    }

    /// Feed the input named `name` (`-` = standard input) to `hasher`.
    pub fn hash(&mut self, name: &[u8], hasher: &mut DynSkein) -> Result<(), InputError> {
        if name == b"-" {
            return self.hash_stream(io::stdin().lock(), None, name, hasher);
        }
        let file = File::open(bytes_os(name))?;
        let meta = file.metadata()?;
        if meta.is_dir() {
            return Err(io::Error::new(io::ErrorKind::IsADirectory, "Is a directory").into());
        }
        if self.use_mmap && meta.is_file() && meta.len() >= MMAP_MIN {
            let before = Snapshot::of(&meta);
            let bar = self.bar(Some(before.len()), name);
            let unchanged = mapped::with_mapped(&file, before, |bytes| match &bar {
                None => hasher.update(bytes),
                Some(bar) => {
                    for piece in bytes.chunks(PROGRESS_STEP) {
                        hasher.update(piece);
                        bar.inc(piece.len() as u64);
                    }
                }
            })?;
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
            return if unchanged {
                Ok(())
            } else {
                Err(InputError::Changed)
            };
        }
        let size = meta.is_file().then_some(meta.len());
        self.hash_stream(file, size, name, hasher)
    }

    fn hash_stream(
        &mut self,
        mut input: impl Read,
        size: Option<u64>,
        name: &[u8],
        hasher: &mut DynSkein,
    ) -> Result<(), InputError> {
        if self.buffer.is_empty() {
            // Zeroed allocation: fresh pages from the OS, touched only as used.
            self.buffer = vec![0; READ_BLOCK];
        }
        let mut bar = size.and_then(|s| self.bar(Some(s), name));
        let mut total = 0u64;
        loop {
            let n = match input.read(&mut self.buffer) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e.into()),
            };
            hasher.update(&self.buffer[..n]);
            total += n as u64;
            // Streams of unknown size get a spinner once they prove large.
            if bar.is_none() && size.is_none() && total >= PROGRESS_MIN {
                bar = self.bar(None, name);
                if let Some(b) = &bar {
                    b.set_position(total);
                }
            } else if let Some(b) = &bar {
                b.inc(n as u64);
            }
        }
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        Ok(())
    }

    /// A progress bar on stderr for a large input, if asked for.
    fn bar(&self, size: Option<u64>, name: &[u8]) -> Option<ProgressBar> {
        if !self.progress || size.is_some_and(|s| s < PROGRESS_MIN) {
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
        bar.set_prefix(display_name(name));
        Some(bar)
    }
}
