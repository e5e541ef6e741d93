#!/usr/bin/env node
/**
 * Bundles the CLI (dist/cli/main.js and every module of dist/ it requires; packages stay
 * external) into dist/bundle/kubetape.js with esbuild, then makes the V8 code cache beside it
 * (kubetape.js.cache): an empty `kubetape serve` is started in this process through
 * bin/load-cli.js, and the cache is taken once it listens, so it holds the code a start runs.
 * `npm run build` runs it after tsc; bin/load-cli.js says when the bundle is used.
 *
 * A bundled module's `__dirname` is its own folder in dist/, as it was before bundling.
 */
const { build } = require('esbuild');
const { readFile, rmSync, writeFileSync } = require('node:fs');
const { dirname, join, relative } = require('node:path');

const root = join(__dirname, '..');
const { BUNDLE, CACHE } = require(join(root, 'bin', 'load-cli.js'));

/** `__dirname` in a module of dist/ becomes that module's folder, relative to the bundle's. */
const ownDirname = {
  name: 'own-dirname',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, async (args) => {
      const text = await new Promise((res, rej) => readFile(args.path, 'utf8', (err, t) => (err ? rej(err) : res(t))));
      if (!text.includes('__dirname')) return { contents: text, loader: 'js' };
      const rel = relative(dirname(BUNDLE), dirname(args.path)).split('\\').join('/');
      return { contents: text.replace(/\b__dirname\b/g, `require('node:path').join(__dirname, ${JSON.stringify(rel)})`), loader: 'js' };
    });
  },
};

async function main() {
  rmSync(CACHE, { force: true });
  if (!process.features.require_module) {
    // bin/load-cli.js would not load a bundle on this Node (see there): dist/ is used as it is.
    rmSync(BUNDLE, { force: true });
    process.stdout.write(`build-cli: no bundle on Node ${process.version} (it cannot require() ES modules); the CLI loads dist/ module by module\n`);
    return;
  }
  await build({
    entryPoints: [join(root, 'dist', 'cli', 'main.js')],
    outfile: BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    plugins: [ownDirname],
    logLevel: 'warning',
  });
  const { cli, script } = require(join(root, 'bin', 'load-cli.js')).loadCli();
  if (!script) throw new Error(`${BUNDLE} was not loaded (older than dist/cli/main.js, or this Node cannot require() an ES module)`);
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

main().catch((err) => {
  process.stderr.write(`build-cli: ${err.stack ?? err}\n`);
  process.exit(1);
});
