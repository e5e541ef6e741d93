/**
 * `kubetape inspect --html FILE`: the page's views in one self-contained file (no server, no
 * network), small enough to attach to a bug report: the timeline aggregated to a fixed width, the
 * exchanges table whole (up to a limit), exchange details and object histories up to a byte
 * budget, the rebuilt history for time travel.
 */
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { openRecording } from '../recording/open';
import { readingRecording } from '../recording/recording-read-error';
import { readPageAssets, reportPage } from './page-assets';
import { RecordingViews, type ExchangeDetail } from './recording-views';
import type { RevisionView } from './object-history-view';

export const REPORT_WIDTH = 1600;
const EXCHANGE_COLUMNS = ['id', 'at', 'durationMs', 'method', 'url', 'verb', 'resource', 'namespace', 'client', 'status', 'outcome', 'rule', 'watchEnded', 'rv'];
/** Rows of the exchanges table a report holds. */
export const REPORT_EXCHANGES = 20_000;
/** Bytes of exchange details, and of object histories, a report holds (the rest is named as left out). */
export const REPORT_DETAIL_BYTES = 1024 * 1024;
export const REPORT_OBJECT_BYTES = 1024 * 1024;
/** Each body or event shown in a report is cut at this many characters. */
const REPORT_TEXT_LIMIT = 16 * 1024;

export interface ReportData {
  report: true;
  title: string;
  summary: unknown;
  facets: ReturnType<RecordingViews['facets']> & { span: ReturnType<RecordingViews['span']> };
  lanes: { client: ReturnType<RecordingViews['lanes']>; resource: ReturnType<RecordingViews['lanes']> };
  /** The exchanges table, column-wise: `rows[i][j]` is the value of `columns[j]` (keys are not repeated per row). */
  exchanges: { total: number; columns: string[]; rows: unknown[][] };
  details: Record<string, ExchangeDetail>;
  objectResources: ReturnType<RecordingViews['objectResources']>;
  objects: Record<string, ReturnType<RecordingViews['objects']>>;
  histories: Record<string, RevisionView[]>;
  changes: ReturnType<RecordingViews['changeLog']>;
}

/** Writes the report of `db` to `out`; returns its size in bytes. */
export function writeReport(db: string, out: string, summary: (path: string) => unknown): number {
  const assets = readPageAssets();
  const file = openRecording(db, { readonly: true });
  try {
    const data = readingRecording(db, () => reportData(new RecordingViews(file, () => summary(db)), basename(db)));
    const html = reportPage(basename(db), assets, data);
    writeFileSync(out, html);
    return Buffer.byteLength(html);
  } finally {
    file.close();
  }
}

export function reportData(views: RecordingViews, title: string): ReportData {
  const span = views.span();
  const page = views.exchanges({}, 0, 1);
  const rows: ReturnType<RecordingViews['exchanges']>['rows'] = [];
  for (let offset = 0; offset < Math.min(page.total, REPORT_EXCHANGES); offset += 500) rows.push(...views.exchanges({}, offset, 500).rows);
  const details: Record<string, ExchangeDetail> = {};
  let detailBytes = 0;
  // Problems first: they are what a bug report is about.
  const order = [...rows].sort((a, b) => Number(isProblem(b)) - Number(isProblem(a)));
  for (const r of order) {
    const d = views.exchange(r.id);
    if (!d) continue;
    const cut = cutDetail(d);
    detailBytes += JSON.stringify(cut).length;
    if (detailBytes > REPORT_DETAIL_BYTES) break;
    details[r.id] = cut;
  }
  const objectResources = views.objectResources();
  const objects: ReportData['objects'] = {};
  const histories: ReportData['histories'] = {};
  let objectBytes = 0;
  for (const { resource } of objectResources) {
    objects[resource] = views.objects(resource, undefined);
    for (const o of objects[resource]!) {
      if (objectBytes > REPORT_OBJECT_BYTES) break;
      const h = views.object(resource, o.namespace, o.name).revisions.map((r) => ({ ...r, text: cut(r.text) }));
      objectBytes += JSON.stringify(h).length;
      histories[`${resource}/${o.namespace || '_'}/${o.name}`] = h;
    }
  }
  return {
    report: true,
    title,
    summary: views.summary(),
    facets: { ...views.facets(), span },
    lanes: { client: views.lanes('client', span, REPORT_WIDTH), resource: views.lanes('resource', span, REPORT_WIDTH) },
    exchanges: { total: page.total, columns: EXCHANGE_COLUMNS, rows: rows.map((r) => EXCHANGE_COLUMNS.map((c) => r[c as keyof typeof r])) },
    details,
    objectResources,
    objects,
    histories,
    changes: compactChanges(views.changeLog(), span.from),
  };
}

/** The change log with times relative to `base`, rounded up to the ms (a change is never shown before it happened). */
function compactChanges(log: ReturnType<RecordingViews['changeLog']>, base: number): ReportData['changes'] {
  const from = Math.floor(base);
  return { ...log, base: from, changes: log.changes.map(([t, res, key, rev, deleted]) => [Math.ceil(t - from), res, key, rev, deleted]) };
}

function isProblem(r: { status: number | null; rule: string | null; watchEnded: string | null }): boolean {
  return r.status === null || r.status >= 400 || r.rule !== null || r.watchEnded === 'expired';
}

function cut(text: string): string {
  return text.length > REPORT_TEXT_LIMIT ? `${text.slice(0, REPORT_TEXT_LIMIT)}\n… (${text.length} characters in the recording)` : text;
}

function cutDetail(d: ExchangeDetail): ExchangeDetail {
  const body = <T extends { text: string; truncated: boolean } | null>(b: T): T => (b && b.text.length > REPORT_TEXT_LIMIT ? { ...b, text: cut(b.text), truncated: true } : b);
  return {
    ...d,
    request: { ...d.request, body: body(d.request.body) },
    response: { ...d.response, body: body(d.response.body) },
    watch: d.watch && { ...d.watch, rows: d.watch.rows.map((r) => ({ ...r, text: cut(r.text) })), nextFrameOffset: null },
  };
}
