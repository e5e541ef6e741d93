/**
 * `kubetape explore report DIR…`: merges result folders (shards, or several explorations) into
 * one summary — plans run, findings per class, flaky — and, with `--html`, one self-contained
 * page listing each finding: its plan, the difference, and the timeline around the perturbation.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../errors/usage-error';
import type { ExploreSummary } from './explore';
import { FINDING_CLASSES, type FindingClass } from './plan';
import type { Finding } from './test-run';

export interface MergedReport {
  folders: string[];
  plans: number;
  plansRun: number;
  plansNotRun: number;
  findings: Array<Finding & { folder: string }>;
  flaky: Array<Finding & { folder: string }>;
  perClass: Record<FindingClass, number>;
}

export function mergeResults(folders: readonly string[]): MergedReport {
  const report: MergedReport = { folders: [...folders], plans: 0, plansRun: 0, plansNotRun: 0, findings: [], flaky: [], perClass: { 'stale-state': 0, 'unobserved-state': 0, 'intermediate-state': 0 } };
  for (const folder of folders) {
    const summaryPath = join(folder, 'summary.json');
    if (!existsSync(summaryPath)) throw new UsageError(`${folder}: no summary.json (not a results folder of kubetape explore --out)`);
    const summary = readJson<ExploreSummary>(summaryPath);
    report.plans += summary.plans;
    report.plansRun += summary.plansRun;
    report.plansNotRun += summary.plansNotRun;
    for (const f of readJson<Finding[]>(join(folder, 'findings.json'))) report.findings.push({ ...f, folder });
    for (const f of readJson<Finding[]>(join(folder, 'flaky.json'))) report.flaky.push({ ...f, folder });
  }
  for (const f of report.findings) report.perClass[f.class]++;
  return report;
}

export function summaryText(r: MergedReport): string {
  const lines = [
    `plans: ${r.plans} (run ${r.plansRun}${r.plansNotRun ? `, not run within the budget ${r.plansNotRun}` : ''})`,
    `findings: ${r.findings.length} (${FINDING_CLASSES.map((c) => `${c} ${r.perClass[c]}`).join(', ')})`,
    `flaky: ${r.flaky.length}`,
  ];
  for (const f of r.findings) {
    lines.push('', `${f.class}  ${join(f.folder, f.plan)}`, `  ${f.explain}`);
    for (const k of f.diff.missing) lines.push(`  missing: ${k}`);
    for (const k of f.diff.extra) lines.push(`  extra:   ${k}`);
    for (const c of f.diff.changed.slice(0, 10)) lines.push(`  changed: ${c.object} ${c.path}: ${c.expected ?? '(absent)'} → ${c.got ?? '(absent)'}`);
    for (const c of f.diff.counts) lines.push(`  counts:  ${c.object}: creates ${c.expected.creates} → ${c.got.creates}, deletes ${c.expected.deletes} → ${c.got.deletes}`);
    if (f.error) lines.push(`  run failed: ${f.error}`);
    lines.push(`  rerun: ${f.rerun}`);
  }
  return lines.join('\n') + '\n';
}

export function reportHtml(r: MergedReport): string {
  const esc = (s: unknown) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  const finding = (f: Finding & { folder: string }, flaky: boolean) => `
<section class="finding${flaky ? ' flaky' : ''}">
<h2>${esc(f.class)}${flaky ? ' (flaky)' : ''} — ${esc(join(f.folder, f.plan))}</h2>
<p>${esc(f.explain)}</p>
<h3>Difference from the reference</h3>
<ul>${[
    ...f.diff.missing.map((k) => `<li>missing <code>${esc(k)}</code></li>`),
    ...f.diff.extra.map((k) => `<li>extra <code>${esc(k)}</code></li>`),
    ...f.diff.changed.map((c) => `<li>changed <code>${esc(c.object)}</code> <code>${esc(c.path)}</code>: ${esc(c.expected ?? '(absent)')} → ${esc(c.got ?? '(absent)')}</li>`),
    ...f.diff.counts.map((c) => `<li>counts <code>${esc(c.object)}</code>: creates ${c.expected.creates} → ${c.got.creates}, deletes ${c.expected.deletes} → ${c.got.deletes}</li>`),
    ...(f.error ? [`<li>run failed: ${esc(f.error)}</li>`] : []),
  ].join('')}</ul>
<h3>Timeline around the perturbation</h3>
<table><tr><th>ms</th><th>what</th></tr>${f.exchanges.map((e) => `<tr class="${e.kind}"><td>${e.t}</td><td>${esc(describe(e))}</td></tr>`).join('')}</table>
<p>Reproduce: <code>${esc(f.rerun)}</code></p>
</section>`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>kubetape explore report</title><style>
body{font:14px system-ui,sans-serif;margin:2em;max-width:70em}code{background:#f3f3f3;padding:0 .2em}
table{border-collapse:collapse}td,th{padding:.1em .6em;text-align:left;border-bottom:1px solid #eee}
tr.perturbation{background:#ffe9a8;font-weight:bold}tr.notification td{color:#0a5}tr.change td{color:#555}
.finding{border-left:4px solid #c33;padding-left:1em;margin:2em 0}.flaky{border-color:#aaa}
</style></head><body><h1>kubetape explore</h1><pre>${esc(summaryText({ ...r, findings: [] }).trim())}</pre>
${r.findings.map((f) => finding(f, false)).join('')}${r.flaky.map((f) => finding(f, true)).join('')}</body></html>\n`;
}

function describe(e: Finding['exchanges'][number]): string {
  const obj = (o: { resource: string; namespace: string; name: string }) => `${o.resource} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;
  switch (e.kind) {
    case 'request':
      return `${e.who} ${e.verb} ${obj(e)}${e.status ? ` → ${e.status}` : ''}`;
    case 'notification':
      return `controller ${e.withheld ? 'denied' : 'notified'}: ${e.type} ${obj(e)} (change ${e.index}, rv ${e.rev})`;
    case 'change':
      return `committed: ${e.type} ${obj(e)} (change ${e.index}, rv ${e.rev})`;
    case 'perturbation':
      return `perturbation: ${e.what}`;
    case 'step':
      return `workload step ${e.n}: ${e.step}`;
  }
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}
