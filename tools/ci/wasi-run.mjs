// Cargo runner for wasm32-wasip1 (CARGO_TARGET_WASM32_WASIP1_RUNNER):
// `node tools/ci/wasi-run.mjs MODULE.wasm [ARGS...]` runs a WASI command
// module under Node's node:wasi with the arguments and environment cargo
// gives it and exits with the module's exit code.
//
// Preopened directories (guest path = host path, so that paths the tests
// build from env!("CARGO_MANIFEST_DIR") work unchanged): the package
// directory cargo runs the module in (CARGO_MANIFEST_DIR, for the golden
// file and the sources the list tests read), the directory of the module,
// and a fresh temporary directory, passed as TMPDIR and removed afterwards.
import { readFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { WASI } from "node:wasi";

const [module, ...args] = process.argv.slice(2);
if (!module) {
  console.error("wasi-run.mjs: usage: wasi-run.mjs MODULE.wasm [ARGS...]");
  process.exit(2);
}
const path = resolve(module);
const temp = await mkdtemp(join(tmpdir(), "skein-wasi-"));
const preopens = { [temp]: temp, [dirname(path)]: dirname(path) };
const manifest = process.env.CARGO_MANIFEST_DIR;
if (manifest) {
  preopens[resolve(manifest)] = resolve(manifest);
}

let code;
try {
  const wasi = new WASI({
    version: "preview1",
    args: [path, ...args],
    env: { ...process.env, TMPDIR: temp },
    preopens,
    returnOnExit: true,
  });
  let bytes;
  try {
    bytes = await readFile(path);
  } catch (e) {
    console.error(`wasi-run.mjs: ${path}: ${e.message}`);
    process.exit(2);
  }
  const compiled = await WebAssembly.compile(bytes);
  const instance = await WebAssembly.instantiate(compiled, wasi.getImportObject());
  try {
    code = wasi.start(instance);
  } catch (e) {
    // A trap (a Rust panic with panic=abort is `unreachable`): a failure.
    console.error(`wasi-run.mjs: ${path}: ${e}`);
    code = 134;
  }
} finally {
  await rm(temp, { recursive: true, force: true });
}
process.exit(code);
