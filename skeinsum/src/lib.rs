//! `skeinsum`: print or check Skein checksums, in the manner of sha256sum,
//! b3sum and FreeBSD's skein512.
//!
//! Exit status: 0 when all went well, 1 when a file could not be read, a
//! check failed or standard output could not be written, 2 on a usage error
//! (then nothing is hashed).
//!
//! The binary is `src/main.rs`, which calls [`run`]: that is the whole
//! public API of this library. The fuzz targets reach the pure parts
//! through `not_api` (hidden, no stability promise): `parse_check_line`
//! (one line of a checksum list, GNU, BSD tag or FreeBSD style),
//! `result_line` (the line `skeinsum` prints for a digest),
//! `escape_name` / `unescape_name` (GNU's backslash escaping of names in
//! those lines) and `quote_name` (GNU's shell-escape quoting of names in
//! messages on stderr).

mod batch;
mod check;
mod cli;
mod config;
mod files;
mod format;
mod input;
mod parts;
mod quote;
mod readahead;
mod report;
mod selftest;
mod testing;
mod walk;

/// Not API, hidden and without a stability promise: the pure parts the fuzz
/// targets call, and the start-up probe of `main.rs` (which runs before
/// Rust's runtime, so it cannot live in [`run`]).
#[doc(hidden)]
pub mod not_api {
    pub use crate::format::{escape_name, parse_check_line, result_line, unescape_name, CheckLine};
    pub use crate::quote::quote_name;
    pub use crate::report::mark_closed_at_start;
}

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{line_end, Action, Args};
use crate::config::{os_bytes, tag_name, HashConfig};
use crate::input::Reader;
use crate::quote::quote_name;
use crate::report::{warn, Output, OutputClosed};

/// The whole tool: parse the command line, do what it asks, return the exit
/// status. Everything it owns (the key first) is dropped, and so wiped,
/// before the status reaches the caller.
pub fn run() -> ExitCode {
    let mut args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) => return usage_error(e),
    };
    let mut out = Output::new();
    let result = match args.action() {
        Action::ListBackends => selftest::list_backends(&mut out).map(|()| true),
        Action::SelfTest => selftest::run(&mut out),
        Action::Hash | Action::Check => {
            readahead::take_stack_room();
            if let Err(message) = args.check_usage().and_then(|()| parts::check_usage(&args)) {
                warn(message);
                return ExitCode::from(2);
            }
            let config = match HashConfig::from_args(&mut args) {
                Ok(config) => config,
                Err(message) => {
                    warn(message);
                    return ExitCode::from(2);
                }
            };
            match with_threads(&args, || run_files(&args, &config, &mut out)) {
                Ok(result) => result,
                Err(message) => {
                    warn(message);
                    return ExitCode::from(2);
                }
            }
        }
    };
    match result.and_then(|ok| out.flush().map(|()| ok)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) | Err(OutputClosed) => ExitCode::FAILURE,
    }
}

/// Help and version go to stdout with status 0 (1 if they cannot be
/// written); any other command-line error is one line on stderr with
/// status 2.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let mut out = Output::new();
        let printed = match out.check_open() {
            Ok(()) => e.print().map_err(|e| out.failed(e)),
            Err(closed) => Err(closed),
        };
        return match printed.and_then(|()| out.flush()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(OutputClosed) => ExitCode::FAILURE,
        };
    }
    // clap's message is its first paragraph (with possible values or the
    // missing option on indented lines); the usage and tip after it go.
    let text = e.to_string();
    let message: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.is_empty())
        .collect();
    let message = message.join(" ");
    warn(format_args!(
        "{} (see --help)",
        message.strip_prefix("error: ").unwrap_or(&message)
    ));
    ExitCode::from(2)
}

/// Whether plain hashing gathers its files into batches (`crate::batch`):
/// not with `-j 1` (today's one-after-another path), nor in tree mode (one
/// tree is already parallel), nor for a single FILE (unless `-r` walks it).
fn batching(args: &Args) -> bool {
    args.tree.is_none()
        && args.thread_count() > 1
        && (args.check || args.recursive || args.files.len() > 1)
}

/// Run `work` inside a pool of `-j` threads when tree hashing or batching
/// is on.
///
/// The library's parallel paths (trees, `SkeinMany`) run on the current
/// rayon pool, so installing the pool here is all `-j` needs. Plain hashing
/// of one file is sequential by nature and spawns none.
///
/// When the system gives no thread (`EAGAIN` under a limit on processes or
/// threads, a pids cgroup) or too little memory is left for them (a limit
/// on the address space: a thread that starts but cannot allocate aborts
/// the run), the pool is this thread alone and the work is done as with
/// `-j 1`'s one thread, as the read-ahead and prefault threads fall back;
/// the output is the same.
fn with_threads<T: Send>(args: &Args, work: impl FnOnce() -> T + Send) -> Result<T, String> {
    if args.tree.is_none() && !batching(args) {
        return Ok(work());
    }
    let threads = args.thread_count();
    let started = readahead::room_for_threads(threads)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("skeinsum-{i}"))
                .build()
                .ok()
        })
        .flatten();
    let pool = match started {
        Some(pool) => pool,
        // This thread as the pool's only one: nothing is started. Not
        // without a pool, as the parallel paths would start rayon's global
        // one (a thread per core) and fail the same way.
        None => rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .use_current_thread()
            .build()
            .map_err(|e| format!("no thread pool: {e}"))?,
    };
    Ok(pool.install(work))
}

/// Hash or check every FILE; true if all went well.
fn run_files(args: &Args, config: &HashConfig, out: &mut Output) -> Result<bool, OutputClosed> {
    let stdin_only = [std::ffi::OsString::from("-")];
    let files = if args.files.is_empty() {
        &stdin_only[..]
    } else {
        &args.files[..]
    };
    if let Some(part) = args.part {
        return parts::run_part(args, config, part, out);
    }
    if args.merge {
        return parts::run_merge(args, config, out);
    }
    let mut reader = Reader::new(!args.no_mmap, args.progress);
    let mut batcher =
        batching(args).then(|| batch::Batch::new(config, !args.no_mmap, args.progress));
    if args.check {
        let options = check::CheckOptions {
            quiet: args.quiet,
            status: args.status,
            strict: args.strict,
            warn: args.warn,
            ignore_missing: args.ignore_missing,
        };
        return check::run(config, files, &options, &mut reader, batcher.as_mut(), out);
    }

    let prototype = match config.hasher(config.state, config.output_bits) {
        Ok(h) => h,
        Err(e) => {
            warn(e);
            return Ok(false);
        }
    };
    let tag = args.tag.then(|| tag_name(config.state, config.output_bits));
    let end = line_end(args.zero);
    // The operands' own bytes (on Unix), not copies.
    let operands: Vec<std::borrow::Cow<[u8]>> = if args.recursive {
        Vec::new()
    } else {
        files.iter().map(|f| os_bytes(f)).collect()
    };
    let names: Vec<&[u8]> = operands.iter().map(|name| &**name).collect();
    let mut ok = true;
    let mut report = |name: &[u8], digest: Result<&[u8], &files::InputError>| {
        match digest {
            Ok(digest) if args.raw => out.line(digest)?,
            Ok(digest) => out.line_with(|line| {
                format::push_result_line(line, digest, name, tag.as_deref(), end)
            })?,
            Err(e) => {
                warn(format_args!("{}: {}", quote_name(name), e.reason()));
                ok = false;
            }
        }
        Ok(())
    };
    let sequential = |reader: &mut Reader, name: &[u8], origin| {
        // A clone carries the key and other arguments already absorbed.
        let mut hasher = prototype.clone();
        reader
            .hash_from(name, origin, &mut hasher)
            .and_then(|()| input::finish(hasher, config.output_bits))
    };
    let mut hash_names = |names: &[&[u8]], origin| -> Result<(), OutputClosed> {
        match &mut batcher {
            None => {
                for name in names {
                    report(name, sequential(&mut reader, name, origin).as_deref())?;
                }
            }
            Some(batcher) => {
                let requests: Vec<batch::Request> = names
                    .iter()
                    .map(|name| batch::Request {
                        name,
                        state: config.state,
                        output_bits: config.output_bits,
                        origin,
                    })
                    .collect();
                let mut rest = &requests[..];
                // A window hashed, its lines not yet written.
                let mut hashed: Option<(&[batch::Request], Vec<batch::Outcome>)> = None;
                loop {
                    let hashed_only = hashed.as_ref().is_none_or(|(_, outcomes)| {
                        !outcomes
                            .iter()
                            .any(|o| matches!(o, batch::Outcome::Sequential(_)))
                    });
                    if hashed_only && !rest.is_empty() {
                        // The lines of one window are written while the
                        // next is hashed, so that no thread waits for them.
                        // (A window with files for the sequential path is
                        // reported alone: that path uses the reader and the
                        // batch's progress bar.)
                        let (outcomes, written) = rayon::join(
                            || batcher.hash_window(rest),
                            || -> Result<(), OutputClosed> {
                                let Some((window, outcomes)) = hashed.take() else {
                                    return Ok(());
                                };
                                for (request, outcome) in window.iter().zip(outcomes) {
                                    let digest = match outcome {
                                        batch::Outcome::Digest(digest) => Ok(digest),
                                        batch::Outcome::Failed(e) => Err(e),
                                        batch::Outcome::Sequential(_) => {
                                            unreachable!("reported alone")
                                        }
                                    };
                                    report(request.name, digest.as_deref())?;
                                }
                                // Out now, not after the next window.
                                crate::report::write_pending();
                                Ok(())
                            },
                        );
                        written?;
                        let (window, later) = rest.split_at(outcomes.len());
                        hashed = Some((window, outcomes));
                        rest = later;
                        continue;
                    }
                    let Some((window, outcomes)) = hashed.take() else {
                        break;
                    };
                    for (request, outcome) in window.iter().zip(outcomes) {
                        match outcome {
                            batch::Outcome::Digest(digest) => report(request.name, Ok(&digest))?,
                            batch::Outcome::Failed(e) => report(request.name, Err(&e))?,
                            batch::Outcome::Sequential(opened) => {
                                reader.adopt(request.name, opened);
                                let digest = batcher
                                    .suspend(|| sequential(&mut reader, request.name, origin));
                                report(request.name, digest.as_deref())?
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    };
    let walked = if args.recursive {
        let parallel = args.thread_count() > 1;
        walk::hash_below(files, args.dereference, parallel, |names, origin| {
            let names: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
            hash_names(&names, origin)
        })?
    } else {
        hash_names(&names, files::Origin::Named)?;
        true
    };
    Ok(ok && walked)
}
