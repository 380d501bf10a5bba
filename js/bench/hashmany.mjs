// hashMany alone, in CPU time: copies of the package timed round-robin in
// one Node process, each call's cost from process.cpuUsage() (user +
// system) rather than the wall clock, so that time the process spends
// descheduled on a loaded machine does not count. A guide for choosing
// between forms on a busy machine (other processes still share the
// caches and the core); the figures for the docs come from bench.mjs on
// a quiet one.
//
//   node bench/hashmany.mjs NAME=DIR[:portable] ...
//
// DIR: a copy of the package (`sh build.sh --out DIR`, or `.`), its SIMD128
// build unless `:portable`. Ratios are to the last one. Environment: STATE
// (512), N messages (64) of SIZE bytes (4096), ROUNDS (9), MIN seconds of
// CPU a round (0.15).
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const [STATE, N, SIZE, ROUNDS, MIN] = [env("STATE", 512), env("N", 64), env("SIZE", 4096), env("ROUNDS", 9), env("MIN", 0.15)];

/** The package at `dir` in a module instance of its own (see bench.mjs). */
async function instance(dir, name, simd) {
  const copy = fileURLToPath(new URL(`../target/bench/hashmany-${name}/`, import.meta.url));
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  for (const f of ["index.js", "wasm"]) cpSync(join(dir, f), join(copy, f), { recursive: true });
  const m = await import(new URL(`../target/bench/hashmany-${name}/index.js`, import.meta.url));
  await m.init({ simd });
  return m;
}

const args = process.argv.slice(2);
if (args.length === 0 || args.some((a) => !a.includes("="))) {
  console.error("usage: node bench/hashmany.mjs NAME=DIR[:portable] ...");
  process.exit(2);
}
const cases = [];
for (const arg of args) {
  const [name, spec] = arg.split("=");
  const [dir, build = "simd128"] = spec.split(":");
  cases.push({ name, m: await instance(resolve(dir), name, build !== "portable"), best: Infinity });
}
const messages = Array.from({ length: N }, (_, i) => new Uint8Array(SIZE).map((_, k) => k * 131 + i));
const options = { stateBits: STATE };
const digest = (c) => c.m.toHex(c.m.hashMany(messages, options)[N - 1]);
for (const c of cases) {
  if (digest(c) !== digest(cases[0])) throw new Error(`hashmany.mjs: ${c.name} gives another digest`);
}
for (let round = -1; round < ROUNDS; round++) {
  for (const c of cases) {
    let calls = 0;
    let seconds;
    const start = process.cpuUsage();
    do {
      c.m.hashMany(messages, options);
      calls++;
      const used = process.cpuUsage(start);
      seconds = (used.user + used.system) / 1e6;
    } while (seconds < MIN);
    if (round >= 0) c.best = Math.min(c.best, seconds / calls); // round -1 warms up
  }
}
console.log(`Skein-${STATE} hashMany, ${N} x ${SIZE} B, best of ${ROUNDS} rounds, CPU time`);
const base = cases[cases.length - 1].best;
for (const c of cases) {
  console.log(`${c.name}\t${((N * SIZE) / c.best / 1e6).toFixed(1)} MB/s\t${(base / c.best).toFixed(2)}x`);
}
