/**
 * `kubetape explore report DIR…`: merges result folders (shards, or several explorations) into
 * one summary — plans run, findings per class, flaky; the page (`--html`) is report-html.ts.
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

/** The summary; with `details` (default) each finding follows: its plan, difference and rerun command. */
export function summaryText(r: MergedReport, details = true): string {
  const lines = [
    `plans: ${r.plans} (run ${r.plansRun}${r.plansNotRun ? `, not run within the budget ${r.plansNotRun}` : ''})`,
    `findings: ${r.findings.length} (${FINDING_CLASSES.map((c) => `${c} ${r.perClass[c]}`).join(', ')})`,
    `flaky: ${r.flaky.length}`,
  ];
  for (const f of details ? r.findings : []) {
    lines.push('', `${f.class}  ${join(f.folder, f.plan)}`, `  ${f.explain}`);
    for (const d of differenceLines(f, 10)) lines.push(`  ${d}`);
    lines.push(`  rerun: ${f.rerun}`);
  }
  return lines.join('\n') + '\n';
}

/** A finding's difference from the reference, a line each (`missing: …`, `changed: …`); at most `changedLimit` changed fields. */
export function differenceLines(f: Finding, changedLimit = Infinity): string[] {
  return [
    ...f.diff.missing.map((k) => `missing: ${k}`),
    ...f.diff.extra.map((k) => `extra:   ${k}`),
    ...f.diff.changed.slice(0, changedLimit).map((c) => `changed: ${c.object} ${c.path}: ${c.expected ?? '(absent)'} → ${c.got ?? '(absent)'}`),
    ...f.diff.counts.map((c) => `counts:  ${c.object}: creates ${c.expected.creates} → ${c.got.creates}, deletes ${c.expected.deletes} → ${c.got.deletes}`),
    ...(f.error ? [`run failed: ${f.error}`] : []),
  ];
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}
