//! `--check`: verify the files listed in checksum files, reporting like GNU
//! coreutils.

use std::io::{self, BufRead};

use skein_simd::{DynSkein, StateSize};
use subtle::ConstantTimeEq;

use crate::batch::{Batch, Outcome, Request, WINDOW_FILES};
use crate::cli::MAX_OUTPUT_BITS;
use crate::config::{os_bytes, HashConfig};
use crate::files::InputError;
use crate::format::{parse_check_line, status_line, CheckLine};
use crate::input::{self, Reader};
use crate::quote::quote_name;
use crate::report::{io_reason, warn, Output, OutputClosed};

/// The `--check` options.
pub struct CheckOptions {
    pub quiet: bool,
    pub status: bool,
    pub strict: bool,
    pub warn: bool,
    pub ignore_missing: bool,
}

/// Check every list; true when everything verified.
pub fn run(
    config: &HashConfig,
    lists: &[std::ffi::OsString],
    options: &CheckOptions,
    reader: &mut Reader,
    mut batch: Option<&mut Batch<'_>>,
    out: &mut Output,
) -> Result<bool, OutputClosed> {
    let mut all_ok = true;
    for list in lists {
        all_ok &= check_list(
            config,
            &os_bytes(list),
            options,
            reader,
            batch.as_deref_mut(),
            out,
        )?;
    }
    Ok(all_ok)
}

/// Counts for one checksum list, reported as GNU does at its end.
#[derive(Default)]
struct Tally {
    well_formed: u64,
    malformed: u64,
    mismatched: u64,
    unreadable: u64,
    /// Entries whose digest matched: GNU's `matched_checksums`, which
    /// `--ignore-missing` needs one of (a FAILED entry is not verified).
    matched: u64,
}

/// The longest checksum line kept: the hex of the longest digest `-l`
/// allows, plus room for a long escaped name and the tag. A longer line
/// cannot be well formed; it is skipped (counted as malformed) without being
/// stored, so a list of any size is read in bounded memory.
const MAX_LINE: usize = 2 * (MAX_OUTPUT_BITS / 8) as usize + (64 << 10);

/// The next line of `input` without its terminator, into `line`; `Ok(None)`
/// at the end, `Ok(Some(false))` for a line longer than [`MAX_LINE`] (then
/// `line` is empty).
fn next_line(
    input: &mut impl BufRead,
    terminator: u8,
    line: &mut Vec<u8>,
) -> io::Result<Option<bool>> {
    line.clear();
    let (mut seen, mut fits) = (false, true);
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(seen.then_some(fits));
        }
        seen = true;
        let end = chunk.iter().position(|&c| c == terminator);
        let piece = &chunk[..end.unwrap_or(chunk.len())];
        if fits && line.len() + piece.len() <= MAX_LINE {
            line.extend_from_slice(piece);
        } else if fits {
            fits = false;
            line.clear();
        }
        let used = piece.len() + usize::from(end.is_some());
        input.consume(used);
        if end.is_some() {
            return Ok(Some(fits));
        }
    }
}

/// Entries waiting for a batch window hold at most this many bytes of names
/// and expected digests (and at most [`WINDOW_FILES`] entries).
const PENDING_BYTES: usize = 64 << 20;

fn check_list(
    config: &HashConfig,
    list: &[u8],
    options: &CheckOptions,
    reader: &mut Reader,
    mut batch: Option<&mut Batch<'_>>,
    out: &mut Output,
) -> Result<bool, OutputClosed> {
    let mut regular = false;
    let opened = if list == b"-" {
        regular = crate::files::open::stdin_is_file();
        crate::files::open::stdin_descriptor()
            .map(|s| Box::new(io::BufReader::with_capacity(1 << 16, s)) as Box<dyn BufRead>)
    } else {
        crate::files::open::open_named(list).map(|(f, meta)| {
            regular = meta.is_file();
            Box::new(io::BufReader::with_capacity(1 << 16, f)) as Box<dyn BufRead>
        })
    };
    let label = if list == b"-" {
        quote_name(b"standard input")
    } else {
        quote_name(list)
    };
    let mut text = match opened {
        Ok(text) => text,
        Err(e) => {
            warn(format_args!("{label}: {}", io_reason(&e)));
            return Ok(false);
        }
    };

    // A list that arrives through a pipe or terminal is answered line by
    // line as it comes; waiting for a window could wait forever.
    if !regular {
        batch = None;
    }
    let mut tally = Tally::default();
    let mut hashers = Prototypes::default();
    let mut raw = Vec::new();
    let mut number = 0u64;
    let mut pending: Vec<Item> = Vec::new();
    let mut pending_bytes = 0;
    let mut checker = Checker {
        config,
        options,
        reader,
        out,
        tally: &mut tally,
        hashers: &mut hashers,
    };
    loop {
        let fits = match next_line(&mut text, b'\n', &mut raw) {
            Ok(Some(fits)) => fits,
            Ok(None) => break,
            Err(e) => {
                checker.flush(batch.as_deref_mut(), &mut pending, &label)?;
                warn(format_args!("{label}: {}", io_reason(&e)));
                return Ok(false);
            }
        };
        number += 1;
        let line = raw.strip_suffix(b"\r").unwrap_or(&raw);
        if fits && (line.is_empty() || line.starts_with(b"#")) {
            continue;
        }
        let entry = fits
            .then(|| parse_check_line(line))
            .flatten()
            // A list read from standard input cannot name it again: GNU
            // takes such a line for a malformed one.
            .filter(|entry| !(list == b"-" && entry.name == b"-"))
            .and_then(|entry| algorithm_of(&entry, config).map(|algorithm| (entry, algorithm)));
        let item = match entry {
            Some((entry, (state, output_bits))) => {
                checker.tally.well_formed += 1;
                pending_bytes += entry.name.len() + entry.expected.len();
                Item::Entry(entry, state, output_bits)
            }
            None => {
                checker.tally.malformed += 1;
                Item::Malformed(number)
            }
        };
        if batch.is_none() {
            checker.item(&item, &label)?;
            if !regular {
                // Whoever feeds the list may wait for this answer.
                checker.out.flush()?;
            }
            continue;
        }
        // Malformed lines wait in their place too, so that their warnings
        // come out between the same results as on the sequential path.
        pending.push(item);
        if pending.len() >= WINDOW_FILES || pending_bytes >= PENDING_BYTES {
            checker.flush(batch.as_deref_mut(), &mut pending, &label)?;
            pending_bytes = 0;
        }
    }
    checker.flush(batch, &mut pending, &label)?;

    if tally.well_formed == 0 {
        warn(format_args!(
            "{label}: no properly formatted Skein checksum lines found"
        ));
        return Ok(false);
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
    if options.ignore_missing && tally.matched == 0 {
        if !options.status {
            warn(format_args!("{label}: no file was verified"));
        }
        return Ok(false);
    }
    Ok(tally.mismatched == 0 && tally.unreadable == 0 && !(options.strict && tally.malformed > 0))
}

/// The state size and output length a line is checked with: a tag line's
/// own; for a plain line `-a` and `-l`, and only if its digest has exactly
/// that length (anything else is some other algorithm's line, so malformed,
/// as in GNU; otherwise a two-digit line would pass one time in 256).
fn algorithm_of(entry: &CheckLine, config: &HashConfig) -> Option<(StateSize, u64)> {
    match entry.algorithm {
        Some(algorithm) => Some(algorithm),
        None => (entry.hex_digits as u64 == 2 * config.output_bits.div_ceil(8))
            .then_some((config.state, config.output_bits)),
    }
}

/// A line of the list, waiting in its place for a batch window.
enum Item {
    Entry(CheckLine, StateSize, u64),
    /// Malformed (its line number, for `-w`).
    Malformed(u64),
}

/// Whether a computed digest of `bits` bits equals the expected one, in
/// constant time and on the digest's bits only: the unused low bits of the
/// last byte (an odd `-l`) may be set or clear in the list.
fn matches_bits(digest: &[u8], expected: &[u8], bits: u64) -> bool {
    if digest.len() != expected.len() {
        return false;
    }
    let mut expected = expected.to_vec();
    skein_simd::mask_unused_bits(&mut expected, bits);
    let mut digest = digest.to_vec();
    skein_simd::mask_unused_bits(&mut digest, bits);
    bool::from(digest.ct_eq(&expected))
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

/// Checks entries one by one or in batch windows, reporting each in order.
struct Checker<'a> {
    config: &'a HashConfig,
    options: &'a CheckOptions,
    reader: &'a mut Reader,
    out: &'a mut Output,
    tally: &'a mut Tally,
    hashers: &'a mut Prototypes,
}

impl Checker<'_> {
    /// Check one entry on the sequential path.
    fn sequential(
        &mut self,
        entry: &CheckLine,
        state: StateSize,
        output_bits: u64,
    ) -> Result<(), OutputClosed> {
        let mut hasher = match self.hashers.get(self.config, state, output_bits) {
            Ok(h) => h,
            Err(e) => {
                // Cannot happen for well-formed lines (lengths are in range),
                // but a line we cannot hash is unreadable, not a crash.
                warn(format_args!("{}: {e}", quote_name(&entry.name)));
                self.tally.unreadable += 1;
                return Ok(());
            }
        };
        let verified = self
            .reader
            .hash(&entry.name, &mut hasher)
            .and_then(|()| input::finish(hasher, output_bits))
            .map(|digest| matches_bits(&digest, &entry.expected, output_bits));
        self.report(entry, verified)
    }

    /// One line of the list on the sequential path: check its entry, or
    /// warn about it (`-w`) if it is malformed.
    fn item(&mut self, item: &Item, label: &str) -> Result<(), OutputClosed> {
        match item {
            Item::Entry(entry, state, bits) => self.sequential(entry, *state, *bits),
            Item::Malformed(number) => {
                if self.options.warn {
                    warn(format_args!(
                        "{label}: {number}: improperly formatted Skein checksum line"
                    ));
                }
                Ok(())
            }
        }
    }

    /// Check every pending line, window by window, report each in the
    /// order of the list, and empty `pending`.
    fn flush(
        &mut self,
        mut batch: Option<&mut Batch<'_>>,
        pending: &mut Vec<Item>,
        label: &str,
    ) -> Result<(), OutputClosed> {
        let requests: Vec<Request<'_>> = pending
            .iter()
            .filter_map(|item| match item {
                Item::Entry(entry, state, output_bits) => Some(Request {
                    name: &entry.name,
                    state: *state,
                    output_bits: *output_bits,
                    origin: crate::files::Origin::Named,
                }),
                Item::Malformed(_) => None,
            })
            .collect();
        let mut requested = 0;
        let mut outcomes = std::collections::VecDeque::new();
        for item in pending.iter() {
            let (Item::Entry(entry, state, bits), Some(batch)) = (item, batch.as_deref_mut())
            else {
                self.item(item, label)?;
                continue;
            };
            if outcomes.is_empty() {
                let window = batch.hash_window(&requests[requested..]);
                requested += window.len();
                outcomes.extend(window);
            }
            match outcomes
                .pop_front()
                .expect("a window has one outcome per request")
            {
                Outcome::Digest(digest) => {
                    let same = matches_bits(&digest, &entry.expected, *bits);
                    self.report(entry, Ok(same))?;
                }
                Outcome::Failed(e) => self.report(entry, Err(e))?,
                Outcome::Sequential(opened) => {
                    self.reader.adopt(&entry.name, opened);
                    batch.suspend(|| self.sequential(entry, *state, *bits))?
                }
            }
        }
        pending.clear();
        Ok(())
    }

    /// Report one entry: verified (true = digest matched) or unreadable.
    fn report(
        &mut self,
        entry: &CheckLine,
        verified: Result<bool, InputError>,
    ) -> Result<(), OutputClosed> {
        let (options, out, tally) = (self.options, &mut *self.out, &mut *self.tally);
        match verified {
            Err(e) if options.ignore_missing && e.is_not_found() => {}
            Err(e) => {
                tally.unreadable += 1;
                warn(format_args!("{}: {}", quote_name(&entry.name), e.reason()));
                if !options.status {
                    out.line(&status_line(&entry.name, "FAILED open or read"))?;
                }
            }
            Ok(true) => {
                tally.matched += 1;
                if !options.status && !options.quiet {
                    out.line(&status_line(&entry.name, "OK"))?;
                }
            }
            Ok(false) => {
                tally.mismatched += 1;
                if !options.status {
                    out.line(&status_line(&entry.name, "FAILED"))?;
                }
            }
        }
        Ok(())
    }
}
