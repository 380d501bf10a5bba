//! The library on bytes already in memory, the peer of skeinsum's whole
//! process in docs/skeinsum.md: the same arguments skeinsum gets, the files
//! read before the clock starts.
//!
//! usage: in-memory RUNS one FILE          Skein-512-256, one stream
//!        in-memory RUNS tree FILE         Skein-512-512 tree 10,1,255, 2 threads
//!        in-memory RUNS many FILE...      Skein-512-256 SkeinMany, 2 threads
//!
//! Prints `min median` in milliseconds over RUNS timed runs (after one
//! untimed run), and the digest of the last run's first message.

use std::time::Instant;

use skein_simd::{Params, Skein512, SkeinMany512, TreeParams};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: usize = args[0].parse().expect("RUNS");
    let files = &args[2..];
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let datas: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    let work: Box<dyn Fn() -> Vec<u8> + Sync> = match args[1].as_str() {
        "one" => Box::new(|| Skein512::hash_vec(256, &datas[0])),
        "tree" => {
            let params = Params::new().tree(TreeParams::new(10, 1, 255).unwrap());
            Box::new(move || {
                let mut h = Skein512::with_params(&params).unwrap();
                h.update(&datas[0]);
                h.finalize_vec()
            })
        }
        "many" => {
            let many = SkeinMany512::with_params(&Params::new().output_bits(256)).unwrap();
            Box::new(move || {
                let mut out = vec![0u8; datas.len() * 32];
                many.hash_many_into(&datas, &mut out);
                out.truncate(32);
                out
            })
        }
        other => panic!("unknown case {other}"),
    };
    let mut times = Vec::new();
    let mut digest = Vec::new();
    for run in 0..=runs {
        let t = Instant::now();
        digest = pool.install(&work);
        if run > 0 {
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
    }
    times.sort_by(f64::total_cmp);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    println!("{:.1} {:.1} {hex}", times[0], times[times.len() / 2]);
}
