// The hostile calls with garbage collection in between (hostile-gc.mjs,
// which needs `node --expose-gc`, run as a child process): no finalizer may
// throw, the process exits 0 and the digests are pyskein 1.0's
// (tests/data/pyskein_output_lengths.txt).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { outputLengths } from "./vectors.mjs";

const digest = (state, bits) => outputLengths().find((c) => c.state === state && c.bits === bits && !c.key).digest;

test("hostile calls, dropped objects and gc(): exit 0 and correct digests", () => {
  const script = fileURLToPath(new URL("hostile-gc.mjs", import.meta.url));
  const run = spawnSync(process.execPath, ["--expose-gc", script], { encoding: "utf8" });
  assert.equal(run.status, 0, `exit ${run.status} ${run.signal ?? ""}\n${run.stderr}`);
  assert.equal(run.stderr, "");
  const abc = digest(512, 512);
  assert.deepEqual(JSON.parse(run.stdout), {
    skein512: abc,
    hasher: abc,
    hashMany: [abc, abc, abc],
    bits9: digest(512, 9),
    unexpected: [],
  });
});
