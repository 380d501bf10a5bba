//! `skeinsum`: print or check Skein checksums, in the manner of sha256sum,
//! b3sum and FreeBSD's skein512.
//!
//! Exit status: 0 when all went well, 1 when a file could not be read or a
//! check failed, 2 on a usage error (then nothing is hashed).

mod check;
mod cli;
mod config;
mod format;
mod input;
mod mapped;
mod report;
mod selftest;
mod testing;

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{line_end, Action, Args};
use crate::config::{os_bytes, tag_name, HashConfig};
use crate::input::Reader;
use crate::report::{display_name, warn, Output};

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) => return usage_error(e),
    };
    let mut out = Output::new();
    let ok = match args.action() {
        Action::ListBackends => {
            selftest::list_backends(&mut out);
            true
        }
        Action::SelfTest => selftest::run(&mut out),
        Action::Hash | Action::Check => {
            let config = match HashConfig::from_args(&args) {
                Ok(config) => config,
                Err(message) => {
                    warn(message);
                    return ExitCode::from(2);
                }
            };
            match with_threads(&args, &config, || run(&args, &config, &mut out)) {
                Ok(ok) => ok,
                Err(message) => {
                    warn(message);
                    return ExitCode::from(2);
                }
            }
        }
    };
    out.flush();
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Help and version go to stdout with status 0; any other command-line
/// error is one line on stderr with status 2.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return ExitCode::SUCCESS;
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

/// Run `work` inside a pool of `-j` threads when tree hashing is on.
///
/// The library's parallel tree path runs on the current rayon pool, so
/// installing the pool here is all `-j` needs. Plain hashing is sequential by
/// nature and spawns none.
fn with_threads<T: Send>(
    args: &Args,
    config: &HashConfig,
    work: impl FnOnce() -> T + Send,
) -> Result<T, String> {
    if !config.is_tree() {
        return Ok(work());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.thread_count())
        .thread_name(|i| format!("skeinsum-{i}"))
        .build()
        .map_err(|e| format!("--threads {}: {e}", args.thread_count()))?;
    Ok(pool.install(work))
}

/// Hash or check every FILE; true if all went well.
fn run(args: &Args, config: &HashConfig, out: &mut Output) -> bool {
    let stdin_only = [std::ffi::OsString::from("-")];
    let files = if args.files.is_empty() {
        &stdin_only[..]
    } else {
        &args.files[..]
    };
    let mut reader = Reader::new(!args.no_mmap, args.progress);
    if args.check {
        let options = check::CheckOptions {
            quiet: args.quiet,
            status: args.status,
            strict: args.strict,
            warn: args.warn,
            ignore_missing: args.ignore_missing,
            zero: args.zero,
        };
        return check::run(config, files, &options, &mut reader, out);
    }

    let prototype = match config.hasher(config.state, config.output_bits) {
        Ok(h) => h,
        Err(e) => {
            warn(e);
            return false;
        }
    };
    let tag = args.tag.then(|| tag_name(config.state, config.output_bits));
    let end = line_end(args.zero);
    let mut ok = true;
    for file in files {
        let name = os_bytes(file);
        // A clone carries the key and other arguments already absorbed.
        let mut hasher = prototype.clone();
        match reader.hash(&name, &mut hasher) {
            Ok(()) => {
                let digest = format::hex(&hasher.finalize_vec());
                out.line(&format::result_line(&digest, &name, tag.as_deref(), end));
            }
            Err(e) => {
                warn(format_args!("{}: {}", display_name(&name), e.reason()));
                ok = false;
            }
        }
    }
    ok
}
