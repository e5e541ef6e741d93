#!/usr/bin/env node
/**
 * Bundles the CLI (dist/cli/main.js and every module of dist/ it requires; packages stay
 * external) into dist/bundle/kubetape.js with esbuild, writes the list of those modules beside it
 * (inputs.json: bin/load-cli.js loads the bundle only while none of them is newer), then makes the
 * V8 code cache (kubetape.js.cache): a child process starts an empty `kubetape serve` through
 * bin/load-cli.js and takes the cache once it listens, so it holds the code a start runs. Without
 * the cache (no local port, say) the bundle is still used, only compiled at each start.
 * `npm run build` runs it after tsc.
 *
 * A bundled module's `__dirname` is its own folder in dist/, as it was before bundling.
 *
 *   node scripts/build-cli.js           bundle, inputs, cache
 *   node scripts/build-cli.js --cache   the cache only (the child)
 */
const { build } = require('esbuild');
const { spawnSync } = require('node:child_process');
const { rmSync, writeFileSync } = require('node:fs');
const { readFile } = require('node:fs/promises');
const { dirname, join, relative } = require('node:path');

const root = join(__dirname, '..');
const { loadCli, BUNDLE, CACHE, INPUTS } = require(join(root, 'bin', 'load-cli.js'));
const DIST = join(root, 'dist');

/** `__dirname` in a module of dist/ becomes that module's folder, relative to the bundle's. */
const ownDirname = {
  name: 'own-dirname',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('__dirname')) return { contents: text, loader: 'js' };
      const rel = relative(dirname(BUNDLE), dirname(args.path)).split('\\').join('/');
      return { contents: text.replace(/\b__dirname\b/g, `require('node:path').join(__dirname, ${JSON.stringify(rel)})`), loader: 'js' };
    });
  },
};

async function bundle() {
  for (const file of [CACHE, INPUTS]) rmSync(file, { force: true });
  if (!process.features.require_module) {
    // bin/load-cli.js would not load a bundle on this Node (see there): dist/ is used as it is.
    rmSync(BUNDLE, { force: true });
    process.stdout.write(`build-cli: no bundle on Node ${process.version} (it cannot require() ES modules); the CLI loads dist/ module by module\n`);
    return;
  }
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(DIST, 'cli', 'main.js')],
    outfile: BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    plugins: [ownDirname],
    metafile: true,
    logLevel: 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs).map((p) => relative(DIST, join(root, p)).split('\\').join('/'));
  writeFileSync(INPUTS, `${JSON.stringify(inputs)}\n`);
  const child = spawnSync(process.execPath, [__filename, '--cache'], { encoding: 'utf8', timeout: 60_000 });
  if (child.status !== 0) {
    rmSync(CACHE, { force: true });
    process.stderr.write(`build-cli: no code cache (the CLI compiles its bundle at each start): ${(child.stderr || child.error?.message || `exit ${child.status}`).trim()}\n`);
  }
}

/** Starts an empty serve from the bundle and writes the code cache once it listens. */
async function cache() {
  const { cli, script } = loadCli();
  if (!script) throw new Error(`${BUNDLE} was not loaded (a module of dist/ is newer than it)`);
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk, ...rest) => {
    if (!String(chunk).includes(' listening on ')) return write(chunk, ...rest);
    writeFileSync(CACHE, script.createCachedData());
    // Closed as on Ctrl-C, so that the server removes its temporary kubeconfig.
    setImmediate(() => process.kill(process.pid, 'SIGTERM'));
    return true;
  };
  await cli.main(['serve', '--listen', '127.0.0.1:0', '--log-level', 'silent']);
}

(process.argv.includes('--cache') ? cache() : bundle()).catch((err) => {
  process.stderr.write(`build-cli: ${err.stack ?? err}\n`);
  process.exit(1);
});
