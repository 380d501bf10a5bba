// The Node entry (node.js, what `import "skein-simd"` gives in Node): the
// whole API of index.js, and HashStream / hashStream over Node's streams,
// against the golden file's digests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import * as core from "../index.js";
import * as node from "skein-simd";
import { goldenKat } from "./vectors.mjs";

const { HashStream, createHashStream, hashStream, init, toHex } = node;
await init();
const golden = goldenKat().filter((e) => e.msgBits % 8 === 0 && e.msgBits > 0);

test("the package's name resolves to node.js in Node, with all of index.js", () => {
  for (const name of Object.keys(core)) assert.equal(node[name], core[name], name);
  assert.equal(typeof HashStream, "function");
});

test("hashStream of a file read in small pieces: golden digests", async () => {
  const dir = mkdtempSync(join(tmpdir(), "skein-stream-"));
  try {
    for (const e of golden.slice(0, 40)) {
      const file = join(dir, "m");
      writeFileSync(file, e.msg);
      const options = { bits: e.bits };
      if (e.key) options.key = e.key;
      if (e.tree) options.tree = e.tree;
      const digest = await hashStream(createReadStream(file, { highWaterMark: 7 }), e.state, options);
      assert.equal(toHex(digest), toHex(e.result), `Skein-${e.state}-${e.bits}, ${e.msgBits} bits`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("HashStream in a pipeline: digest(encoding) after it, the digest as its one chunk", async () => {
  const e = golden.find((x) => x.state === 1024 && !x.key && !x.tree);
  const pieces = Array.from({ length: e.msg.length }, (_, i) => Buffer.from(e.msg.subarray(i, i + 1)));
  const s = createHashStream(1024, { bits: e.bits });
  assert.throws(() => s.digest(), /no digest before its input ended/);
  const chunks = [];
  s.on("data", (c) => chunks.push(c));
  await pipeline(Readable.from(pieces), s);
  assert.equal(s.digest("hex"), toHex(e.result));
  assert.equal(s.digest("base64"), Buffer.from(e.result).toString("base64"));
  assert.deepEqual(new Uint8Array(s.digest()), e.result);
  assert.equal(Buffer.concat(chunks).toString("hex"), toHex(e.result));
  assert.throws(() => s.digest("latin1"), /digest encoding/);
});

test("strings written are hashed as UTF-8; bad options throw at construction", async () => {
  const s = new HashStream(256);
  await pipeline(Readable.from(["é", "abc"]), s);
  assert.equal(s.digest("hex"), toHex(node.skein256(Uint8Array.of(0xc3, 0xa9, 0x61, 0x62, 0x63))));
  assert.throws(() => new HashStream(384), /stateBits must be 256, 512 or 1024/);
  assert.throws(() => createHashStream(512, { kye: 1 }), /unknown option 'kye'/);
});

test("an error in the source rejects hashStream", async () => {
  async function* failing() {
    yield Buffer.from("abc");
    throw new Error("source broke");
  }
  await assert.rejects(hashStream(failing()), /source broke/);
});
