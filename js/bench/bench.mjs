// Throughput of the package in Node: the SIMD128 build against the portable
// (no SIMD128) wasm build, and single-stream wasm against native skeinsum,
// all measured in one run. Prints a Markdown table for docs/performance.md.
//
//   sh build.sh && cargo build -p skeinsum --release
//   node bench/bench.mjs [--quick] [--against DIR]
//
// --against DIR: also the builds of another copy of the package (e.g.
// `WASM_OPT=0 sh build.sh --out DIR`, to measure wasm-opt), each row of a
// section against this package's.
// SKEINSUM: the native binary (default: the root workspace's release build);
// BENCH_DIR: where the native run's file goes (default /dev/shm).
// Cases are timed round-robin, best of the rounds, so that a change of load
// hits every case alike. Take the figures on a quiet machine.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 3 : 15;
const MIN_SECONDS = quick ? 0.05 : 0.25;

const againstAt = process.argv.indexOf("--against");
const against = againstAt > 0 ? process.argv[againstAt + 1] : null;

/** A copy of the package at `dir` with its own module instance (a module
 * loads one build per process, init() decides which): its ESM files copied
 * into target/bench/NAME/. */
async function instance(dir, name, simd) {
  const copy = fileURLToPath(new URL(`../target/bench/${name}/`, import.meta.url));
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  for (const f of ["index.js", "wasm"]) cpSync(join(dir, f), join(copy, f), { recursive: true });
  const m = await import(new URL(`../target/bench/${name}/index.js`, import.meta.url));
  await m.init({ simd });
  return m;
}

const here = fileURLToPath(new URL("..", import.meta.url));
const simd = await instance(here, "simd128", true);
const portable = await instance(here, "portable", false);
const builds = [
  ["simd128 build", simd],
  ["portable build", portable],
];
if (against) {
  builds.unshift(
    [`simd128 build of ${against}`, await instance(against, "against-simd128", true)],
    [`portable build of ${against}`, await instance(against, "against-portable", false)],
  );
}

function bytes(n, seed = 1) {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 131 + seed) & 255;
  return b;
}

/** Seconds per call of f, best of ROUNDS (each round at least MIN_SECONDS). */
function timer(f) {
  let best = Infinity;
  return {
    round() {
      let calls = 0;
      const t0 = performance.now();
      let t;
      do {
        f();
        calls++;
        t = (performance.now() - t0) / 1000;
      } while (t < MIN_SECONDS);
      best = Math.min(best, t / calls);
    },
    get best() {
      return best;
    },
  };
}

function race(cases) {
  const timers = cases.map((c) => timer(c.run));
  for (const t of timers) t.round(); // warm-up (JIT, wasm tier-up)
  for (let r = 0; r < ROUNDS; r++) for (const t of timers) t.round();
  return cases.map((c, i) => ({ ...c, mbs: c.bytes / timers[i].best / 1e6 }));
}

const rows = [];
function section(title, cases) {
  const done = race(cases);
  const base = done[done.length - 1].mbs;
  for (const c of done) rows.push([title, c.name, c.mbs.toFixed(1), (c.mbs / base).toFixed(2)]);
}

// hashMany, Skein-512-512, 64 messages of 4 KiB a call.
const many = Array.from({ length: 64 }, (_, i) => bytes(4096, i));
section(
  "Skein-512 hashMany, 64 x 4 KiB",
  builds.map(([name, m]) => ({ name, bytes: 64 * 4096, run: () => m.hashMany(many) })),
);

// hashMany, Skein-1024-1024: its rule differs from Skein-512's (one
// scalar lane, not two vector lanes and a scalar one: docs/wasm.md), at 4 KiB
// and at 64 B (one block, where the call's fixed costs count most).
const many64 = Array.from({ length: 64 }, (_, i) => bytes(64, i));
for (const [size, messages] of [["4 KiB", many], ["64 B", many64]]) {
  section(
    `Skein-1024 hashMany, 64 x ${size}`,
    builds.map(([name, m]) => ({
      name,
      bytes: messages.length * messages[0].length,
      run: () => m.hashMany(messages, { stateBits: 1024 }),
    })),
  );
}

// One stream, Skein-512-512 one-shot of 16 KiB.
const m16 = bytes(16384);
section(
  "Skein-512 one-shot, 16 KiB",
  builds.map(([name, m]) => ({ name, bytes: 16384, run: () => m.skein512(m16) })),
);

// One long stream: 1 MiB pieces into a streaming hasher (as the demo page).
const m1 = bytes(1 << 20);
const streams = builds.map(([name, m]) => {
  const h = new m.Hasher(512);
  return { name, bytes: 1 << 20, run: () => h.update(m1) };
});
const streamed = race(streams);

// Native: skeinsum -a 512 on a file in memory (tmpfs), one stream, best of runs.
const SKEINSUM =
  process.env.SKEINSUM ?? fileURLToPath(new URL("../../target/release/skeinsum", import.meta.url));
let native = null;
if (existsSync(SKEINSUM)) {
  const file = join(process.env.BENCH_DIR ?? "/dev/shm", `skein-bench-${process.pid}.bin`);
  const size = (quick ? 32 : 256) << 20;
  const big = new Uint8Array(size);
  for (let at = 0; at < size; at += m1.length) big.set(m1, at);
  writeFileSync(file, big);
  try {
    let best = Infinity;
    for (let r = 0; r < (quick ? 2 : 7); r++) {
      const t0 = performance.now();
      execFileSync(SKEINSUM, ["-a", "512", file]);
      best = Math.min(best, (performance.now() - t0) / 1000);
    }
    native = size / best / 1e6;
  } finally {
    rmSync(file, { force: true });
  }
}
for (const c of streamed) {
  rows.push([
    "Skein-512 streaming, 1 MiB updates",
    c.name,
    c.mbs.toFixed(1),
    native ? `${(c.mbs / native).toFixed(2)} of native` : "-",
  ]);
}
if (native) rows.push(["Skein-512 streaming, 1 MiB updates", "native skeinsum -a 512 (file in tmpfs)", native.toFixed(1), "1.00"]);

console.log(`Node ${process.version}; simd128 build backend: ${simd.backend()}; portable build: ${portable.backend()}`);
console.log(`${ROUNDS} rounds${quick ? " (--quick: not for the docs)" : ""}; MB = 10^6 bytes; ratio: to the last row of its section`);
console.log("Pure-JS Skein from the npm registry: none available (see docs/javascript.md).");
console.log();
console.log("| case | build | MB/s | ratio |");
console.log("| --- | --- | ---: | ---: |");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
if (!native) console.log(`\n(no native row: ${SKEINSUM} not found; cargo build -p skeinsum --release)`);
