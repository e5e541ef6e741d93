#!/usr/bin/env node
/**
 * Bundles the page (ui/page/main.ts and its CSS) into dist/page/page.js and page.css with esbuild:
 * one script and one stylesheet, no network at run time; and the explore report's page
 * (ui/page/explore-report.ts) into dist/page/explore-report.js and .css. `npm run build` runs it
 * after tsc.
 */
const { build } = require('esbuild');
const { join } = require('node:path');

const root = join(__dirname, '..');

build({
  entryPoints: { page: join(root, 'ui', 'page', 'main.ts'), 'explore-report': join(root, 'ui', 'page', 'explore-report.ts') },
  outdir: join(root, 'dist', 'page'),
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['chrome110', 'firefox110', 'safari16'],
  legalComments: 'none',
  logLevel: 'warning',
}).catch((err) => {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
});
