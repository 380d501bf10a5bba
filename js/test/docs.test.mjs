// What the package's documents claim about running it: the Node version in
// package.json's engines, js/README.md and docs/javascript.md agree, and the
// steps to run the browser test include npm ci (it installs playwright-core).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const read = (p) => readFileSync(new URL(p, import.meta.url), "utf8");
const pkg = JSON.parse(read("../package.json"));
const readme = read("../README.md");
const guide = read("../../docs/javascript.md");

test("one Node version: package.json engines, README, docs/javascript.md", () => {
  const major = Number(/^>=(\d+)$/.exec(pkg.engines.node)?.[1]);
  assert.equal(major, 18);
  assert.match(readme, new RegExp(`Node \\(${major} and\\s+later`));
  assert.match(guide, new RegExp(`Node \\(${major} and\\s+later`));
  for (const text of [readme, guide]) {
    for (const m of text.matchAll(/Node \((\d+) and/g)) assert.equal(Number(m[1]), major);
  }
  assert.ok(Number(process.versions.node.split(".")[0]) >= major, "tests run on a supported Node");
});

test("the browser test's steps say npm ci", () => {
  assert.ok(pkg.devDependencies["playwright-core"]);
  assert.match(guide, /npm ci[^\n]*\n[\s\S]*npm run test:browser/);
  assert.match(readme, /npm ci[\s\S]*test:browser/);
});

test("backend()'s documented values", () => {
  assert.match(guide, /`backend\(\)` is the string `"simd128"`[^|]*`"portable"`/);
  assert.doesNotMatch(guide + read("../index.d.ts"), /hashMany: simd128/);
});
