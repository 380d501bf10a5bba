// Saved states: exportState() gives the bytes of tests/data/saved_states.txt
// (which the Rust suite makes and checks, tests/suite/saved_state_vectors.rs,
// and the Python package's pickles hold too), and Hasher.importState()
// resumes from them to the line's digest (the plain Skein of the Rust test
// support, and pyskein in the Python test). Malformed states throw errors
// that say what is wrong.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import "./setup.mjs";
import { Hasher, toHex } from "../index.js";
import { goldenKat, hexBytes } from "./vectors.mjs";

const lines = readFileSync(new URL("../../tests/data/saved_states.txt", import.meta.url), "utf8")
  .split("\n")
  .filter((l) => l && !l.startsWith("#"))
  .map((l) => {
    const [state, bits, key, tree, length, cut, saved, digest] = l.split(" ");
    const options = { bits: Number(bits) };
    if (key !== "-") options.key = hexBytes(key);
    if (tree !== "-") options.tree = tree.split(",").map(Number);
    const msg = new Uint8Array(Number(length)).map((_, i) => (7 * i + 3) % 256);
    return { state: Number(state), bits: Number(bits), options, msg, cut: Number(cut), saved, digest };
  });

test("the committed states: the same bytes saved, resumed to the digest", () => {
  assert.equal(lines.length, 12);
  for (const l of lines) {
    const what = `Skein-${l.state}-${l.bits} cut ${l.cut}`;
    const h = new Hasher(l.state, l.options).update(l.msg.subarray(0, l.cut));
    assert.equal(toHex(h.exportState()), l.saved, what);
    const resumed = Hasher.importState(hexBytes(l.saved));
    assert.equal(resumed.stateBits, l.state, what);
    resumed.update(l.msg.subarray(l.cut));
    assert.equal(resumed.hexdigest(), l.digest, what);
    // The original goes on alike.
    assert.equal(h.update(l.msg.subarray(l.cut)).hexdigest(), l.digest, what);
    h.free();
    resumed.free();
  }
});

test("a state saved mid-stream resumes in a new hasher: every golden entry cut in two", () => {
  for (const e of goldenKat()) {
    const options = { bits: e.bits };
    if (e.key) options.key = e.key;
    if (e.tree) options.tree = e.tree;
    const whole = e.msgBits >> 3;
    const cut = whole >> 1;
    const h = new Hasher(e.state, options).update(e.msg.subarray(0, cut));
    const resumed = Hasher.importState(h.exportState().buffer);
    h.free();
    resumed.update(e.msg.subarray(cut), e.msgBits - 8 * cut);
    // A partial byte ended the message: the saved state says so.
    const again = Hasher.importState(resumed.exportState());
    if (e.msgBits % 8) assert.throws(() => again.update("x"), /partial byte/);
    assert.equal(again.hexdigest(), toHex(e.result), `Skein-${e.state}-${e.bits}, ${e.msgBits} bits`);
    resumed.free();
    again.free();
  }
});

test("malformed states: an Error naming what is wrong; bad types: TypeError", () => {
  const good = new Hasher(512, { bits: 256 }).update("abc").exportState();
  const bad = (bytes, message) => assert.throws(() => Hasher.importState(bytes), message);
  bad(new Uint8Array(0), /^Error: skein: saved Skein state is truncated$/);
  bad(new TextEncoder().encode("NOT-A-STATE........"), /not a saved Skein state \(bad magic\)/);
  bad(good.subarray(0, good.length - 1), /truncated/);
  bad(Uint8Array.of(...good, 0), /trailing bytes/);
  const version = good.slice();
  version[8] = 2;
  bad(version, /format version 2; this build reads version 1/);
  const flags = good.slice();
  flags[10] = 0x80;
  bad(flags, /invalid saved Skein state: unknown flag bits/);
  bad(new Uint8Array((1 << 20) + 1), /not a saved Skein state \(longer than any\)/);
  assert.throws(() => Hasher.importState(toHex(good)), TypeError);
  assert.throws(() => Hasher.importState(5), TypeError);
  // The module works on after them.
  assert.equal(Hasher.importState(good).digest().length, 32);
});

test("a freed hasher cannot save its state", () => {
  const h = new Hasher(256);
  h.free();
  assert.throws(() => h.exportState(), /used after free/);
});
