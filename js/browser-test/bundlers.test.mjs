// The package as a user's bundler takes it: `npm pack` of js/, unpacked as
// node_modules/skein-simd of a scratch project holding browser-test/page/;
// the page bundled with esbuild (its defaults: an IIFE bundle), vite and
// webpack, each with no configuration but where its files go; each bundle
// served on 127.0.0.1 and loaded in headless Chromium (Debian's, driven by
// playwright-core), with SIMD128 detected and with the portable build
// forced (`#portable`, which the bundlers that split chunks load lazily).
// The page's digest and the golden file's entries hashed in the page must
// be the golden file's.
//
// CHROMIUM: the browser (default /usr/bin/chromium).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { build as esbuild } from "esbuild";
import { build as vite } from "vite";
import webpack from "webpack";
import { serve } from "./serve.mjs";
import { goldenKat } from "../test/vectors.mjs";

const JS = fileURLToPath(new URL("..", import.meta.url));
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const kat = goldenKat();
// The byte-aligned entries (the page gets whole bytes), as plain arrays.
const entries = kat
  .filter((e) => e.msgBits % 8 === 0)
  .map((e) => ({ state: e.state, bits: e.bits, msg: [...e.msg], key: e.key && [...e.key], tree: e.tree, result: e.result }));
const EMPTY_512 = kat.find((e) => e.state === 512 && e.bits === 512 && e.msgBits === 0 && !e.key);
const hex = (b) => Buffer.from(b).toString("hex");

let app, browser;
const CLASSIC_PAGE = (title) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>` +
  '<p>Backend: <span id="backend">loading</span></p><p><code id="digest"></code></p><p id="error"></p>' +
  '<script src="main.js"></script></body></html>';

before(async () => {
  assert.ok(existsSync(CHROMIUM), `chromium not found at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM)`);
  app = mkdtempSync(join(tmpdir(), "skein-bundlers-"));
  // The package as published: npm pack (its `files`), unpacked.
  const [{ filename }] = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--pack-destination", app], { cwd: JS, encoding: "utf8" }),
  );
  const pkg = join(app, "node_modules/skein-simd");
  mkdirSync(pkg, { recursive: true });
  execFileSync("tar", ["-xzf", join(app, filename), "-C", pkg, "--strip-components=1"]);
  cpSync(join(JS, "browser-test/page"), app, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
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
});

after(async () => {
  await browser?.close();
  if (app) rmSync(app, { recursive: true, force: true });
});

/** Loads `dir`'s index.html (with `hash`) and checks the page's digests. */
async function check(dir, hash, backend) {
  const server = await serve(0, dir);
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  try {
    await page.goto(`${server.url}index.html${hash}`);
    await page.waitForFunction(() => document.getElementById("backend").textContent !== "loading" || document.getElementById("error").textContent, null, { timeout: 60_000 });
    assert.equal(await page.textContent("#error"), "");
    assert.deepEqual(errors, []);
    assert.equal(await page.textContent("#backend"), backend);
    assert.equal(await page.textContent("#digest"), hex(EMPTY_512.result));
    const got = await page.evaluate((list) => {
      const { skein, toHex } = window.skeinPage;
      return list.map((e) => {
        const options = { bits: e.bits };
        if (e.key) options.key = new Uint8Array(e.key);
        if (e.tree) options.tree = e.tree;
        return toHex(skein(e.state, new Uint8Array(e.msg), options));
      });
    }, entries);
    assert.equal(got.length, 287);
    for (let i = 0; i < got.length; i++) assert.equal(got[i], hex(entries[i].result), `golden entry ${i}`);
  } finally {
    await page.close();
    await server.close();
  }
}

async function both(dir) {
  await check(dir, "", "simd128");
  await check(dir, "#portable", "portable");
}

test("esbuild: main.js --bundle (an IIFE for the browser)", async () => {
  const out = join(app, "dist-esbuild");
  await esbuild({ entryPoints: [join(app, "main.js")], bundle: true, outdir: out, absWorkingDir: app, logLevel: "warning" });
  writeFileSync(join(out, "index.html"), CLASSIC_PAGE("esbuild"));
  await both(out);
});

test("vite build (index.html and its module)", async () => {
  const out = join(app, "dist-vite");
  await vite({ root: app, configFile: false, logLevel: "warn", build: { outDir: out } });
  await both(out);
  // The portable module is a chunk of its own, loaded only when chosen.
  assert.ok(readdirSync(join(out, "assets")).filter((f) => f.endsWith(".js")).length >= 3);
});

test("webpack (production mode, the entry and where it goes only)", async () => {
  const out = join(app, "dist-webpack");
  const stats = await new Promise((resolve, reject) =>
    webpack(
      { mode: "production", context: app, entry: "./main.js", output: { path: out, filename: "main.js" } },
      (e, s) => (e ? reject(e) : resolve(s)),
    ),
  );
  assert.ok(!stats.hasErrors(), stats.toString("errors-only"));
  writeFileSync(join(out, "index.html"), CLASSIC_PAGE("webpack"));
  await both(out);
  assert.ok(readdirSync(out).filter((f) => f.endsWith(".js")).length >= 3);
});
