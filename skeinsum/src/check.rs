//! `--check`: verify the files listed in checksum files, reporting like GNU
//! coreutils.

use std::io::Read;

use skein_simd::{DynSkein, StateSize};

use crate::config::{os_bytes, HashConfig};
use crate::format::{parse_check_line, status_line, CheckLine};
use crate::input::Reader;
use crate::report::{display_name, io_reason, warn, Output};

/// The `--check` options.
pub struct CheckOptions {
    pub quiet: bool,
    pub status: bool,
    pub strict: bool,
    pub warn: bool,
    pub ignore_missing: bool,
    /// `-z`: list lines end with NUL instead of newline.
    pub zero: bool,
}

/// Check every list; true when everything verified.
pub fn run(
    config: &HashConfig,
    lists: &[std::ffi::OsString],
    options: &CheckOptions,
    reader: &mut Reader,
    out: &mut Output,
) -> bool {
    let mut all_ok = true;
    for list in lists {
        all_ok &= check_list(config, &os_bytes(list), options, reader, out);
    }
    all_ok
}

/// Counts for one checksum list, reported as GNU does at its end.
#[derive(Default)]
struct Tally {
    well_formed: u64,
    malformed: u64,
    mismatched: u64,
    unreadable: u64,
    verified: u64,
}

fn check_list(
    config: &HashConfig,
    list: &[u8],
    options: &CheckOptions,
    reader: &mut Reader,
    out: &mut Output,
) -> bool {
    let (label, text) = if list == b"-" {
        let mut text = Vec::new();
        let read = std::io::stdin().lock().read_to_end(&mut text);
        ("standard input".to_string(), read.map(|_| text))
    } else {
        (
            display_name(list),
            std::fs::read(crate::config::bytes_os(list)),
        )
    };
    let text = match text {
        Ok(text) => text,
        Err(e) => {
            warn(format_args!("{label}: {}", io_reason(&e)));
            return false;
        }
    };

    let mut tally = Tally::default();
    let mut hashers = Prototypes::default();
    let terminator = if options.zero { 0 } else { b'\n' };
    for (index, raw) in text.split(|&c| c == terminator).enumerate() {
        let line = raw.strip_suffix(b"\r").unwrap_or(raw);
        if line.is_empty() || line.starts_with(b"#") {
            continue;
        }
        let Some(entry) = parse_check_line(line) else {
            tally.malformed += 1;
            if options.warn {
                warn(format_args!(
                    "{label}: {}: improperly formatted Skein checksum line",
                    index + 1
                ));
            }
            continue;
        };
        tally.well_formed += 1;
        check_entry(
            config,
            &entry,
            options,
            reader,
            out,
            &mut tally,
            &mut hashers,
        );
    }

    if tally.well_formed == 0 {
        warn(format_args!(
            "{label}: no properly formatted Skein checksum lines found"
        ));
        return false;
    }
    if !options.status {
        if tally.malformed > 0 {
            warn(format_args!(
                "WARNING: {}",
                counted(
                    tally.malformed,
                    "line is",
                    "lines are",
                    "improperly formatted"
                )
            ));
        }
        if tally.unreadable > 0 {
            warn(format_args!(
                "WARNING: {}",
                counted(
                    tally.unreadable,
                    "listed file",
                    "listed files",
                    "could not be read"
                )
            ));
        }
        if tally.mismatched > 0 {
            warn(format_args!(
                "WARNING: {}",
                counted(
                    tally.mismatched,
                    "computed checksum",
                    "computed checksums",
                    "did NOT match"
                )
            ));
        }
    }
    if options.ignore_missing && tally.verified == 0 {
        warn(format_args!("{label}: no file was verified"));
        return false;
    }
    tally.mismatched == 0 && tally.unreadable == 0 && !(options.strict && tally.malformed > 0)
}

/// "1 line is X" / "3 lines are X".
fn counted(n: u64, one: &str, many: &str, what: &str) -> String {
    format!("{n} {} {what}", if n == 1 { one } else { many })
}

/// Hashers with the key and other arguments already absorbed, one per
/// (state size, output length) met, so each line costs only its file.
#[derive(Default)]
struct Prototypes(Vec<((StateSize, u64), DynSkein)>);

impl Prototypes {
    fn get(
        &mut self,
        config: &HashConfig,
        state: StateSize,
        output_bits: u64,
    ) -> Result<DynSkein, String> {
        if let Some((_, h)) = self.0.iter().find(|(k, _)| *k == (state, output_bits)) {
            return Ok(h.clone());
        }
        let h = config.hasher(state, output_bits)?;
        self.0.push(((state, output_bits), h.clone()));
        Ok(h)
    }
}

fn check_entry(
    config: &HashConfig,
    entry: &CheckLine,
    options: &CheckOptions,
    reader: &mut Reader,
    out: &mut Output,
    tally: &mut Tally,
    hashers: &mut Prototypes,
) {
    // Tag lines name their algorithm; plain lines use -a, and -l unless the
    // digest written is of another length (then its length is the output).
    let (state, output_bits) = entry.algorithm.unwrap_or_else(|| {
        let default_digits = 2 * config.output_bits.div_ceil(8) as usize;
        let bits = if entry.hex_digits == default_digits {
            config.output_bits
        } else {
            4 * entry.hex_digits as u64
        };
        (config.state, bits)
    });
    let mut hasher = match hashers.get(config, state, output_bits) {
        Ok(h) => h,
        Err(e) => {
            // Cannot happen for well-formed lines (lengths are >= 1), but a
            // line we cannot hash is unreadable, not a crash.
            warn(format_args!("{}: {e}", display_name(&entry.name)));
            tally.unreadable += 1;
            return;
        }
    };
    match reader.hash(&entry.name, &mut hasher) {
        Err(e) if options.ignore_missing && e.is_not_found() => {}
        Err(e) => {
            tally.unreadable += 1;
            warn(format_args!(
                "{}: {}",
                display_name(&entry.name),
                e.reason()
            ));
            if !options.status {
                out.line(&status_line(&entry.name, "FAILED open or read"));
            }
        }
        Ok(()) => {
            tally.verified += 1;
            if hasher.verify(&entry.expected) {
                if !options.status && !options.quiet {
                    out.line(&status_line(&entry.name, "OK"));
                }
            } else {
                tally.mismatched += 1;
                if !options.status {
                    out.line(&status_line(&entry.name, "FAILED"));
                }
            }
        }
    }
}
