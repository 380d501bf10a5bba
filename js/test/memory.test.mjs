// Wasm memory held by each unfreed object: an unfreed Hasher or reader keeps
// its wasm memory until the collector runs its finalizer, and the collector
// does not see that memory, so each must be small. Each holds one state
// boxed at its own state size (not the size of the largest, Skein-1024's)
// and no buffer sized by an input or an output.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("memory-per-object.mjs", import.meta.url));
const perPair = (state) => Number(execFileSync(process.execPath, [script, String(state), "20000"], { encoding: "utf8" }));

// Bounds with room for the allocator: a Skein-256 state is 4 words of
// chaining value and a 32-byte block, a Skein-1024 state 16 words and a
// 128-byte block, each reader one output block (of 128 bytes in the library
// for every state size) and the chaining value.
test("wasm memory of a live Hasher(256) and its xof(): at most 512 bytes", () => {
  const n = perPair(256);
  assert.ok(n <= 512, `${n} bytes`);
});

test("wasm memory of a live Hasher(1024) and its xof(): at most 1024 bytes", () => {
  const n = perPair(1024);
  assert.ok(n <= 1024, `${n} bytes`);
});

test("freed hashers' wasm memory is used again", async () => {
  const { Hasher, init } = await import("../index.js");
  const { default: glueInit } = await import("../wasm/skein_simd_js.js");
  await init();
  const memory = (await glueInit()).memory;
  const make = () => Array.from({ length: 10_000 }, () => new Hasher(1024)).flatMap((h) => [h, h.xof()]);
  for (const o of make()) o.free();
  const after = memory.buffer.byteLength;
  for (let round = 0; round < 5; round++) for (const o of make()) o.free();
  assert.equal(memory.buffer.byteLength, after);
});
