//! A loop of one-shot hashes for `valgrind --tool=callgrind`, which counts
//! instructions (the count does not move with machine load):
//!
//!     oneshot-loop IMPL STATE OUTPUT_BITS LEN COUNT
//!
//! IMPL is `ours` (skein-simd's public API: `new`, `update`, `finalize_into`),
//! `ours-digest` (the one-shot `digest_into`), `ours-template` (a keyed
//! template cloned per hash, the ZFS pattern) or `c`
//! (skein-ffi's `skein_hash`). Instructions per hash = (total of a run with
//! COUNT = N) - (total with COUNT = 0), over N; see tools/bench/callgrind-oneshot.sh.

use skein_simd::{Params, Skein};
use std::hint::black_box;

extern "C" {
    fn skein_hash(hashbitlen: i32, data: *const u8, databitlen: usize, hashval: *mut u8) -> i32;
}

fn run<const W: usize>(imp: &str, output_bits: u64, data: &[u8], count: usize) -> u8 {
    let mut out = vec![0u8; output_bits.div_ceil(8) as usize];
    let mut acc = 0u8;
    let salt = [7u8; 32];
    let template =
        Skein::<W>::with_params(&Params::new().output_bits(output_bits).key(&salt)).unwrap();
    for _ in 0..count {
        match imp {
            "ours" => {
                let mut h = Skein::<W>::new(output_bits);
                h.update(black_box(data));
                h.finalize_into(&mut out);
            }
            "ours-digest" => Skein::<W>::hash_into(output_bits, black_box(data), &mut out),
            "ours-template" => {
                let mut h = template.clone();
                h.update(black_box(data));
                h.finalize_into(&mut out);
            }
            // SAFETY: `data` is readable for its length in bits, `out` holds
            // the output bytes.
            "c" => unsafe {
                skein_hash(
                    output_bits as i32,
                    data.as_ptr(),
                    data.len() * 8,
                    out.as_mut_ptr(),
                );
            },
            _ => panic!("IMPL is ours, ours-digest, ours-template or c"),
        }
        acc ^= black_box(&out)[0];
    }
    acc
}

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    assert_eq!(
        a.len(),
        5,
        "usage: oneshot-loop IMPL STATE OUTPUT_BITS LEN COUNT"
    );
    let (state, bits, len, count): (u64, u64, usize, usize) = (
        a[1].parse().unwrap(),
        a[2].parse().unwrap(),
        a[3].parse().unwrap(),
        a[4].parse().unwrap(),
    );
    let data: Vec<u8> = (0..len).map(|i| (i * 131 + 7) as u8).collect();
    let r = match state {
        256 => run::<4>(&a[0], bits, &data, count),
        512 => run::<8>(&a[0], bits, &data, count),
        1024 => run::<16>(&a[0], bits, &data, count),
        _ => panic!("STATE is 256, 512 or 1024"),
    };
    println!("{r}");
}
