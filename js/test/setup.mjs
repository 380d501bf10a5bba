// Loads the package's WebAssembly for a test file (imported first by each).
// SKEIN_JS_BUILD picks the build the tests run on:
//   unset           init() as users call it (SIMD128 where the engine has it);
//   simd128         init({simd: true});
//   portable        init({simd: false}): the portable build forced;
//   no-simd-engine  init() in an engine made to look as if it had no SIMD128
//                   (WebAssembly.validate answers false, as an engine without
//                   SIMD128 does for the probe): the fallback chosen by
//                   detection.
import { init } from "../index.js";

export const build = process.env.SKEIN_JS_BUILD ?? "";
switch (build) {
  case "":
    await init();
    break;
  case "simd128":
  case "portable":
    await init({ simd: build === "simd128" });
    break;
  case "no-simd-engine":
    WebAssembly.validate = () => false;
    await init();
    break;
  default:
    throw new Error(`setup.mjs: unknown SKEIN_JS_BUILD '${build}'`);
}
