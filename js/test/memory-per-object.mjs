// Run by memory.test.mjs in a fresh process (no freed memory to reuse):
// `node test/memory-per-object.mjs STATE COUNT` makes COUNT new
// Hasher(STATE) and their xof() readers, keeps them alive, and prints the
// growth of wasm memory per pair in bytes.
import glueInit from "../wasm/skein_simd_js.js";
import "./setup.mjs";
import { Hasher } from "../index.js";

const [state, count] = process.argv.slice(2).map(Number);
// The glue's init() once loaded returns the module's exports.
const memory = (await glueInit()).memory;
const keep = [];
const before = memory.buffer.byteLength;
for (let i = 0; i < count; i++) {
  const h = new Hasher(state);
  keep.push(h, h.xof());
}
console.log((memory.buffer.byteLength - before) / count);
