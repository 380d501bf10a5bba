//! The command line: every option, its parser and its one-line help.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::Parser;
use skein_simd::{Backend, TreeParams};

/// Print or check Skein checksums.
///
/// With no FILE, or when FILE is -, read standard input. Output lines are
/// `HEX  FILE` (as sha256sum), or `Skein-512-256 (FILE) = HEX` with --tag;
/// --check reads both, and FreeBSD's `Skein512 (FILE) = HEX` lines too.
#[derive(Parser, Debug)]
#[command(name = "skeinsum", version, about, long_about, max_term_width = 100)]
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

    /// Output length in bits, any value >= 1 [default: the state size]
    #[arg(short, long, value_name = "BITS", value_parser = parse_positive)]
    pub length: Option<u64>,

    /// MAC key given in hex (Skein-MAC)
    #[arg(long, value_name = "HEX", value_parser = parse_hex, group = "key")]
    pub key_hex: Option<HexBytes>,

    /// MAC key read from the bytes of a file (Skein-MAC)
    #[arg(long, value_name = "PATH", group = "key")]
    pub key_file: Option<PathBuf>,

    /// Personalization string, taken as its bytes
    #[arg(long, value_name = "TEXT", group = "personal")]
    pub personalization: Option<OsString>,

    /// Personalization string given in hex
    #[arg(long, value_name = "HEX", value_parser = parse_hex, group = "personal")]
    pub personalization_hex: Option<HexBytes>,

    /// Public key given in hex (hashing for signatures)
    #[arg(long, value_name = "HEX", value_parser = parse_hex)]
    pub public_key_hex: Option<HexBytes>,

    /// Key identifier given in hex (key derivation, used with a key)
    #[arg(long, value_name = "HEX", value_parser = parse_hex)]
    pub key_id_hex: Option<HexBytes>,

    /// Nonce given in hex
    #[arg(long, value_name = "HEX", value_parser = parse_hex)]
    pub nonce_hex: Option<HexBytes>,

    /// Tree hashing with leaf 2^Yl blocks, fan-out 2^Yf, at most Ym levels (e.g. 10,1,255)
    #[arg(long, value_name = "LEAF,FAN,HEIGHT", value_parser = parse_tree)]
    pub tree: Option<TreeParams>,

    /// Threads for tree hashing [default: all cores]
    #[arg(short = 'j', long, value_name = "N", value_parser = parse_positive)]
    pub threads: Option<u64>,

    /// Force a block-function backend (exit 2 if this CPU or build lacks it)
    #[arg(long, value_name = "NAME",
          value_parser = PossibleValuesParser::new(Backend::ALL.map(Backend::name)).map(|s: String| Backend::from_name(&s).unwrap()))]
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

    /// End each output line with NUL instead of newline, and do not escape file names
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
    #[arg(long, requires = "check")]
    pub quiet: bool,

    /// With --check: print nothing on stdout; the exit status tells the result
    #[arg(long, requires = "check")]
    pub status: bool,

    /// With --check: exit 1 if a checksum line is improperly formatted
    #[arg(long, requires = "check")]
    pub strict: bool,

    /// With --check: warn about each improperly formatted checksum line
    #[arg(short, long, requires = "check")]
    pub warn: bool,

    /// With --check: do not fail or report on files that are missing
    #[arg(long, requires = "check")]
    pub ignore_missing: bool,
}

/// Bytes given in hex on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HexBytes(pub Vec<u8>);

/// Parse hex (either case) into bytes; the error names the problem, clap
/// names the option.
pub fn parse_hex(text: &str) -> Result<HexBytes, String> {
    decode_hex(text.as_bytes()).map(HexBytes).ok_or_else(|| {
        if text.len() % 2 == 1 {
            format!("odd number of hex digits ({})", text.len())
        } else {
            "not hexadecimal (expected digits 0-9 and a-f)".to_string()
        }
    })
}

/// Bytes of an even-length hex string, or `None`.
pub fn decode_hex(hex: &[u8]) -> Option<Vec<u8>> {
    if hex.len() % 2 == 1 {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    hex.chunks_exact(2)
        .map(|pair| Some(digit(pair[0])? << 4 | digit(pair[1])?))
        .collect()
}

/// A whole number >= 1.
fn parse_positive(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err("not a whole number".to_string()),
    }
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

    /// `-j`, or every core.
    pub fn thread_count(&self) -> usize {
        match self.threads {
            Some(n) => n as usize,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
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
