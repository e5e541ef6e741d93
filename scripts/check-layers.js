#!/usr/bin/env node
'use strict';
/**
 * The layering check: every top-level folder of src/ has a rank; a file may import from its own
 * folder or from a folder of lower rank, never from a higher one or from a peer of the same rank;
 * and no set of files imports itself in a circle. Unit tests (*.test.ts) are not checked: nothing
 * imports them, and they may build their fixtures with a higher layer's code.
 *
 * Usage:
 *   node scripts/check-layers.js            check src/, one line per violation, exit 1 if any
 *   node scripts/check-layers.js --print    print the rank table
 *   node scripts/check-layers.js --root DIR check DIR/src/ instead (with DIR/scripts/layers-allow.json)
 *
 * scripts/layers-allow.json lists violation lines (exactly as printed) that are tolerated for now.
 */
const fs = require('node:fs');
const path = require('node:path');

/** Higher rank sits above; same rank = peers that must not import each other. */
const RANKS = [
  [10, ['index.ts'], 'the library entry point'],
  [9, ['cli'], 'yargs commands: parse, call a factory, map errors to exit codes'],
  [8.5, ['explore'], 'controller exploration: drives serve (and faults) under a controller, so it sits above the modes'],
  [8, ['record', 'replay', 'serve', 'inspect', 'ui'], 'the modes (peers)'],
  [7, ['faults'], 'the rule engine'],
  [6, ['reconstruct', 'upstream'], 'recording -> object events -> store; the way to a real cluster and the passthrough that records it'],
  [5, ['store', 'schema'], 'MVCC store; API schema'],
  [4, ['recording'], 'the SQLite recording file: writer and reader'],
  [3, ['http'], 'the server lifecycle the modes share, Status responses'],
  [2, ['k8s'], 'API machinery: request info, options, RV rules, Status factories'],
  [1, ['wire'], 'media types, codecs, watch framing, gzip'],
  [0, ['log', 'errors'], 'root logger; errors every layer may throw'],
];

function rankOf(folder) {
  for (const [rank, folders] of RANKS) if (folders.includes(folder)) return rank;
  return undefined;
}

function listFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

/** The relative specifiers a file imports or re-exports (comments stripped first). */
function specifiersOf(source) {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"\\])\/\/.*$/gm, '$1');
  const out = [];
  for (const m of code.matchAll(SPECIFIER)) if (m[1].startsWith('.')) out.push(m[1]);
  return out;
}

function resolve(fromFile, spec) {
  const base = path.resolve(path.dirname(fromFile), spec.replace(/\.js$/, ''));
  for (const candidate of [base + '.ts', path.join(base, 'index.ts'), base]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Top-level folder of src/ a file belongs to ('index.ts' for files directly in src/). */
function folderOf(srcDir, file) {
  const rel = path.relative(srcDir, file).split(path.sep);
  return rel.length === 1 ? rel[0] : rel[0];
}

/** Strongly connected components of more than one file (Tarjan), each sorted. */
function cycles(graph) {
  let index = 0;
  const idx = new Map(), low = new Map(), onStack = new Set(), stack = [], out = [];
  const visit = (v) => {
    idx.set(v, index); low.set(v, index); index++;
    stack.push(v); onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do { w = stack.pop(); onStack.delete(w); scc.push(w); } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? new Set()).has(v)) out.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

/** Every violation under root/src, as printable lines. */
function check(root) {
  const srcDir = path.join(root, 'src');
  const rel = (f) => path.relative(root, f).split(path.sep).join('/');
  const files = listFiles(srcDir).sort();
  const graph = new Map();
  const lines = [];
  for (const file of files) {
    const from = folderOf(srcDir, file);
    const fromRank = rankOf(from);
    if (fromRank === undefined) lines.push(`${rel(file)}: folder src/${from}/ has no rank in scripts/check-layers.js`);
    const edges = new Set();
    for (const spec of specifiersOf(fs.readFileSync(file, 'utf8'))) {
      const target = resolve(file, spec);
      if (!target) continue;
      if (!target.startsWith(srcDir + path.sep)) continue;
      edges.add(target);
      const to = folderOf(srcDir, target);
      if (to === from || fromRank === undefined) continue;
      const toRank = rankOf(to);
      if (toRank === undefined) continue;
      if (toRank > fromRank) lines.push(`upward: ${rel(file)} (${from}, rank ${fromRank}) imports ${rel(target)} (${to}, rank ${toRank})`);
      else if (toRank === fromRank) lines.push(`peer: ${rel(file)} (${from}) imports ${rel(target)} (${to}, same rank ${toRank})`);
    }
    graph.set(file, edges);
  }
  for (const scc of cycles(graph)) lines.push(`cycle: ${scc.map(rel).join(' <-> ')}`);
  return lines;
}

function main(argv) {
  if (argv.includes('--print')) {
    for (const [rank, folders, what] of RANKS) {
      console.log(`${String(rank).padStart(2)}  ${folders.map((f) => (f === 'index.ts' ? 'src/index.ts' : `src/${f}/`)).join(' ').padEnd(62)} ${what}`);
    }
    return 0;
  }
  const at = argv.indexOf('--root');
  const root = at >= 0 ? path.resolve(argv[at + 1]) : path.resolve(__dirname, '..');
  const allowFile = path.join(root, 'scripts', 'layers-allow.json');
  const allowed = new Set(fs.existsSync(allowFile) ? JSON.parse(fs.readFileSync(allowFile, 'utf8')).allow ?? [] : []);
  const lines = check(root);
  const failing = lines.filter((l) => !allowed.has(l));
  for (const line of failing) console.log(line);
  for (const stale of [...allowed].filter((l) => !lines.includes(l))) {
    console.error(`note: scripts/layers-allow.json holds a line that no longer occurs: ${stale}`);
  }
  return failing.length > 0 ? 1 : 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));

module.exports = { check, RANKS };
