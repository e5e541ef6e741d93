/**
 * `kubetape explore report --html FILE`: one self-contained page (no server, no network) of the
 * merged findings. Each finding brings the timeline of its recorded run (`logs/plan-NNN.db`) as
 * `inspect --html` embeds a recording (src/ui's reportData), shown around the perturbation by
 * the UI's timeline and exchanges views (ui/page/explore-report.ts, bundled into
 * dist/page/explore-report.js), with the perturbation marked on the controller's lane; and the
 * run's log around it.
 */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { openRecording } from '../recording/open';
import { readPageAssets, reportPage } from '../ui/page-assets';
import { RecordingViews } from '../ui/recording-views';
import { reportData, type ReportData } from '../ui/report';
import { differenceLines, summaryText, type MergedReport } from './report';
import type { LogEntry } from './run-log';
import { WORKLOAD_USER_AGENT } from './workload-client';

/** How much of the run the timeline shows at first, before and after the perturbation. */
const WINDOW_BEFORE_MS = 2000;
const WINDOW_AFTER_MS = 4000;

export interface ExploreReportFinding {
  class: string;
  flaky: boolean;
  /** The plan file, with its results folder. */
  plan: string;
  explain: string;
  difference: string[];
  rerun: string;
  /** The log entries around the perturbation (times in ms since the run started). */
  entries: LogEntry[];
  /** The perturbation's wall time in the recording, and the window shown at first. */
  perturbedAt?: number;
  window?: { from: number; to: number };
  /** The recorded run, as inspect --html embeds a recording; absent when the run was not recorded. */
  timeline?: ReportData;
}

/** What the page reads (window.__KUBETAPE_REPORT__). */
export interface ExploreReportData {
  explore: true;
  title: string;
  summary: string;
  /** The User-Agent of the workload's requests: every other client lane is the controller's. */
  workloadClient: string;
  findings: ExploreReportFinding[];
}

export function exploreReportData(r: MergedReport): ExploreReportData {
  const findings = [...r.findings.map((f) => ({ f, flaky: false })), ...r.flaky.map((f) => ({ f, flaky: true }))].map(({ f, flaky }): ExploreReportFinding => {
    const recording = f.recording ? join(f.folder, f.recording) : undefined;
    const timeline = recording && existsSync(recording) ? recordedTimeline(recording) : undefined;
    const span = timeline?.facets.span;
    const at = f.perturbedAt;
    const window = span && at !== undefined ? { from: Math.max(span.from, at - WINDOW_BEFORE_MS), to: Math.min(span.to, at + WINDOW_AFTER_MS) } : span;
    return {
      class: f.class,
      flaky,
      plan: join(f.folder, f.plan),
      explain: f.explain,
      difference: differenceLines(f),
      rerun: f.rerun,
      entries: f.exchanges,
      ...(at !== undefined ? { perturbedAt: at } : {}),
      ...(window ? { window: { from: window.from, to: Math.max(window.to, window.from + 1) } } : {}),
      ...(timeline ? { timeline } : {}),
    };
  });
  return { explore: true, title: 'kubetape explore', summary: summaryText(r, false).trim(), workloadClient: WORKLOAD_USER_AGENT, findings };
}

export function exploreReportHtml(r: MergedReport, assets = readPageAssets('explore-report')): string {
  return reportPage('kubetape explore report', assets, exploreReportData(r));
}

function recordedTimeline(path: string): ReportData {
  const db = openRecording(path, { readonly: true });
  try {
    return reportData(new RecordingViews(db, () => ({ recording: basename(path) })), basename(path));
  } finally {
    db.close();
  }
}
