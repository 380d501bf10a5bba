// Hostile arguments: every refused call throws a TypeError or RangeError
// whose message starts with "skein:", before wasm sees the argument, and
// leaves the module exactly as usable as before (no wasm trap: a trap skips
// the destructors that wipe the key, leaks wasm stack, and leaves objects
// that can never be freed). Expected digests are pyskein 1.0's
// (tests/data/pyskein_output_lengths.txt).
import { test } from "node:test";
import assert from "node:assert/strict";
import glueInit from "../wasm/skein_simd_js.js";
import "./setup.mjs";
import { backend, createHasher, Hasher, hashMany, skein512, toHex } from "../index.js";
import { outputLengths } from "./vectors.mjs";

// The glue's init() once loaded returns the module's exports.
const wasmMemory = (await glueInit()).memory;
const lengths = outputLengths();
const pyskein = (state, bits, keyed = false) =>
  lengths.find((c) => c.state === state && c.bits === bits && !!c.key === keyed);
const ABC_512 = pyskein(512, 512).digest;
const ABC_512_KEYED_256 = pyskein(512, 256, true);

/** Asserts that f() throws `type` with a one-line message starting "skein:". */
function refuses(f, type, what) {
  assert.throws(
    f,
    (e) => {
      assert.equal(e.constructor, type, `${what}: ${e.constructor.name}: ${e.message}`);
      assert.match(e.message, /^skein: [^\n]+$/, what);
      return true;
    },
    what,
  );
}

function detachedBuffer(n = 8) {
  const buffer = new ArrayBuffer(n);
  const view = new Uint8Array(buffer).fill(7);
  structuredClone(buffer, { transfer: [buffer] });
  return { buffer, view };
}

/** Whether `needle` occurs anywhere in wasm linear memory. */
function inWasmMemory(needle) {
  const mem = new Uint8Array(wasmMemory.buffer);
  const first = needle[0];
  for (let i = mem.indexOf(first); i !== -1 && i <= mem.length - needle.length; i = mem.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && mem[i + j] === needle[j]) j++;
    if (j === needle.length) return true;
  }
  return false;
}

test("out-of-range numbers are refused, not wrapped or coerced", () => {
  const r = new Hasher(512, { bits: 2n ** 64n - 1n }).update("abc").xof();
  refuses(() => r.seek(-1), RangeError, "seek(-1)");
  refuses(() => r.seek(2n ** 64n), RangeError, "seek(2**64)");
  refuses(() => r.seek(-1n), RangeError, "seek(-1n)");
  refuses(() => r.seek(1.5), RangeError, "seek(1.5)");
  refuses(() => r.seek(2 ** 64), RangeError, "seek(2**64 as a number)");
  refuses(() => r.seek("8"), TypeError, 'seek("8")');
  refuses(() => r.read(2 ** 32), RangeError, "read(2**32)");
  refuses(() => r.read(2 ** 32 - 1), RangeError, "read(2**32 - 1)");
  refuses(() => r.read(2 ** 30 + 1), RangeError, "read(2**30 + 1)");
  refuses(() => r.read(-1), RangeError, "read(-1)");
  refuses(() => r.read(1.5), RangeError, "read(1.5)");
  refuses(() => r.read("8"), TypeError, 'read("8")');
  refuses(() => r.read(8n), TypeError, "read(8n)");
  // The refused calls left the reader where it was.
  assert.equal(r.position, 0n);
  // The largest position is allowed; past the end, reads return nothing.
  assert.equal(r.seek(2n ** 64n - 1n).position, 2n ** 64n - 1n);
  assert.equal(r.read(100).length, 0);

  const d = new Uint8Array(1);
  const h = new Hasher(512);
  refuses(() => h.update(d, 2n ** 64n + 8n), RangeError, "update(d, 2**64 + 8)");
  refuses(() => h.update(d, -8), RangeError, "update(d, -8)");
  refuses(() => h.update(d, 1.5), RangeError, "update(d, 1.5)");
  refuses(() => h.update(d, "8"), TypeError, 'update(d, "8")');
  refuses(() => h.update(d, null), TypeError, "update(d, null)");
  refuses(() => h.update(d, 16), RangeError, "update(d, 16): 1 byte for 16 bits");
  h.update("abc", 24);
  assert.equal(h.hexdigest(), ABC_512);
});

test("use after free() throws; a second free() does nothing", () => {
  const h = new Hasher(512).update("abc");
  const r = h.xof();
  r.free();
  r.free();
  refuses(() => r.read(1), TypeError, "read after free");
  refuses(() => r.seek(0), TypeError, "seek after free");
  refuses(() => r.position, TypeError, "position after free");
  refuses(() => r.length, TypeError, "length after free");
  const c = h.copy();
  h.free();
  h.free();
  refuses(() => h.update("x"), TypeError, "update after free");
  refuses(() => h.digest(), TypeError, "digest after free");
  refuses(() => h.hexdigest(), TypeError, "hexdigest after free");
  refuses(() => h.xof(), TypeError, "xof after free");
  refuses(() => h.copy(), TypeError, "copy after free");
  // The copy made before is its own object.
  assert.equal(c.hexdigest(), ABC_512);
  c.free();
});

test("bad options and message lists throw skein: errors", () => {
  refuses(() => new Hasher(512, null), TypeError, "new Hasher(512, null)");
  refuses(() => new Hasher(512, 5), TypeError, "new Hasher(512, 5)");
  refuses(() => createHasher(512, null), TypeError, "createHasher(512, null)");
  refuses(() => skein512("abc", null), TypeError, "skein512(data, null)");
  refuses(() => hashMany(["x"], null), TypeError, "hashMany(x, null)");
  refuses(() => hashMany(null), TypeError, "hashMany(null)");
  refuses(() => hashMany(undefined), TypeError, "hashMany(undefined)");
  refuses(() => hashMany(5), TypeError, "hashMany(5)");
  refuses(() => hashMany({}), TypeError, "hashMany({})");
  // A string would be hashed as one message per character.
  refuses(() => hashMany("abc"), TypeError, 'hashMany("abc")');
  refuses(() => hashMany(new String("abc")), TypeError, 'hashMany(new String("abc"))');
  refuses(() => hashMany([1, 2]), TypeError, "hashMany([1, 2])");
  refuses(() => hashMany(["a", "b", "c", "d"], { bits: 2 ** 33 }), RangeError, "four 1 GiB digests");
  refuses(() => hashMany([], { bits: 2 ** 40 }), RangeError, "a digest over 1 GiB");
  // Iterables other than arrays still work.
  const set = hashMany(new Set(["abc"]));
  assert.equal(toHex(set[0]), ABC_512);
});

test("byte options longer than 1 GiB together are refused before they are copied into wasm", () => {
  const half = new Uint8Array(2 ** 29);
  const before = wasmMemory.buffer.byteLength;
  refuses(() => skein512("x", { key: new Uint8Array(2 ** 30 + 1) }), RangeError, "a key over 1 GiB");
  refuses(
    () => new Hasher(512, { key: half, personalization: half, nonce: "n" }),
    RangeError,
    "options over 1 GiB together",
  );
  refuses(() => hashMany(["x"], { publicKey: half, keyId: half, nonce: "n" }), RangeError, "hashMany");
  assert.equal(wasmMemory.buffer.byteLength, before);
});

test("detached buffers as data, key or messages throw skein: errors", () => {
  const { buffer, view } = detachedBuffer();
  refuses(() => skein512(buffer), TypeError, "detached ArrayBuffer as data");
  refuses(() => skein512(view), TypeError, "view of a detached buffer as data");
  const dvBuffer = new ArrayBuffer(8);
  const dv = new DataView(dvBuffer, 2, 4);
  structuredClone(dvBuffer, { transfer: [dvBuffer] });
  refuses(() => skein512(dv), TypeError, "DataView of a detached buffer as data");
  refuses(() => skein512("abc", { key: buffer }), TypeError, "detached key");
  refuses(() => skein512("abc", { key: view }), TypeError, "view of a detached key");
  refuses(() => new Hasher(512, { nonce: view }), TypeError, "detached nonce");
  refuses(() => new Hasher(512).update(view), TypeError, "update with a detached view");
  refuses(() => hashMany(["abc", view]), TypeError, "hashMany with a detached message");
  // A message detached by the iterator after it was taken.
  const late = new ArrayBuffer(4);
  function* detaching() {
    yield new Uint8Array(late);
    structuredClone(late, { transfer: [late] });
    yield "abc";
  }
  refuses(() => hashMany(detaching()), TypeError, "a message detached during iteration");
  // Empty (not detached) buffers are the empty message.
  assert.equal(toHex(skein512(new ArrayBuffer(0))), toHex(skein512("")));
  assert.equal(toHex(skein512(new Uint8Array(0))), toHex(skein512("")));
});

test("the key is not left in wasm memory after a failed or a finished call", () => {
  // 64 bytes that occur nowhere else.
  const key = new Uint8Array(64).map((_, i) => (i * 97 + 0x5a) & 0xff);
  const failures = [
    () => hashMany(["a", "b", "c", "d"], { bits: 2 ** 33, key }),
    () => hashMany(["a", "b"], { bits: 2 ** 32 + 8, key }),
    () => hashMany(["a", 5], { key }),
    () => skein512("abc", { key, tree: { leaf: 0, fanOut: 1, maxHeight: 2 } }),
    () => skein512("abc", { key, bits: 2 ** 40 }),
    () => new Hasher(512, { key, bits: 2n ** 64n - 1n }).digest(),
    () => new Hasher(512, { key, bits: 2n ** 64n - 1n }).xof().read(2 ** 32 - 1),
    () => new Hasher(512, { key }).update("a", 1).update("b"),
  ];
  for (const [i, f] of failures.entries()) {
    let error;
    try {
      f();
    } catch (e) {
      error = e;
    }
    assert.equal(inWasmMemory(key), false, `key in wasm memory after failure ${i}`);
    assert.ok(error && /^skein: /.test(error.message), `failure ${i}: ${error}`);
  }
  const k = { bits: 256, key: pyskein(512, 256, true).key };
  assert.equal(toHex(skein512("abc", k)), ABC_512_KEYED_256.digest);
  assert.equal(inWasmMemory(k.key), false, "key in wasm memory after a one-shot MAC");
  const h = new Hasher(512, k).update("abc");
  assert.equal(toHex(hashMany(["abc"], k)[0]), ABC_512_KEYED_256.digest);
  assert.equal(h.hexdigest(), ABC_512_KEYED_256.digest);
  h.free();
  assert.equal(inWasmMemory(k.key), false, "key in wasm memory after a Hasher and hashMany");
});

test("100,000 failed calls leave the module working and its memory as it was", () => {
  const r = new Hasher(512, { bits: 2n ** 64n - 1n }).xof();
  const ended = new Hasher(512).update("a", 1);
  const bad = [
    () => hashMany(["a", "b", "c", "d"], { bits: 2 ** 33 }),
    () => r.read(2 ** 32 - 1),
    () => r.seek(-1),
    // These reach wasm and fail there, with a Rust error.
    () => skein512("abc", { tree: { leaf: 0, fanOut: 1, maxHeight: 2 } }),
    () => ended.update("b"),
  ];
  const before = wasmMemory.buffer.byteLength;
  for (let i = 0; i < 100_000; i++) {
    try {
      bad[i % bad.length]();
      assert.fail(`call ${i} did not throw`);
    } catch (e) {
      if (!/^skein: /.test(e.message)) throw e;
    }
  }
  assert.equal(skein512("abc").length, 64);
  assert.equal(toHex(skein512("abc")), ABC_512);
  assert.equal(toHex(hashMany(["abc", "abc"])[1]), ABC_512);
  assert.equal(toHex(r.seek(0).read(8)), toHex(new Hasher(512, { bits: 2n ** 64n - 1n }).xof().read(8)));
  // No wasm memory kept by the failures (it grows in 64 KiB pages).
  assert.ok(wasmMemory.buffer.byteLength <= before + (1 << 20), `${before} -> ${wasmMemory.buffer.byteLength}`);
});

test("backend() is one of the documented names", () => {
  assert.match(backend(), /^(simd128|portable)$/);
});
