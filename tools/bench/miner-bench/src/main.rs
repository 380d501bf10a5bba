//! skein-simd's many-message Skein-512-512 against cpuminer-opt's multi-lane
//! Skein-512 (the 4-way AVX2 `skein512_4x64_*` and the 8-way AVX-512
//! `skein512_8x64_*` that CPU miners run), in one process on the same
//! batches, one thread on both sides:
//!
//!     CPUMINER_OPT_DIR=/path/to/cpuminer-opt \
//!       cargo run --release --manifest-path tools/bench/miner-bench/Cargo.toml
//!
//! Cases: whole messages (64 B to 256 KiB; ours `SkeinMany512::hash_many_into`,
//! the peer `*_full`), and 80-byte headers that share their first 64 bytes
//! (ours `SkeinMany512::continuing` a hasher that absorbed
//! them, the peer `prehash64` once per batch + `final16`). Every timed call
//! hashes one batch of `--batch` separate messages (default 64) end to end:
//! the peer interleaves them with its own `intrlv_*x64` and de-interleaves
//! the digests with `dintrlv_*x64` (src/peer_shim.c), ours marshals them
//! inside the library. Before anything is timed, every digest of every side
//! must equal our single-stream `Skein512` (which the golden KAT file
//! covers), else the run aborts.
//!
//! Ours runs with the lane kernel the library picks, and with the AVX2 one
//! forced (`Params::backend(Backend::Avx2)`) beside the peer's 4-way. The
//! whole run is inside a one-thread rayon pool (the crate is built with its
//! default features, rayon included).
//!
//! Output: a Markdown table, per case and implementation, of the best of
//! `--rounds` interleaved rounds: nanoseconds a message, MB/s of message,
//! cycles a byte (clock from `bench-clock`), and for our rows the speed
//! against each peer (peer time / our time; above 1 ours is faster).
//!
//! Options: `--quick`, `--rounds N`, `--ms N` (milliseconds a measurement),
//! `--batch N` (a multiple of 8), `--sizes 64,80,...`, `--no-headers`,
//! `--forms` (also every form of the AVX2 and AVX-512 kernels, forced).
//!
//! `count IMPL CASE BATCHES` (IMPL: ours-auto, ours-avx2, ours-avx2x4,
//! ours-avx2x8, ours-avx2x4+1, peer4, peer8; CASE: a message size or `header`) checks and
//! then hashes BATCHES batches of 64 with no timing, for instruction counts
//! under callgrind (tools/bench/miner-insn-count.sh).

use skein_simd::{Backend, LaneForm, Params, Platform, Skein512, SkeinMany512};
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

/// The entry points of src/peer_shim.c, one set per width (its `SHIM` names).
macro_rules! peer_shim {
    ($($vbuf_len:ident, $full_batch:ident, $headers_batch:ident;)*) => {
        extern "C" {
            $(
                fn $vbuf_len(len: usize) -> usize;
                fn $full_batch(
                    msgs: *const *const u8,
                    count: usize,
                    len: usize,
                    digests: *const *mut u8,
                    vbuf: *mut u8,
                ) -> i32;
                fn $headers_batch(
                    prefix: *const u8,
                    tails: *const *const u8,
                    count: usize,
                    digests: *const *mut u8,
                ) -> i32;
            )*
        }
    };
}
peer_shim! {
    miner_peer4_vbuf_len, miner_peer4_full_batch, miner_peer4_headers_batch;
    miner_peer8_vbuf_len, miner_peer8_full_batch, miner_peer8_headers_batch;
}

/// Skein-512-512 digest bytes.
const DIGEST: usize = 64;
/// Bytes every header shares.
const PREFIX: usize = 64;
/// Header length.
const HEADER: usize = 80;

/// Zeroed bytes starting on a 64-byte boundary (the peer's interleave
/// functions use aligned 16-byte loads and stores).
struct Aligned {
    raw: Vec<u8>,
    off: usize,
    len: usize,
}

impl Aligned {
    fn zeroed(len: usize) -> Aligned {
        let raw = vec![0u8; len + 64];
        let off = raw.as_ptr().align_offset(64);
        assert!(off < 64);
        Aligned { raw, off, len }
    }
    fn bytes(&self) -> &[u8] {
        &self.raw[self.off..self.off + self.len]
    }
    fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.raw[self.off..self.off + self.len]
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// Whole messages of this many bytes.
    Whole(usize),
    /// 80-byte headers sharing their first 64 bytes.
    Headers,
}

impl Kind {
    fn name(self) -> String {
        match self {
            Kind::Whole(len) if len >= 1024 && len % 1024 == 0 => format!("{} KiB", len / 1024),
            Kind::Whole(len) => format!("{len} B"),
            Kind::Headers => "80 B header, 64 B shared".into(),
        }
    }
    fn msg_len(self) -> usize {
        match self {
            Kind::Whole(len) => len,
            Kind::Headers => HEADER,
        }
    }
}

/// One batch of separate messages, each on its own 64-byte boundary with
/// at least 64 bytes of slack after it (the peer reads 32 bytes at each
/// 16-byte header tail). Headers: every message is an 80-byte header whose
/// first 64 bytes are the same.
struct Batch {
    kind: Kind,
    count: usize,
    stride: usize,
    data: Aligned,
}

impl Batch {
    fn new(kind: Kind, count: usize) -> Batch {
        let len = kind.msg_len();
        let stride = len.div_ceil(64) * 64 + 64;
        let mut data = Aligned::zeroed(count * stride);
        // Deterministic pseudo-random bytes (xorshift), different per message.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        };
        let prefix: Vec<u8> = (0..PREFIX).map(|_| next()).collect();
        for m in data.bytes_mut().chunks_exact_mut(stride) {
            for b in &mut m[..len] {
                *b = next();
            }
            if kind == Kind::Headers {
                m[..PREFIX].copy_from_slice(&prefix);
            }
        }
        Batch {
            kind,
            count,
            stride,
            data,
        }
    }
    fn message(&self, i: usize) -> &[u8] {
        &self.data.bytes()[i * self.stride..][..self.kind.msg_len()]
    }
    fn messages(&self) -> Vec<&[u8]> {
        (0..self.count).map(|i| self.message(i)).collect()
    }
    fn prefix(&self) -> &[u8] {
        &self.message(0)[..PREFIX]
    }
    /// The part of each message after the shared prefix.
    fn tails(&self) -> Vec<&[u8]> {
        (0..self.count)
            .map(|i| &self.message(i)[PREFIX..])
            .collect()
    }
}

/// Hashes the whole batch into `out` (`count * 64` bytes, 64-byte aligned).
type Run<'a> = Box<dyn FnMut(&mut [u8]) + 'a>;

struct Contender<'a> {
    name: String,
    /// Ours (compared against the peers) or a peer.
    ours: bool,
    /// Which peer, by lanes (4 or 8), for the ratio columns.
    peer_ways: usize,
    run: Run<'a>,
}

/// Which of our lane kernels: the automatic choice or a forced backend.
fn params(backend: Option<Backend>) -> Params<'static> {
    let p = Params::new().output_bits(512);
    match backend {
        Some(b) => p.backend(b),
        None => p,
    }
}

/// Runs `f` with every lane kernel chosen in `form`, if one is given.
fn in_form<R>(form: Option<LaneForm>, f: impl FnOnce() -> R) -> R {
    match form {
        Some(form) => Platform::with_lane_form(form, f),
        None => f(),
    }
}

fn ours<'a>(batch: &'a Batch, backend: Option<Backend>, form: Option<LaneForm>) -> Contender<'a> {
    let p = params(backend);
    // The name of the kernel this choice gets (the hasher of the header case
    // picks by the same rule as SkeinMany).
    let many = in_form(form, || SkeinMany512::with_params(&p)).expect("backend available");
    // The form of this batch's length (a header's tail is 16 bytes).
    let bytes = match batch.kind {
        Kind::Whole(size) => size,
        Kind::Headers => 16,
    };
    let label = format!("{} {}", many.backend().name(), form_name(&many, bytes));
    let forced = if backend.is_some() { "forced " } else { "" };
    match batch.kind {
        Kind::Whole(_) => {
            let msgs = batch.messages();
            Contender {
                name: format!("skein-simd hash_many, {forced}{label}"),
                ours: true,
                peer_ways: 0,
                run: Box::new(move |out| many.hash_many_into(&msgs, out)),
            }
        }
        Kind::Headers => {
            let tails = batch.tails();
            let prefix = batch.prefix();
            Contender {
                name: format!("skein-simd continuing, {forced}{label}"),
                ours: true,
                peer_ways: 0,
                run: Box::new(move |out| {
                    // From the raw prefix every batch, as the peer's prehash64.
                    let mut h = Skein512::with_params(&p).expect("backend available");
                    h.update(prefix);
                    in_form(form, || {
                        SkeinMany512::continuing(&h).hash_many_into(&tails, out)
                    });
                }),
            }
        }
    }
}

/// The three entry points of src/peer_shim.c, for one width.
type VbufLenFn = unsafe extern "C" fn(usize) -> usize;
type FullFn = unsafe extern "C" fn(*const *const u8, usize, usize, *const *mut u8, *mut u8) -> i32;
type HeadersFn = unsafe extern "C" fn(*const u8, *const *const u8, usize, *const *mut u8) -> i32;

/// The peer's `ways`-lane code (4: AVX2, 8: AVX-512) on `batch`.
fn peer<'a>(batch: &'a Batch, ways: usize) -> Contender<'a> {
    let (vbuf_len, full, headers): (VbufLenFn, FullFn, HeadersFn) = match ways {
        4 => (
            miner_peer4_vbuf_len,
            miner_peer4_full_batch,
            miner_peer4_headers_batch,
        ),
        _ => (
            miner_peer8_vbuf_len,
            miner_peer8_full_batch,
            miner_peer8_headers_batch,
        ),
    };
    let count = batch.count;
    let mut digests: Vec<*mut u8> = Vec::with_capacity(count);
    let mut point = move |out: &mut [u8]| {
        assert_eq!(out.len(), count * DIGEST);
        assert_eq!(out.as_ptr().align_offset(16), 0);
        digests.clear();
        digests.extend(out.chunks_exact_mut(DIGEST).map(|d| d.as_mut_ptr()));
        digests.as_ptr()
    };
    let (name, run): (String, Run<'a>) = match batch.kind {
        Kind::Whole(len) => {
            let msgs: Vec<*const u8> = batch.messages().iter().map(|m| m.as_ptr()).collect();
            // SAFETY: a pure function of its argument.
            let mut vbuf = Aligned::zeroed(unsafe { vbuf_len(len) });
            (
                format!("cpuminer-opt skein512_{ways}x64_full"),
                Box::new(move |out| {
                    let d = point(out);
                    // SAFETY: `msgs` holds `count` pointers to `len` readable
                    // bytes each, 64-byte aligned; `d` holds `count` pointers
                    // to 64 writable bytes each (in `out`, 64-byte aligned);
                    // `vbuf` holds the `vbuf_len(len)` bytes asked for, 64-byte
                    // aligned. The peer reads and writes nothing else.
                    let r = unsafe {
                        full(msgs.as_ptr(), count, len, d, vbuf.bytes_mut().as_mut_ptr())
                    };
                    assert_eq!(r, 0, "the peer refused {count} messages of {len} bytes");
                }),
            )
        }
        Kind::Headers => {
            let tails: Vec<*const u8> = batch.tails().iter().map(|t| t.as_ptr()).collect();
            let prefix = batch.prefix().as_ptr();
            (
                format!("cpuminer-opt skein512_{ways}x64_prehash64 + final16"),
                Box::new(move |out| {
                    let d = point(out);
                    // SAFETY: `prefix` points to 64 readable bytes, each of the
                    // `count` tails to 16 bytes followed by at least 16 more
                    // readable ones (the batch's stride), all 16-byte aligned;
                    // `d` as above.
                    let r = unsafe { headers(prefix, tails.as_ptr(), count, d) };
                    assert_eq!(r, 0, "the peer refused {count} headers");
                }),
            )
        }
    };
    Contender {
        name,
        ours: false,
        peer_ways: ways,
        run,
    }
}

fn have_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

fn have_avx512() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512dq")
}

/// Every contender this CPU can run on `batch`.
fn contenders(batch: &Batch, forms: bool) -> Vec<Contender<'_>> {
    let mut all = vec![ours(batch, None, None)];
    if Backend::Avx2.is_available() {
        all.push(ours(batch, Some(Backend::Avx2), None));
    }
    if forms {
        for backend in [Backend::Avx2, Backend::Avx512] {
            for &form in backend.lane_forms() {
                all.push(ours(batch, Some(backend), Some(form)));
            }
        }
    }
    if have_avx2() {
        all.push(peer(batch, 4));
    }
    if have_avx512() {
        all.push(peer(batch, 8));
    }
    all
}

/// Aborts unless every digest `c` writes equals our single-stream Skein512 of
/// that message.
fn check(batch: &Batch, c: &mut Contender<'_>, out: &mut Aligned) {
    out.bytes_mut().fill(0);
    (c.run)(out.bytes_mut());
    for (i, digest) in out.bytes().chunks_exact(DIGEST).enumerate() {
        let expected = Skein512::hash_vec(512, batch.message(i));
        if digest != expected.as_slice() {
            eprintln!(
                "miner-bench: {} gives a wrong digest for message {i} of {} ({}); aborting",
                c.name,
                batch.count,
                batch.kind.name()
            );
            std::process::exit(1);
        }
    }
}

/// Nanoseconds a call, over `iters` calls.
fn time(c: &mut Contender<'_>, out: &mut Aligned, iters: u64) -> f64 {
    let start = Instant::now();
    for _ in 0..iters {
        (c.run)(black_box(out.bytes_mut()));
        black_box(out.bytes());
    }
    start.elapsed().as_nanos() as f64 / iters as f64
}

struct Options {
    rounds: usize,
    target_ms: f64,
    batch: usize,
    sizes: Vec<usize>,
    headers: bool,
    /// Also every form of the AVX2 and AVX-512 kernels, forced.
    forms: bool,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let opt = |name: &str| -> Option<&String> {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    let num = |name: &str, default: usize| -> Result<usize, String> {
        opt(name).map_or(Ok(default), |v| {
            v.parse().map_err(|_| format!("{name} takes a number"))
        })
    };
    // A misspelt option would otherwise run the full benchmark silently.
    let mut rest = args.iter();
    while let Some(a) = rest.next() {
        match a.as_str() {
            "--quick" | "--no-headers" | "--forms" => {}
            "--rounds" | "--ms" | "--batch" | "--sizes" => {
                rest.next().ok_or_else(|| format!("{a} needs a value"))?;
            }
            _ => {
                return Err(format!(
                    "unknown argument {a:?}; options: --quick, --rounds N, --ms N, \
                     --batch N, --sizes 64,80,..., --no-headers, --forms (or: count IMPL CASE BATCHES)"
                ))
            }
        }
    }
    let quick = args.iter().any(|a| a == "--quick");
    let rounds = num("--rounds", if quick { 3 } else { 9 })?.max(1);
    let target_ms = num("--ms", if quick { 10 } else { 40 })? as f64;
    let batch = num("--batch", COUNT_BATCH)?;
    if batch == 0 || batch % 8 != 0 {
        return Err("--batch must be a positive multiple of 8".into());
    }
    let sizes = match opt("--sizes") {
        Some(v) => v
            .split(',')
            .map(|s| s.parse().map_err(|_| format!("bad size {s:?}")))
            .collect::<Result<Vec<usize>, String>>()?,
        None if quick => vec![64, 80, 1024],
        None => vec![64, 80, 1024, 4096, 65536, 262144],
    };
    for &s in &sizes {
        if !(s == 64 || s == 80 || (s > 0 && s % 128 == 0)) {
            return Err(format!(
                "size {s}: the peer's interleave takes 64, 80 or a multiple of 128 bytes"
            ));
        }
    }
    Ok(Options {
        rounds,
        target_ms,
        batch,
        sizes,
        headers: !args.iter().any(|a| a == "--no-headers"),
        forms: args.iter().any(|a| a == "--forms"),
    })
}

fn cell(x: Option<f64>) -> String {
    x.map_or("–".into(), |v| format!("{v:.2}x"))
}

fn bench(o: &Options) {
    let auto = SkeinMany512::with_params(&params(None)).unwrap();
    println!(
        "skein-simd lane kernel (automatic): {} {}; one thread (rayon pool of {}); batch {} messages; best of {} rounds",
        auto.backend().name(),
        form_name(&auto, usize::MAX),
        rayon::current_num_threads(),
        o.batch,
        o.rounds
    );
    if !have_avx512() {
        println!("no AVX-512 on this CPU: the peer's 8-way is left out");
    }
    let mut kinds: Vec<Kind> = o.sizes.iter().map(|&s| Kind::Whole(s)).collect();
    if o.headers {
        kinds.push(Kind::Headers);
    }
    let mut ghz = bench_clock::clock_ghz();
    let mut rows = Vec::new();
    for kind in kinds {
        let batch = Batch::new(kind, o.batch);
        let mut out = Aligned::zeroed(batch.count * DIGEST);
        let mut cs = contenders(&batch, o.forms);
        for c in cs.iter_mut() {
            check(&batch, c, &mut out);
        }
        let iters: Vec<u64> = cs
            .iter_mut()
            .map(|c| {
                let ns = time(c, &mut out, 1).max(time(c, &mut out, 2));
                ((o.target_ms * 1e6 / ns) as u64).clamp(1, 1_000_000)
            })
            .collect();
        let mut best = vec![f64::INFINITY; cs.len()];
        for _ in 0..o.rounds {
            for (i, c) in cs.iter_mut().enumerate() {
                best[i] = best[i].min(time(c, &mut out, iters[i]));
            }
        }
        let per_msg: Vec<f64> = best.iter().map(|b| b / batch.count as f64).collect();
        let peer_ns = |ways: usize| {
            cs.iter()
                .position(|c| c.peer_ways == ways)
                .map(|i| per_msg[i])
        };
        let (p4, p8) = (peer_ns(4), peer_ns(8));
        for (i, c) in cs.iter().enumerate() {
            let ns = per_msg[i];
            let ratio = |p: Option<f64>| if c.ours { p.map(|p| p / ns) } else { None };
            rows.push((kind, c.name.clone(), ns, ratio(p4), ratio(p8)));
        }
        ghz = ghz.max(bench_clock::clock_ghz());
    }
    println!("clock {ghz:.3} GHz (bench-clock: the lower of an add and an imul chain; the cycles/byte column uses it)");
    println!();
    println!(
        "| Skein-512-512 | implementation | ns/message | MB/s | cycles/byte | speed vs peer 4-way | speed vs peer 8-way |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|");
    for (kind, name, ns, r4, r8) in rows {
        let len = kind.msg_len() as f64;
        println!(
            "| {} | {} | {:.1} | {:.0} | {:.2} | {} | {} |",
            kind.name(),
            name,
            ns,
            len / ns * 1e3,
            ns * ghz / len,
            cell(r4),
            cell(r8)
        );
    }
}

/// Messages a batch in `count` mode (the default `--batch`).
const COUNT_BATCH: usize = 64;

/// `count IMPL CASE BATCHES`: check, then hash BATCHES batches untimed.
/// `ours-avx2x4`, `ours-avx2x8` and `ours-avx2x4+1` force the one-group, the
/// interleaved and the with-scalar form of the AVX2 lane kernel (a test
/// hook), whatever the library's rule for this CPU would pick, so that the
/// two runs whose counts are subtracted count the same form.
fn count(args: &[String]) -> Result<(), String> {
    let [which, case, batches] = args else {
        return Err(
            "usage: miner-bench count ours-auto|ours-avx2|ours-avx2x4|ours-avx2x8|ours-avx2x4+1|peer4|peer8 \
             SIZE|header BATCHES"
                .into(),
        );
    };
    let kind = match case.as_str() {
        "header" => Kind::Headers,
        s => Kind::Whole(s.parse().map_err(|_| format!("bad case {s:?}"))?),
    };
    let batches: usize = batches.parse().map_err(|_| "BATCHES is a number")?;
    let batch = Batch::new(kind, COUNT_BATCH);
    let run = || {
        let mut out = Aligned::zeroed(batch.count * DIGEST);
        let mut c = match which.as_str() {
            "ours-auto" => ours(&batch, None, None),
            "ours-avx2" | "ours-avx2x4" | "ours-avx2x8" | "ours-avx2x4+1" => {
                ours(&batch, Some(Backend::Avx2), None)
            }
            "peer4" => peer(&batch, 4),
            "peer8" => peer(&batch, 8),
            other => return Err(format!("unknown implementation {other:?}")),
        };
        check(&batch, &mut c, &mut out);
        for _ in 0..batches {
            (c.run)(black_box(out.bytes_mut()));
            black_box(out.bytes());
        }
        println!("{} {} {}x{}", c.name, kind.name(), batches, batch.count);
        Ok(())
    };
    match which.as_str() {
        "ours-avx2x4" => Platform::with_lane_form(LaneForm::OneGroup, run),
        "ours-avx2x8" => Platform::with_lane_form(LaneForm::TwoGroups, run),
        "ours-avx2x4+1" => Platform::with_lane_form(LaneForm::WithScalar, run),
        _ => run(),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("one-thread pool");
    let result = pool.install(|| {
        if args.first().map(String::as_str) == Some("count") {
            count(&args[1..])
        } else {
            parse(&args).map(|o| bench(&o))
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("miner-bench: {e}");
            ExitCode::from(2)
        }
    }
}

/// The kernel form messages of `bytes` bytes run, as `many_table` names
/// it: "x8" (one group), "2x4" (two interleaved groups), "x4+1" (a group
/// and a scalar lane). Short messages may run another form than long ones
/// (`lane_form_for_length`); the group's width comes from the long form.
fn form_name(many: &SkeinMany512, bytes: usize) -> String {
    let lanes = many.lanes();
    let group = match many.lane_form() {
        LaneForm::TwoGroups => lanes / 2,
        LaneForm::WithScalar => lanes - 1,
        _ => lanes,
    };
    match many.lane_form_for_length(bytes) {
        LaneForm::TwoGroups => format!("2x{group}"),
        LaneForm::WithScalar => format!("x{group}+1"),
        _ => format!("x{group}"),
    }
}
