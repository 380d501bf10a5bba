// Argument handling: inputs of every accepted kind, clear errors for bad
// ones. Expected digests come from the golden file's Skein-512-512 of the
// empty message and of the bytes FF FE ... (its 'incrementing' entries)
// and from pyskein (data/pyskein-vectors.json).
import { test } from "node:test";
import assert from "node:assert/strict";
import { build } from "./setup.mjs";
import { backend, fromHex, Hasher, hashMany, simdSupported, skein, skein512, toBase64, toHex } from "../index.js";
import { goldenKat } from "./vectors.mjs";


const kat = goldenKat();
const empty512 = kat.find((e) => e.state === 512 && e.bits === 512 && e.msgBits === 0 && !e.key);
const byte8 = kat.find((e) => e.state === 512 && e.bits === 512 && e.msgBits === 64 && !e.key && !e.tree);

test("messages as Uint8Array, other views, ArrayBuffer; strings as UTF-8", () => {
  assert.equal(toHex(skein512(new Uint8Array(0))), toHex(empty512.result));
  assert.equal(toHex(skein512("")), toHex(empty512.result));
  const m = byte8.msg;
  assert.equal(toHex(skein512(m.buffer.slice(m.byteOffset, m.byteOffset + 8))), toHex(byte8.result));
  const padded = new Uint8Array(24);
  padded.set(m, 8);
  assert.equal(toHex(skein512(padded.subarray(8, 16))), toHex(byte8.result));
  assert.equal(toHex(skein512(new DataView(padded.buffer, 8, 8))), toHex(byte8.result));
  // A string is hashed as its UTF-8 bytes: "é" is C3 A9.
  assert.equal(toHex(skein512("é")), toHex(skein512(Uint8Array.of(0xc3, 0xa9))));
});

test("hex helpers", () => {
  assert.equal(toHex(Uint8Array.of(0, 15, 255)), "000fff");
  assert.deepEqual(fromHex("000fFf"), Uint8Array.of(0, 15, 255));
  assert.throws(() => fromHex("abc"), /hexadecimal/);
  assert.throws(() => fromHex("zz"), /hexadecimal/);
});

test("bad arguments throw clear errors", () => {
  assert.throws(() => skein(384, ""), /stateBits must be 256, 512 or 1024/);
  assert.throws(() => skein512("", { bits: 0 }), /bits must be an integer/);
  assert.throws(() => skein512("", { bits: 1.5 }), /bits must be an integer/);
  assert.throws(() => skein512("", { bits: 2n ** 64n }), /bits must be an integer/);
  assert.throws(() => skein512("", { kye: "x" }), /unknown option 'kye'/);
  assert.throws(() => skein512("", { key: 5 }), /key must be a Uint8Array/);
  assert.throws(() => skein512(42), /data must be/);
  assert.throws(() => skein512("", { tree: { leaf: 0, fanOut: 1, maxHeight: 2 } }), /tree parameters/);
  assert.throws(() => skein512("", { tree: { leaf: 1, fanOut: 1, maxHeight: 1 } }), /tree parameters/);
  assert.throws(() => skein512("", { tree: [1, 2] }), /tree must be/);
  assert.throws(() => skein512("", { bits: 2 ** 40 }), /longer than 1 GiB/);
  assert.throws(() => hashMany([""], { stateBits: 100 }), /stateBits/);
});

test("bit-length updates: wrong byte count or an update after a partial byte throw", () => {
  const oneBit = kat.find((e) => e.state === 512 && e.bits === 512 && e.msgBits === 1 && !e.key);
  const h = new Hasher(512);
  assert.throws(() => h.update(Uint8Array.of(1, 2), 3), /ceil\(bits \/ 8\) bytes/);
  h.update(oneBit.msg, 1);
  assert.throws(() => h.update(Uint8Array.of(1)), /partial byte/);
  assert.throws(() => h.update(Uint8Array.of(1), 8), /partial byte/);
  // The refused updates left the hasher as it was.
  assert.equal(toHex(h.digest()), toHex(oneBit.result));
});

test("the build init() loaded: SIMD128 in Node (which has it) unless the portable one is forced or SIMD128 hidden", () => {
  const portable = build === "portable" || build === "no-simd-engine";
  assert.equal(simdSupported(), build !== "no-simd-engine");
  assert.equal(backend(), portable ? "portable" : "simd128");
});

test("digest encodings: hex and base64 (against Node's Buffer)", () => {
  const h = new Hasher(512).update(byte8.msg);
  const digest = h.digest();
  assert.equal(toHex(digest), toHex(byte8.result));
  assert.equal(h.digest("hex"), Buffer.from(byte8.result).toString("hex"));
  assert.equal(h.digest("base64"), Buffer.from(byte8.result).toString("base64"));
  for (let n = 0; n < 70; n++) {
    const b = digest.subarray(0, n);
    assert.equal(toBase64(b), Buffer.from(b).toString("base64"), `${n} bytes`);
  }
  assert.throws(() => h.digest("utf8"), /digest encoding must be 'hex', 'base64'/);
  assert.throws(() => h.digest(null), /digest encoding/);
});
