'use strict';
/**
 * How bin/kubetape.js loads the CLI. `npm run build` also makes dist/bundle/kubetape.js, the
 * modules of dist/ in one file (scripts/build-cli.js), and kubetape.js.cache beside it: V8's
 * compiled code of what `kubetape serve` runs while it starts. Reading one file and compiling
 * little halves a start. The bundle is loaded when it is at least as new as every module it was
 * made from (inputs.json beside it; after a `tsc` alone, the modules of dist/ are loaded as they
 * are) and when this Node can `require()` an ES module (20.19 and later, unless turned off): the
 * bundle then never reaches the `import()` that loads an ES-module-only package where `require`
 * cannot, and which a script compiled from a code cache cannot run. A cache V8 refuses (made by
 * another Node version) costs only the time it would have saved.
 */
const { readFileSync, statSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

const DIST = join(__dirname, '..', 'dist');
const BUNDLE = join(DIST, 'bundle', 'kubetape.js');
const CACHE = `${BUNDLE}.cache`;
const INPUTS = join(DIST, 'bundle', 'inputs.json');
const MODULES = join(DIST, 'cli', 'main.js');

function bundleIsCurrent() {
  if (!process.features.require_module) return false;
  try {
    const made = statSync(BUNDLE).mtimeMs;
    const inputs = JSON.parse(readFileSync(INPUTS, 'utf8'));
    return inputs.length > 0 && inputs.every((file) => statSync(join(DIST, file)).mtimeMs <= made);
  } catch {
    return false;
  }
}

/** The CLI's exports (`main`); `script`: the bundle's compiled script, when the bundle was loaded. */
function loadCli() {
  if (!bundleIsCurrent()) return { cli: require(MODULES) };
  const source = readFileSync(BUNDLE, 'utf8');
  let cachedData;
  try {
    cachedData = readFileSync(CACHE);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: BUNDLE, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(BUNDLE), module, BUNDLE, dirname(BUNDLE));
  return { cli: module.exports, script };
}

module.exports = { loadCli, BUNDLE, CACHE, INPUTS };
