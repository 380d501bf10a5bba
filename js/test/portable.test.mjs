// The portable build (no SIMD128) gives the same digests: the known-answer
// test files run again in child processes, once with the portable build
// forced (init({simd: false})) and once in an engine made to look as if it
// lacked SIMD128 (WebAssembly.validate refusing the probe), where init()
// must fall back by itself. test/setup.mjs reads SKEIN_JS_BUILD.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL(".", import.meta.url));

function run(build, files) {
  // Without the parent runner's NODE_TEST_CONTEXT: a child that has it
  // runs no file.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const r = spawnSync(process.execPath, ["--test", ...files], {
    cwd: dir,
    env: { ...env, SKEIN_JS_BUILD: build },
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  const out = r.stdout + r.stderr;
  assert.equal(r.status, 0, `SKEIN_JS_BUILD=${build} node --test ${files.join(" ")}:\n${out}`);
  // Every file ran tests (the api file checks the backend is the portable one).
  assert.match(out, /# fail 0/);
  assert.doesNotMatch(out, /# pass 0\b/);
}

test("the portable build forced: golden file, pyskein vectors, output lengths, saved states, API", () => {
  run("portable", [
    "api.test.mjs",
    "golden-kat.test.mjs",
    "pyskein.test.mjs",
    "output-lengths.test.mjs",
    "state.test.mjs",
  ]);
});

test("an engine without SIMD128: init() falls back to the portable build", () => {
  run("no-simd-engine", ["api.test.mjs", "golden-kat.test.mjs"]);
});
