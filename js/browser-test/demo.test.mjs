// The demo page in headless Chromium (Debian's, driven by playwright-core):
// a generated file through the page's file input gives the digest and the
// lines skeinsum prints for the same file.
//
// SKEIN_DEMO_MB: size of the big file (default 50); SKEINSUM: the skeinsum
// binary (default the root workspace's target/release/skeinsum, else its
// target/debug/skeinsum, which `cargo test --workspace` builds);
// CHROMIUM: the browser (default /usr/bin/chromium).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serve } from "./serve.mjs";

const MB = Number(process.env.SKEIN_DEMO_MB ?? 50);
const built = (profile) => fileURLToPath(new URL(`../../target/${profile}/skeinsum`, import.meta.url));
const SKEINSUM =
  process.env.SKEINSUM ?? (existsSync(built("release")) ? built("release") : built("debug"));
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
// Generous for 50 MB on a loaded 2-core machine.
const HASH_TIMEOUT_MS = 240_000;

let dir, server, browser, page;
const pageErrors = [];

/** A file of `bytes` pseudo-random bytes (xorshift32), written in 1 MiB pieces. */
function generate(path, bytes) {
  const piece = new Uint8Array(1 << 20);
  const words = new Uint32Array(piece.buffer);
  let x = 0x9e3779b9;
  const parts = [];
  for (let left = bytes; left > 0; left -= piece.length) {
    for (let i = 0; i < words.length; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      words[i] = x >>> 0;
    }
    parts.push(Buffer.from(piece.subarray(0, Math.min(left, piece.length))));
  }
  writeFileSync(path, Buffer.concat(parts));
}

function skeinsum(...args) {
  return execFileSync(SKEINSUM, args, { cwd: dir, encoding: "utf8" }).trimEnd();
}

before(async () => {
  assert.ok(existsSync(SKEINSUM), `skeinsum not found at ${SKEINSUM} (cargo build -p skeinsum, or set SKEINSUM)`);
  assert.ok(existsSync(CHROMIUM), `chromium not found at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM)`);
  dir = mkdtempSync(join(tmpdir(), "skein-demo-"));
  server = await serve();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    // A fresh profile per launch (playwright's own temporary one).
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  page = await browser.newPage();
  page.on("pageerror", (e) => pageErrors.push(e.message));
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Hash `name` in a freshly loaded page with these settings; the page's
 * digest and lines. (A fresh page: no earlier result is on it.) */
async function hashInPage(name, { state = "512", bits = "", key = "" } = {}) {
  await page.goto(`${server.url}demo/`);
  // The backend's name appears once the wasm module is loaded.
  await page.waitForFunction(() => !document.getElementById("backend").textContent.includes("loading"), null, {
    timeout: 60_000,
  });
  assert.deepEqual(pageErrors, []);
  await page.selectOption("#state", state);
  await page.fill("#bits", bits);
  await page.fill("#key", key);
  await page.setInputFiles("#file", join(dir, name));
  await page.waitForFunction(
    () => ["Done.", "Failed."].includes(document.getElementById("status").textContent),
    null,
    { timeout: HASH_TIMEOUT_MS, polling: 200 },
  );
  const read = (id) => page.$eval(id, (e) => e.value);
  return {
    status: await page.textContent("#status"),
    error: await page.textContent("#error"),
    digest: await read("#digest"),
    plain: await read("#line-plain"),
    tag: await read("#line-tag"),
    throughput: await page.textContent("#throughput"),
    progress: await page.$eval("#progress", (e) => e.value),
  };
}

test(`a ${MB} MB file: Skein-512-512 digest and line equal skeinsum's`, async () => {
  const name = `generated-${MB}MB.bin`;
  generate(join(dir, name), MB * 1e6);
  const shown = await hashInPage(name);
  assert.equal(shown.status, "Done.", shown.error);
  assert.equal(shown.plain, skeinsum(name));
  assert.equal(shown.digest, skeinsum(name).split(" ")[0]);
  assert.equal(shown.tag, skeinsum("--tag", name));
  assert.equal(shown.progress, 1);
  assert.match(shown.throughput, /MB\/s/);
});

test("Skein-1024-384 and Skein-256-160 with a key: --tag lines equal skeinsum's", async () => {
  // 3 MiB + 5: more than one 4 MiB piece is not needed for the settings, but
  // the length is not a multiple of any block.
  const name = "settings.bin";
  generate(join(dir, name), 3 * (1 << 20) + 5);
  const a = await hashInPage(name, { state: "1024", bits: "384" });
  assert.equal(a.tag, skeinsum("-a", "1024", "-l", "384", "--tag", name));
  const key = "000102030405060708090a0b0c0d0e0f1011";
  const b = await hashInPage(name, { state: "256", bits: "160", key });
  assert.equal(b.tag, skeinsum("-a", "256", "-l", "160", "--key-hex", key, "--tag", name));
  assert.equal(b.plain, skeinsum("-a", "256", "-l", "160", "--key-hex", key, name));
});

test("a bad key is a clear error on the page", async () => {
  const shown = await hashInPage("settings.bin", { key: "xyz" });
  assert.equal(shown.status, "Failed.");
  assert.match(shown.error, /^Key: /);
});
