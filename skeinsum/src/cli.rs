//! The command line: every option, its parser and its one-line help.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::Parser;
use skein_simd::{Backend, TreeParams};
use zeroize::Zeroizing;

/// The longest output `-l` accepts, in bits: 2^27 bits = 16 MiB of digest.
/// The library's output stage writes the whole digest into one buffer, so the
/// digest, and its hex line, are held in memory; this bound keeps that under
/// 50 MiB on every target (32-bit ones included) and the output stage under a
/// second, while being far longer than any checksum needs.
pub const MAX_OUTPUT_BITS: u64 = 1 << 27;
/// The longest MAC key, in bytes (1 MiB), from `--key-file` or `--key-hex`.
/// Skein compresses a key of any length into one chain value, so longer keys
/// add nothing; the bound stops `--key-file /dev/zero` from reading forever.
pub const MAX_KEY_BYTES: usize = 1 << 20;
/// The most threads `-j` accepts. The thread pool's start-up and wake-up cost
/// grows faster than linearly with its size (measured: docs/skeinsum.md,
/// "Many files at once"), and tree hashing gains nothing from more
/// threads than cores; without `-j`, the number of cores is clamped to this.
pub const MAX_THREADS: u64 = 256;

/// Print or check Skein checksums.
///
/// With no FILE, or when FILE is -, read standard input. Output lines are
/// `HEX  FILE` (as sha256sum), or `Skein-512-256 (FILE) = HEX` with --tag;
/// --check reads both, and FreeBSD's `Skein512 (FILE) = HEX` lines too.
#[derive(Parser, Debug)]
#[command(name = "skeinsum", version, about, long_about, max_term_width = 100)]
// As GNU getopt: a repeated option is no error (the last value counts), and
// an unambiguous prefix of a long option is that option.
#[command(args_override_self = true, infer_long_args = true)]
#[command(
    after_help = "Exit status: 0 if all went well, 1 if a file could not be read or a check failed, 2 on a usage error."
)]
pub struct Args {
    /// Files to hash, or with --check, files of checksums to verify
    #[arg(value_name = "FILE")]
    pub files: Vec<OsString>,

    /// State size in bits: 256, 512 or 1024
    #[arg(short, long, value_name = "BITS", default_value = "512",
          value_parser = PossibleValuesParser::new(["256", "512", "1024"]).map(|s: String| s.parse::<u64>().unwrap()))]
    pub algorithm: u64,

    /// Output length in bits, from 1 to 134217728 (2^27) [default: the state size]
    #[arg(short, long, value_name = "BITS", value_parser = parse_length)]
    pub length: Option<u64>,

    /// MAC key given in hex (Skein-MAC)
    #[arg(long, value_name = "HEX", value_parser = HexParser, allow_hyphen_values = true, group = "key")]
    pub key_hex: Option<HexBytes>,

    /// MAC key read from the bytes of a file (Skein-MAC)
    #[arg(long, value_name = "PATH", group = "key")]
    pub key_file: Option<PathBuf>,

    /// Personalization string, taken as its bytes
    #[arg(long, value_name = "TEXT", group = "personal")]
    pub personalization: Option<OsString>,

    /// Personalization string given in hex
    #[arg(long, value_name = "HEX", value_parser = HexParser, allow_hyphen_values = true, group = "personal")]
    pub personalization_hex: Option<HexBytes>,

    /// Public key given in hex (hashing for signatures)
    #[arg(long, value_name = "HEX", value_parser = HexParser, allow_hyphen_values = true)]
    pub public_key_hex: Option<HexBytes>,

    /// Key identifier given in hex (key derivation, used with a key)
    #[arg(long, value_name = "HEX", value_parser = HexParser, allow_hyphen_values = true)]
    pub key_id_hex: Option<HexBytes>,

    /// Nonce given in hex
    #[arg(long, value_name = "HEX", value_parser = HexParser, allow_hyphen_values = true)]
    pub nonce_hex: Option<HexBytes>,

    /// Tree hashing with leaf 2^Yl blocks, fan-out 2^Yf, at most Ym levels (e.g. 10,1,255)
    #[arg(long, value_name = "LEAF,FAN,HEIGHT", value_parser = parse_tree)]
    pub tree: Option<TreeParams>,

    /// Threads for tree hashing and for many FILEs at once (1: one file after another), at most 256 [default: all cores, at most 256]
    #[arg(short = 'j', long, value_name = "N", value_parser = parse_threads)]
    pub threads: Option<u64>,

    /// Force a block-function backend by name (--list-backends: those usable here; exit 2 if this CPU or build lacks it)
    #[arg(long, value_name = "NAME", value_parser = parse_backend)]
    pub backend: Option<Backend>,

    /// Print the backends usable here, the automatic choice first, and exit
    #[arg(long, exclusive = true)]
    pub list_backends: bool,

    /// Check every usable backend against built-in test vectors and exit (1 on a mismatch)
    #[arg(long, exclusive = true)]
    pub self_test: bool,

    /// Print BSD-style lines: Skein-512-256 (FILE) = HEX
    #[arg(long, conflicts_with = "check")]
    pub tag: bool,

    /// Hash every regular file below each FILE that is a directory, in path order
    #[arg(short, long, requires = "files", conflicts_with = "check")]
    pub recursive: bool,

    /// With --recursive: follow symbolic links below the directories too
    #[arg(short = 'L', long, requires = "recursive")]
    pub dereference: bool,

    /// Write the digest's bytes to stdout, without hex, name or newline (one input only)
    #[arg(long, conflicts_with_all = ["check", "tag", "recursive", "zero"])]
    pub raw: bool,

    /// End each output line with NUL instead of newline, and do not escape file names (not with --check)
    #[arg(short, long)]
    pub zero: bool,

    /// Read files with buffered I/O instead of memory-mapping large ones
    #[arg(long)]
    pub no_mmap: bool,

    /// Show a progress bar on stderr for large inputs (only when stderr is a terminal)
    #[arg(long)]
    pub progress: bool,

    /// Read checksums from the FILEs and verify them
    #[arg(short, long)]
    pub check: bool,

    /// With --check: do not print OK for each verified file
    #[arg(long, overrides_with_all = ["status", "warn"])]
    pub quiet: bool,

    /// With --check: print nothing on stdout; the exit status tells the result
    #[arg(long, overrides_with_all = ["quiet", "warn"])]
    pub status: bool,

    /// With --check: exit 1 if a checksum line is improperly formatted
    #[arg(long)]
    pub strict: bool,

    /// With --check: warn about each improperly formatted checksum line
    #[arg(short, long, overrides_with_all = ["quiet", "status"])]
    pub warn: bool,

    /// With --check: do not fail or report on files that are missing
    #[arg(long)]
    pub ignore_missing: bool,

    /// With --tree: hash only the K-th of N ranges of each FILE and print its subtree values as a part line, for --merge
    #[arg(long, value_name = "K/N", value_parser = parse_part, requires = "tree",
          conflicts_with_all = ["check", "merge", "recursive", "raw", "tag", "zero"])]
    pub part: Option<Part>,

    /// With --tree: read the part lines of --part from the FILEs and print each file's checksum line
    #[arg(long, requires = "tree", conflicts_with_all = ["check", "recursive", "raw"])]
    pub merge: bool,
}

/// `--part K/N`: the K-th (from 1) of N ranges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    pub k: u64,
    pub n: u64,
}

/// The most parts `--part` splits into. `ObjectTree::split` lists every
/// range to give one, so N bounds that list; far more hosts than any
/// cluster has.
pub const MAX_PARTS: u64 = 1 << 16;

/// `--part K/N` with 1 <= K <= N <= [`MAX_PARTS`], as `split -n K/N`.
fn parse_part(text: &str) -> Result<Part, String> {
    let usage = format!("expected K/N with 1 <= K <= N <= {MAX_PARTS} (e.g. 2/3)");
    let (k, n) = text.split_once('/').ok_or_else(|| usage.clone())?;
    let number = |s: &str| {
        s.parse::<u64>()
            .ok()
            .filter(|_| s.bytes().all(|c| c.is_ascii_digit()))
    };
    match (number(k), number(n)) {
        (Some(k), Some(n)) if 1 <= k && k <= n && n <= MAX_PARTS => Ok(Part { k, n }),
        _ => Err(usage),
    }
}

/// Bytes given in hex on the command line (a MAC key among them): wiped when
/// dropped, and never shown by `Debug`.
#[derive(Clone, PartialEq, Eq)]
pub struct HexBytes(pub Zeroizing<Vec<u8>>);

impl std::fmt::Debug for HexBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HexBytes({} bytes)", self.0.len())
    }
}

/// Parses hex (either case) into [`HexBytes`]. Its errors name the option and
/// the problem but never repeat the value: it may be a key.
#[derive(Clone, Copy)]
struct HexParser;

impl TypedValueParser for HexParser {
    type Value = HexBytes;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<HexBytes, clap::Error> {
        let option = arg
            .and_then(|a| a.get_long())
            .map_or_else(|| "hex value".to_string(), |l| format!("--{l}"));
        let problem = |what: String| {
            clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!("{option}: {what}\n"),
            )
        };
        let text = value.as_encoded_bytes();
        // Taken as a value only so that clap does not read it as short
        // options and name the first of them, a character of the key.
        if text.starts_with(b"-") {
            return Err(problem(format!(
                "a value starting with '-' needs {option}=VALUE"
            )));
        }
        if let Some(at) = text.iter().position(|c| !c.is_ascii_hexdigit()) {
            return Err(problem(format!("invalid hex digit at position {}", at + 1)));
        }
        if text.len() % 2 == 1 {
            return Err(problem(format!(
                "odd number of hex digits ({})",
                text.len()
            )));
        }
        let bytes = hex::decode(text).expect("checked: even count of hex digits");
        Ok(HexBytes(Zeroizing::new(bytes)))
    }
}

/// A whole number from 1 to `max`.
fn parse_bounded(text: &str, max: u64, unit: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) if n > max => Err(format!("at most {max}{unit}")),
        Ok(n) => Ok(n),
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => {
            Err(format!("at most {max}{unit}"))
        }
        Err(_) => Err("not a whole number".to_string()),
    }
}

/// `-l`: 1 ..= [`MAX_OUTPUT_BITS`].
pub fn parse_length(text: &str) -> Result<u64, String> {
    parse_bounded(text, MAX_OUTPUT_BITS, " bits")
}

/// `-j`: 1 ..= [`MAX_THREADS`].
fn parse_threads(text: &str) -> Result<u64, String> {
    parse_bounded(text, MAX_THREADS, " threads")
}

/// `--backend`: a name of `Backend::ALL`, checked here rather than given
/// to clap as possible values, so that the generated man page and
/// completions do not copy the list of backends (docs/backends.md has it).
fn parse_backend(text: &str) -> Result<Backend, String> {
    Backend::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = Backend::ALL.iter().map(|b| b.name()).collect();
        format!("unknown backend; one of {}", names.join(", "))
    })
}

fn parse_tree(text: &str) -> Result<TreeParams, String> {
    const USAGE: &str =
        "expected LEAF,FAN,HEIGHT with LEAF >= 1, FAN >= 1, 2 <= HEIGHT <= 255 (e.g. 10,1,255)";
    let fields: Vec<&str> = text.split(',').map(str::trim).collect();
    let [leaf, fan, height] = fields[..] else {
        return Err(USAGE.to_string());
    };
    let number = |s: &str| {
        s.parse::<u8>()
            .map_err(|_| format!("`{s}` is not a number from 0 to 255; {USAGE}"))
    };
    TreeParams::new(number(leaf)?, number(fan)?, number(height)?).map_err(|_| USAGE.to_string())
}

impl Args {
    /// The one thing this run does.
    pub fn action(&self) -> Action {
        if self.list_backends {
            Action::ListBackends
        } else if self.self_test {
            Action::SelfTest
        } else if self.check {
            Action::Check
        } else {
            Action::Hash
        }
    }

    /// Usage errors that clap cannot express.
    ///
    /// The options of `--check` are refused without it, naming the first
    /// one given in GNU sha256sum's order and in its words (and naming
    /// `--check`, which GNU's words leave out). Not left to
    /// clap's `requires`: clap drops that requirement when an option that
    /// conflicts with `--check` (`--raw`, `--tag`, `-r`) is present, so
    /// `--tag --status f` would hash.
    ///
    /// `--raw` prints one digest, so it takes at most one FILE.
    pub fn check_usage(&self) -> Result<(), String> {
        if !self.check {
            let check_only = [
                (self.ignore_missing, "--ignore-missing"),
                (self.status, "--status"),
                (self.warn, "--warn"),
                (self.quiet, "--quiet"),
                (self.strict, "--strict"),
            ];
            if let Some((_, option)) = check_only.iter().find(|(given, _)| *given) {
                return Err(format!(
                    "the {option} option is meaningful only when verifying checksums (--check)"
                ));
            }
        }
        // A list's lines end with newlines, as GNU reads them (coreutils
        // 9.1 refuses `-c -z` the same way).
        if self.check && self.zero {
            return Err("the --zero option is not supported when verifying checksums".to_string());
        }
        if self.raw && self.files.len() > 1 {
            return Err(format!(
                "--raw: writes the digest of one input, but {} FILEs were given",
                self.files.len()
            ));
        }
        Ok(())
    }

    /// `-j`, or every core (at most [`MAX_THREADS`]).
    pub fn thread_count(&self) -> usize {
        match self.threads {
            Some(n) => n as usize,
            None => std::thread::available_parallelism()
                .map_or(1, |n| n.get())
                .min(MAX_THREADS as usize),
        }
    }
}

/// What the command line asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Hash,
    Check,
    ListBackends,
    SelfTest,
}

/// `-z` wants NUL, else newline.
pub fn line_end(zero: bool) -> u8 {
    if zero {
        0
    } else {
        b'\n'
    }
}

// The longest output, in bytes, fits a 32-bit `usize` (and its hex too).
const _: () = assert!(2 * (MAX_OUTPUT_BITS / 8) <= u32::MAX as u64);

/// The man page and the shell completions, generated from [`Args`]: kept in
/// the repository (doc/, completions/) so that packagers need no build step,
/// and checked against this definition by the test below.
#[cfg(test)]
mod generated {
    use super::Args;
    use clap::CommandFactory;
    use clap_complete::Shell;
    use std::path::{Path, PathBuf};

    /// Each generated file: its path under the package and its contents.
    fn files() -> Vec<(PathBuf, Vec<u8>)> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut man = Vec::new();
        clap_mangen::Man::new(Args::command())
            .render(&mut man)
            .expect("rendering to memory cannot fail");
        let mut files = vec![(dir.join("doc/skeinsum.1"), man)];
        for (shell, name) in [
            (Shell::Bash, "skeinsum.bash"),
            (Shell::Zsh, "_skeinsum"),
            (Shell::Fish, "skeinsum.fish"),
        ] {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Args::command(), "skeinsum", &mut script);
            files.push((dir.join("completions").join(name), script));
        }
        files
    }

    /// The committed man page and completions are what the current options
    /// give. `SKEINSUM_REGENERATE=1 cargo test -p skeinsum --lib generated`
    /// rewrites them.
    #[test]
    fn man_page_and_completions_are_current() {
        let regenerate = std::env::var_os("SKEINSUM_REGENERATE").is_some_and(|v| v == "1");
        let mut stale = Vec::new();
        for (path, want) in files() {
            if regenerate {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &want).unwrap();
            } else if std::fs::read(&path).ok().as_deref() != Some(&want[..]) {
                stale.push(path.display().to_string());
            }
        }
        assert!(
            stale.is_empty(),
            "not what the clap definition gives (run SKEINSUM_REGENERATE=1 cargo test -p skeinsum --lib generated): {}",
            stale.join(", ")
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lengths around where a 32-bit `usize` of bytes ends (2^35 bits) and
    /// where `u64` ends: all refused, with the bound in the message.
    #[test]
    fn output_lengths_are_bounded() {
        let usize32_end_bits = (u64::from(u32::MAX) + 1) * 8;
        for bits in [
            u64::MAX,
            u64::MAX - 7,
            usize32_end_bits + 8,
            usize32_end_bits,
            usize32_end_bits - 8,
            (usize::MAX as u64).saturating_mul(8),
            MAX_OUTPUT_BITS + 1,
        ] {
            assert_eq!(
                parse_length(&bits.to_string()),
                Err("at most 134217728 bits".to_string()),
                "{bits}"
            );
        }
        assert_eq!(
            parse_length("18446744073709551616"),
            Err("at most 134217728 bits".to_string())
        );
        assert_eq!(parse_length("134217728"), Ok(MAX_OUTPUT_BITS));
        assert_eq!(parse_length("1"), Ok(1));
        assert!(parse_length("0").is_err());
        assert!(parse_length("-1").is_err());
    }

    #[test]
    fn thread_counts_are_bounded() {
        assert_eq!(parse_threads("256"), Ok(256));
        assert_eq!(parse_threads("257"), Err("at most 256 threads".to_string()));
        assert!(parse_threads("0").is_err());
    }

    /// Debug output of the parsed arguments never shows a key.
    #[test]
    fn hex_values_are_not_shown_by_debug() {
        let args = Args::try_parse_from(["skeinsum", "--key-hex", "c0ffee42", "f"]).unwrap();
        let shown = format!("{args:?}");
        assert!(!shown.to_lowercase().contains("c0ffee"), "{shown}");
        assert!(shown.contains("HexBytes(4 bytes)"), "{shown}");
    }
}
