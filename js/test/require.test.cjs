// require("skein-simd"): the CommonJS build (dist/node.cjs, through the
// package's own "exports", as a user's require resolves it), in every Node
// the package claims (tools/ci/js-test.sh runs this file on the oldest too).
// Expected digests: the golden file's.
"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const { readFileSync } = require("node:fs");
const { join } = require("node:path");
const { Readable } = require("node:stream");
const skein = require("skein-simd");

/** The golden file's first entry of Skein-`state`-`bits` of `msgBits`
 * bits, without key or tree: {msg, result} as bytes. */
function golden(state, bits, msgBits) {
  const text = readFileSync(join(__dirname, "../../tests/data/skein_golden_kat.txt"), "latin1").replace(/\r\n/g, "\n");
  for (const block of text.split("--------------------------------")) {
    const head = new RegExp(`:Skein-${state}:\\s+${bits}-bit hash, msgLen =\\s*${msgBits} bits, data`);
    if (!head.test(block) || block.includes("MAC key")) continue;
    const section = (name) => {
      const lines = block.split(name)[1].split("\n").slice(1);
      const hex = [];
      for (const l of lines) {
        if (!l.startsWith(" ")) break;
        if (!l.trim().startsWith("(none)")) hex.push(l.replace(/\s+/g, ""));
      }
      return Uint8Array.from(Buffer.from(hex.join(""), "hex"));
    };
    return { msg: section("Message data:"), result: section("Result:") };
  }
  throw new Error(`no golden entry Skein-${state}-${bits} of ${msgBits} bits`);
}

test("require() gives the CommonJS build; init(), then the synchronous API", async () => {
  assert.equal(require.resolve("skein-simd"), join(__dirname, "../dist/node.cjs"));
  assert.throws(() => skein.skein512("abc"), /init\(\) first/);
  await skein.init();
  assert.equal(skein.backend(), skein.simdSupported() ? "simd128" : "portable");
  const e = golden(512, 512, 64);
  assert.equal(skein.toHex(skein.skein512(e.msg)), skein.toHex(e.result));
  const h = new skein.Hasher(512).update(e.msg.subarray(0, 3));
  const resumed = skein.Hasher.importState(h.exportState()).update(e.msg.subarray(3));
  assert.equal(resumed.digest("hex"), skein.toHex(e.result));
  assert.equal(resumed.digest("base64"), Buffer.from(e.result).toString("base64"));
  assert.equal(skein.toHex(skein.hashMany([e.msg, e.msg])[1]), skein.toHex(e.result));
  const streamed = await skein.hashStream(Readable.from([Buffer.from(e.msg)]), 512);
  assert.equal(skein.toHex(streamed), skein.toHex(e.result));
});

test("the Node build shares the browser-safe CommonJS build (dist/index.cjs), which requires nothing of Node", () => {
  const browser = require("../dist/index.cjs");
  assert.equal(browser.skein512, skein.skein512);
  assert.equal(browser.HashStream, undefined);
  assert.doesNotMatch(readFileSync(join(__dirname, "../dist/index.cjs"), "utf8"), /require\(["'](node:|stream|fs|path)/);
});
