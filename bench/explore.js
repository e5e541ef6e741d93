#!/usr/bin/env node
/**
 * The explore benchmark (issue 20): for each example controller, the whole exploration
 * (reference runs, plan generation, every plan) with --parallel 2, buggy and fixed: wall time,
 * plans generated / pruned / run, plans per minute, findings per class.
 *
 *   npx tsc -p tsconfig.build.json && node bench/explore.js [--parallel 2] [--repeat N] [name …]
 *
 * With --repeat N each exploration runs N times; `as expected` says whether the run found the
 * example's bug in its class (buggy) or nothing (fixed), as the acceptance of issue 20 asks of
 * every run.
 *
 * Examples: every examples/controllers/<name>/ with buggy.js, fixed.js and workload.yaml, and the
 * test fixtures test/explore/fixtures/{child-maker,cleaner} (VARIANT=buggy|fixed), named
 * fixture:child-maker and fixture:cleaner.
 */
const { existsSync, mkdtempSync, readdirSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { explore, killAllControllers } = require('../dist/explore');

const root = resolve(__dirname, '..');
const args = process.argv.slice(2);
const parallelAt = args.indexOf('--parallel');
const parallel = parallelAt >= 0 ? Number(args.splice(parallelAt, 2)[1]) : 2;
const repeatAt = args.indexOf('--repeat');
const repeat = repeatAt >= 0 ? Number(args.splice(repeatAt, 2)[1]) : 1;
/** The class of each example's bug. */
const BUG_CLASS = { cleaner: 'stale-state', scaler: 'unobserved-state', provisioner: 'intermediate-state', 'fixture:child-maker': 'intermediate-state', 'fixture:cleaner': 'stale-state' };
const only = new Set(args);

function examples() {
  const out = [];
  const dir = join(root, 'examples/controllers');
  if (existsSync(dir)) {
    for (const name of readdirSync(dir)) {
      const d = join(dir, name);
      if (!existsSync(join(d, 'workload.yaml'))) continue;
      for (const variant of ['buggy', 'fixed']) {
        if (existsSync(join(d, `${variant}.js`))) out.push({ name, variant, controller: `node ${join(d, `${variant}.js`)}`, workload: join(d, 'workload.yaml') });
      }
    }
  }
  for (const name of ['child-maker', 'cleaner']) {
    const d = join(root, 'test/explore/fixtures', name);
    for (const variant of ['buggy', 'fixed']) out.push({ name: `fixture:${name}`, variant, controller: `VARIANT=${variant} node ${join(d, 'controller.mjs')}`, workload: join(d, 'workload.yaml') });
  }
  return out.filter((e) => only.size === 0 || only.has(e.name));
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    killAllControllers();
    process.exit(130);
  });
}

(async () => {
  const rows = [];
  for (const e of examples().flatMap((e) => Array.from({ length: repeat }, (_, i) => ({ ...e, round: i + 1 })))) {
    const out = mkdtempSync(join(tmpdir(), `kubetape-bench-explore-${e.name.replace(':', '-')}-${e.variant}-`));
    const started = Date.now();
    const { summary } = await explore({ controller: e.controller, workload: e.workload, out, parallel });
    const minutes = (Date.now() - started) / 60_000;
    const sum = (r) => Object.values(r).reduce((a, b) => a + b, 0);
    const expected = e.variant === 'buggy' ? summary.findings[BUG_CLASS[e.name]] > 0 : Object.values(summary.findings).every((n) => n === 0);
    const row = {
      example: `${e.name} (${e.variant})`,
      ...(repeat > 1 ? { round: e.round } : {}),
      seconds: Math.round(minutes * 600) / 10,
      generated: sum(summary.plansGenerated),
      pruned: sum(summary.plansPruned),
      run: summary.plansRun,
      plansPerMinute: Math.round((summary.plansRun / minutes) * 10) / 10,
      findings: Object.entries(summary.findings).filter(([, n]) => n > 0).map(([c, n]) => `${c} ${n}`).join(', ') || 'none',
      flaky: summary.flaky,
      asExpected: expected,
    };
    rows.push(row);
    console.error(JSON.stringify(row));
  }
  console.table(rows);
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
