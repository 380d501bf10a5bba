// init(): every call before it throws a clear error; its options; a second
// call returns the first's promise and refuses to switch builds. (No
// setup.mjs here: this file needs the module before init().)
import { test } from "node:test";
import assert from "node:assert/strict";
import { Hasher, backend, hashMany, init, skein512, toHex } from "../index.js";
import { goldenKat } from "./vectors.mjs";

const NOT_READY = /^Error: skein: call \(and await\) init\(\) first$/;

test("before init(): every call that needs the WebAssembly throws", () => {
  assert.throws(() => skein512("abc"), NOT_READY);
  assert.throws(() => new Hasher(512), NOT_READY);
  assert.throws(() => Hasher.importState(new Uint8Array(8)), NOT_READY);
  assert.throws(() => hashMany(["abc"]), NOT_READY);
  assert.throws(() => backend(), NOT_READY);
  // The helpers need none.
  assert.equal(toHex(Uint8Array.of(1, 255)), "01ff");
});

test("init()'s options are checked", async () => {
  await assert.rejects(init({ simd: "yes" }), /simd must be true, false or undefined/);
  await assert.rejects(init({ smid: true }), /unknown init option 'smid'/);
  await assert.rejects(init(5), /options must be an object/);
});

test("init() loads once; asking for the other build afterwards is refused", async () => {
  const first = init();
  assert.equal(init(), first);
  await first;
  assert.equal(init({ simd: true }), first);
  await assert.rejects(init({ simd: false }), /already loaded the simd128 build/);
  const empty = goldenKat().find((e) => e.state === 512 && e.bits === 512 && e.msgBits === 0 && !e.key);
  assert.equal(toHex(skein512("")), toHex(empty.result));
});
