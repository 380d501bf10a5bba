//! Hash `count` messages of `nbytes` bytes each, for instruction counting
//! under QEMU (tools/bench/lanes-insn-table.sh):
//!
//!     many_bytes <backend> <lanes|stream> <state-bits> <output-bits> <count> <nbytes>
//!
//! `lanes` hashes them all with one `hash_many` call on `<backend>`'s
//! multi-lane kernel; `stream` hashes them one after the other with a
//! `Skein` hasher on `<backend>`'s single-stream block function. `<backend>`
//! may be `auto` (the detected choice). One thread, so that the count is the
//! work. The input is always filled to at least 4 MiB, so the difference
//! between two runs is the hashing alone. Prints the backend, the lane count
//! and the first and last digests.

use skein_simd::{Backend, Params, Skein, SkeinMany};
use std::process::ExitCode;

fn run<const W: usize>(
    params: &Params,
    lanes: bool,
    messages: &[&[u8]],
) -> Result<(Backend, usize, Vec<Vec<u8>>), String> {
    if lanes {
        let many = SkeinMany::<W>::with_params(params).map_err(|e| e.to_string())?;
        Ok((many.backend(), many.lanes(), many.hash_many_vec(messages)))
    } else {
        let mut backend = Backend::Portable;
        let digests = messages
            .iter()
            .map(|m| {
                let mut h = Skein::<W>::with_params(params).map_err(|e| e.to_string())?;
                backend = h.platform().backend();
                h.update(m);
                Ok(h.finalize_vec())
            })
            .collect::<Result<_, String>>()?;
        Ok((backend, 1, digests))
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let usage =
        "usage: many_bytes <backend> <lanes|stream> <state-bits> <output-bits> <count> <nbytes>";
    if args.len() != 7 {
        eprintln!("{usage}");
        return ExitCode::from(2);
    }
    let backend = match args[1].as_str() {
        "auto" => None,
        name => match Backend::from_name(name) {
            Some(b) => Some(b),
            None => {
                eprintln!("unknown backend {name:?}");
                return ExitCode::from(2);
            }
        },
    };
    let lanes = match args[2].as_str() {
        "lanes" => true,
        "stream" => false,
        other => {
            eprintln!("mode must be lanes or stream, not {other:?}");
            return ExitCode::from(2);
        }
    };
    let numbers: Option<Vec<usize>> = args[3..].iter().map(|a| a.parse().ok()).collect();
    let Some(&[bits, output_bits, count, nbytes]) = numbers.as_deref() else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };

    let len = (count * nbytes).max(4 << 20);
    let data: Vec<u8> = (0..len)
        .map(|i| (i as u32).wrapping_mul(2_654_435_761).to_be_bytes()[0])
        .collect();
    let messages: Vec<&[u8]> = (0..count)
        .map(|i| &data[i * nbytes..(i + 1) * nbytes])
        .collect();
    let mut params = Params::new().output_bits(output_bits as u64);
    if let Some(b) = backend {
        params = params.backend(b);
    }
    let hash_all = || match bits {
        256 => run::<4>(&params, lanes, &messages),
        512 => run::<8>(&params, lanes, &messages),
        1024 => run::<16>(&params, lanes, &messages),
        _ => Err("state bits must be 256, 512 or 1024".into()),
    };
    // WebAssembly has no threads to pool: there it all runs on this one.
    #[cfg(not(target_family = "wasm"))]
    let result = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("one-thread pool")
        .install(hash_all);
    #[cfg(target_family = "wasm")]
    let result = hash_all();
    match result {
        Ok((used, lane_count, digests)) => {
            let (first, last) = match (digests.first(), digests.last()) {
                (Some(f), Some(l)) => (hex::encode(f), hex::encode(l)),
                _ => (String::new(), String::new()),
            };
            println!(
                "{} x{lane_count} {bits} {count}x{nbytes} {first} {last}",
                used.name()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("many_bytes: {e}");
            ExitCode::FAILURE
        }
    }
}
