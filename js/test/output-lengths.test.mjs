// Every output length from 1 to 1100 bits through every entry point, against
// pyskein 1.0 (tests/data/pyskein_output_lengths.txt): a length that is not
// a multiple of 8 ends in a partial byte whose unused low bits are zero.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import "./setup.mjs";
import { Hasher, hashMany, skein, skein1024, skein512, toHex } from "../index.js";
import { outputLengths } from "./vectors.mjs";


const cases = outputLengths();
const opts = (c) => (c.key ? { bits: c.bits, key: c.key } : { bits: c.bits });
const label = (c) => `Skein-${c.state}-${c.bits}${c.key ? " keyed" : ""}`;

test("the file holds 1..1100 bits for each state size and keyed Skein-512", () => {
  assert.equal(cases.length, 4 * 1100);
  // pyskein's own figures: Skein-512 of "abc" at 1 and 9 bits.
  const plain512 = (bits) => cases.find((c) => c.state === 512 && c.bits === bits && !c.key);
  assert.equal(plain512(1).digest, "00");
  assert.equal(plain512(9).digest, "dc80");
});

test("one-shot skein() at every length", () => {
  for (const c of cases) assert.equal(toHex(skein(c.state, c.msg, opts(c))), c.digest, label(c));
  assert.equal(toHex(skein512("abc", { bits: 1 })), "00");
  assert.equal(toHex(skein512("abc", { bits: 9 })), "dc80");
});

test("Hasher digest() and hexdigest() at every length, and again after more input", () => {
  for (const c of cases) {
    const h = new Hasher(c.state, opts(c));
    h.update(c.msg.subarray(0, 1)).update(c.msg.subarray(1));
    assert.equal(toHex(h.digest()), c.digest, label(c));
    assert.equal(h.hexdigest(), c.digest, label(c));
    assert.equal(h.copy().hexdigest(), c.digest, label(c));
    h.free();
  }
});

test("hashMany at every length, each digest of a group", () => {
  for (const c of cases) {
    const out = hashMany([c.msg, c.msg, c.msg], { stateBits: c.state, ...opts(c) });
    assert.deepEqual(out.map(toHex), [c.digest, c.digest, c.digest], label(c));
  }
});

test("output reader at every length: whole, byte by byte, and a seek onto the last byte", () => {
  for (const c of cases) {
    const h = new Hasher(c.state, opts(c)).update(c.msg);
    const r = h.xof();
    const len = c.digest.length / 2;
    assert.equal(r.length, BigInt(len));
    assert.equal(toHex(r.read(len + 5)), c.digest, label(c));
    r.seek(0);
    let bytes = "";
    for (let i = 0; i < len; i++) bytes += toHex(r.read(1));
    assert.equal(bytes, c.digest, label(c));
    assert.equal(toHex(r.seek(len - 1).read(1)), c.digest.slice(-2), label(c));
    assert.equal(toHex(r.seek(BigInt(Math.max(0, len - 3))).read(10)), c.digest.slice(-6), label(c));
    r.free();
    h.free();
  }
});

// Outputs and messages longer than the package's 1 MiB pieces go to and from
// wasm in several calls; figures from pyskein 1.0:
//   d = skein.skein512(b"abc", digest_bits=8 * 2**21 + 3).digest()
//   len(d), hashlib.sha256(d).hexdigest(), d[-4:].hex()
//   m = bytes((7 * i + 3) % 256 for i in range(3 * 2**20 + 5))
//   skein.skein512(m, digest_bits=260).hexdigest()
//   skein.skein1024(m, digest_bits=1033, key=bytes(range(32))).hexdigest()
const LONG_OUT = { bits: 8 * 2 ** 21 + 3, bytes: 2 ** 21 + 1, tail: "c748d800" };
const LONG_OUT_SHA256 = "9193d168c015a1f76cd00ce9cf864430717e2779f8bc5b20ea9d2f9244e9feeb";
const LONG_MSG_512_260 = "3d22fc339a35040f1c780557771e0a63e528f6a48114d0a7563f9fac407c1a3ab0";
const LONG_MSG_1024_1033_KEYED =
  "427f6af81f010976095af1a7d0e3182105b3b134024248a128887b57220c1403d9d3f7a2eec46b6f03504caa9d411ebe" +
  "8b51f9bd0a5efbef3a35e8315691f6652243cbfe9d98706f11724ffab8907cdfc443ac91c2bce270f4cfea4b4e04ceeb" +
  "4c075e442958ca4392235359c6b5392019de738e0532038e245248c910f4d320da00";

test("outputs longer than a piece: one-shot, digest(), read(), hashMany", () => {
  const sha = (d) => createHash("sha256").update(d).digest("hex");
  const check = (d, what) => {
    assert.equal(d.length, LONG_OUT.bytes, what);
    assert.equal(toHex(d.subarray(-4)), LONG_OUT.tail, what);
    assert.equal(sha(d), LONG_OUT_SHA256, what);
  };
  check(skein512("abc", { bits: LONG_OUT.bits }), "skein512");
  const h = new Hasher(512, { bits: LONG_OUT.bits }).update("abc");
  check(h.digest(), "digest");
  check(h.xof().read(LONG_OUT.bytes + 100), "read");
  for (const d of hashMany(["abc", "abc"], { bits: LONG_OUT.bits })) check(d, "hashMany");
});

test("messages longer than a piece: one-shot, update(), update(data, bits), hashMany", () => {
  const m = new Uint8Array(3 * 2 ** 20 + 5).map((_, i) => (7 * i + 3) % 256);
  const key = new Uint8Array(32).map((_, i) => i);
  assert.equal(toHex(skein512(m, { bits: 260 })), LONG_MSG_512_260);
  assert.equal(toHex(skein1024(m, { bits: 1033, key })), LONG_MSG_1024_1033_KEYED);
  assert.equal(new Hasher(512, { bits: 260 }).update(m).hexdigest(), LONG_MSG_512_260);
  assert.equal(new Hasher(512, { bits: 260 }).update(m, m.length * 8).hexdigest(), LONG_MSG_512_260);
  const out = hashMany(["x", m, "y", m], { stateBits: 1024, bits: 1033, key });
  assert.equal(toHex(out[1]), LONG_MSG_1024_1033_KEYED);
  assert.equal(toHex(out[3]), LONG_MSG_1024_1033_KEYED);
  assert.equal(toHex(out[0]), toHex(skein1024("x", { bits: 1033, key })));
});
