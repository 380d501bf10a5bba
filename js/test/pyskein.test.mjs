// Outputs of pyskein 1.0 (data/make_pyskein_vectors.py): every argument,
// tree hashing, long outputs through the reader, hashMany.
import { test } from "node:test";
import assert from "node:assert/strict";
import "./setup.mjs";
import { Hasher, hashMany, skein1024, skein256, skein512, toHex } from "../index.js";
import { message, options, outputSlices, pyskeinVectors } from "./vectors.mjs";


const v = pyskeinVectors();
const oneShot = { 256: skein256, 512: skein512, 1024: skein1024 };

test("vectors were made by pyskein 1.0", () => {
  assert.equal(v.pyskein, "1.0");
  assert.ok(v.cases.length > 300 && v.xof.length === 18 && v.hash_many.length === 9);
});

test("one-shot skein256/512/1024 with key, personalization, nonce, public key, key id, tree", () => {
  for (const c of v.cases) {
    const d = oneShot[c.state](message(...c.msg), options(c.args, c.bits));
    assert.equal(toHex(d), c.digest, JSON.stringify({ ...c, digest: undefined }));
  }
});

test("streaming in uneven pieces equals pyskein", () => {
  for (const c of v.cases) {
    const m = message(...c.msg);
    const h = new Hasher(c.state, options(c.args, c.bits));
    // Pieces of 1, 2, 3, ... bytes: block boundaries fall everywhere.
    for (let at = 0, step = 1; at < m.length; at += step, step++) h.update(m.subarray(at, at + step));
    assert.equal(h.hexdigest(), c.digest);
    h.free();
  }
});

test("digest() leaves the hasher going; copy() is independent", () => {
  const c = v.cases.find((x) => x.msg[0] === 1000 && x.state === 512);
  const m = message(...c.msg);
  const h = new Hasher(512, options(c.args, c.bits)).update(m.subarray(0, 500));
  const early = h.copy();
  h.digest();
  h.update(m.subarray(500));
  early.update(m.subarray(500));
  assert.equal(h.hexdigest(), c.digest);
  assert.equal(early.hexdigest(), c.digest);
});

test("output reader: prefixes and far slices of a 2**64 - 1 bit output", () => {
  for (const x of v.xof) {
    const h = new Hasher(x.state, options(x.args, 2n ** 64n - 1n));
    h.update(message(...x.msg));
    const r = h.xof();
    assert.equal(r.length, 2n ** 61n); // ceil((2**64 - 1) / 8) bytes
    r.seek(BigInt(x.start));
    // In two reads of uneven size: the second starts inside a block.
    const n = x.stop - x.start;
    const a = r.read(Math.floor(n / 3));
    const b = r.read(n - a.length);
    assert.equal(r.position, BigInt(x.stop));
    assert.equal(toHex(a) + toHex(b), x.output, `Skein-${x.state} at ${x.start}`);
    r.free();
  }
});

test("output reader: the repository's windows of outputs up to 2**64 - 1 bits", () => {
  const slices = outputSlices();
  assert.equal(slices.length, 675);
  for (const x of slices) {
    const o = { bits: x.bits };
    if (x.key) o.key = x.key;
    if (x.nonce) o.nonce = x.nonce;
    if (x.tree) o.tree = x.tree;
    const r = new Hasher(x.state, o).update(x.msg).xof();
    r.seek(x.start);
    // A window that ends with the output has the unused low bits of its
    // last byte cleared, as pyskein gives them.
    const got = r.read(Number(x.stop - x.start));
    assert.equal(toHex(got), x.output, `Skein-${x.state}-${x.bits} ${x.start}..${x.stop} (${x.source})`);
    r.free();
  }
});

test("output reader stops at the end of a short output", () => {
  const c = v.cases.find((x) => x.bits === 1000 && x.state === 1024);
  const r = new Hasher(1024, options(c.args, 1000)).update(message(...c.msg)).xof();
  assert.equal(r.length, 125n);
  assert.equal(toHex(r.read(1000)), c.digest);
  assert.equal(r.read(10).length, 0);
});

test("hashMany equals pyskein message by message", () => {
  for (const g of v.hash_many) {
    const msgs = g.msgs.map((m) => message(...m));
    const out = hashMany(msgs, { stateBits: g.state, ...options(g.args, g.bits) });
    assert.deepEqual(out.map(toHex), g.digests);
  }
  assert.deepEqual(hashMany([]), []);
});
