/**
 * The page's bundle (scripts/build-ui.js bundles ui/page/ into dist/page/), and the HTML that
 * loads it: from the server, or with the data and the bundle inlined as one file (the report).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors/usage-error';

/** dist/page beside this file's package: the same path from src/ui (tests) and dist/ui. */
export const PAGE_DIR = join(__dirname, '..', '..', 'dist', 'page');

export interface PageAssets {
  js: string;
  css: string;
}

/** A bundle's script and style: `page` (the UI) or `explore-report` (explore's report page). */
export function readPageAssets(bundle: 'page' | 'explore-report' = 'page', dir = PAGE_DIR): PageAssets {
  try {
    return { js: readFileSync(join(dir, `${bundle}.js`), 'utf8'), css: readFileSync(join(dir, `${bundle}.css`), 'utf8') };
  } catch (err) {
    throw new UsageError(`the ${bundle === 'page' ? 'UI' : 'report'} page is not built (${(err as Error).message}): run npm run build`);
  }
}

/** The page as served: it fetches its data from /api. */
export function servedPage(title: string): string {
  return html(title, '<link rel="stylesheet" href="/page.css">', '<script src="/page.js"></script>');
}

/** The page as one self-contained file: data, script and style inlined. */
export function reportPage(title: string, assets: PageAssets, data: unknown): string {
  const json = JSON.stringify(data).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return html(
    title,
    `<style>${assets.css}</style>`,
    `<script>window.__KUBETAPE_REPORT__ = ${json};</script>\n<script>${assets.js.replace(/<\/script/gi, '<\\/script')}</script>`,
  );
}

function html(title: string, head: string, body: string): string {
  const safe = title.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'">
<title>${safe} · kubetape</title>
${head}
</head>
<body>
<div id="app"></div>
${body}
</body>
</html>
`;
}
