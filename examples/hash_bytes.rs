//! Hash `nbytes` bytes once with a forced backend, for instruction counting
//! under QEMU (tools/bench/ppc-insn-table.sh):
//!
//!     hash_bytes <backend> <state-bits> <nbytes> [offset]
//!
//! `<backend>` is a backend name or `auto` (the detected choice, printed).
//! The input buffer is always at least 1 MiB and always filled, so the
//! difference between two runs is the hashing alone. `offset` (default 0)
//! shifts the input start, to measure unaligned input. Prints the digest.

use skein_simd::{Backend, DynSkein, Params, StateSize};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 || args.len() > 5 {
        eprintln!("usage: hash_bytes <backend> <state-bits> <nbytes> [offset]");
        return ExitCode::from(2);
    }
    let backend = if args[1] == "auto" {
        None
    } else if let Some(b) = Backend::from_name(&args[1]) {
        Some(b)
    } else {
        eprintln!("unknown backend {:?}", args[1]);
        return ExitCode::from(2);
    };
    let Some(state) = args[2].parse().ok().and_then(StateSize::from_bits) else {
        eprintln!("state bits must be 256, 512 or 1024");
        return ExitCode::from(2);
    };
    let Ok(nbytes) = args[3].parse::<usize>() else {
        eprintln!("bad byte count {:?}", args[3]);
        return ExitCode::from(2);
    };
    let offset = match args.get(4).map(|s| s.parse::<usize>()) {
        None => 0,
        Some(Ok(o)) => o,
        Some(Err(_)) => {
            eprintln!("bad offset {:?}", args[4]);
            return ExitCode::from(2);
        }
    };

    let len = (nbytes + offset).max(1 << 20);
    let data: Vec<u8> = (0..len)
        .map(|i| (i as u32).wrapping_mul(2_654_435_761).to_be_bytes()[0])
        .collect();

    let params = match backend {
        Some(b) => Params::new().backend(b),
        None => Params::new(),
    };
    let mut hasher = match DynSkein::new(state, &params) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("{e:?}");
            return ExitCode::FAILURE;
        }
    };
    let used = hasher.platform().backend();
    hasher.update(&data[offset..offset + nbytes]);
    let digest = hasher.finalize_vec();
    let hex = hex::encode(digest);
    println!("{} {} {nbytes} {hex}", used.name(), state.bits());
    ExitCode::SUCCESS
}
