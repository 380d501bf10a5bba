// The official Skein 1.3 golden known-answer file through the package:
// an independent source (tests/data/README.md gives its origin).
import { test } from "node:test";
import assert from "node:assert/strict";
import "./setup.mjs";
import { Hasher, skein, toHex } from "../index.js";
import { goldenKat } from "./vectors.mjs";


const entries = goldenKat();

function options(e) {
  const o = { bits: e.bits };
  if (e.key) o.key = e.key;
  if (e.tree) o.tree = { leaf: e.tree[0], fanOut: e.tree[1], maxHeight: e.tree[2] };
  return o;
}

test("the golden file has its 491 entries", () => {
  assert.equal(entries.length, 491);
});

test("streaming hasher with bit lengths: every golden entry", () => {
  let checked = 0;
  for (const e of entries) {
    const h = new Hasher(e.state, options(e));
    h.update(e.msg, e.msgBits);
    assert.equal(h.hexdigest(), toHex(e.result), `Skein-${e.state}-${e.bits}, ${e.msgBits} bits`);
    h.free();
    checked++;
  }
  assert.equal(checked, 491);
});

test("one-shot: every golden entry of whole bytes", () => {
  const whole = entries.filter((e) => e.msgBits % 8 === 0);
  // The file's byte-aligned entries (the other 204 end in a partial byte).
  assert.equal(whole.length, 287);
  for (const e of whole) {
    const d = skein(e.state, e.msg, options(e));
    assert.equal(toHex(d), toHex(e.result), `Skein-${e.state}-${e.bits}, ${e.msgBits} bits`);
  }
});
