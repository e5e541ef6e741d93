/**
 * The real apiserver's answers (reference/apiserver-transcripts, copied to test/fixtures/serve),
 * and a recording rebuilt from them: the 30 ConfigMaps of namespace tx listed at RV 232 in three
 * pages (a4), the watch events 234–236 (c1), and a later list page at RV 240 (d0).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ObjectLogBuilder, CONFIGMAPS } from './object-log-builder';

const DIR = join(__dirname, '..', 'fixtures', 'serve');

export interface Transcript {
  method: string;
  /** Path and query. */
  path: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The body parsed as JSON (undefined when it is not). */
  json: any;
}

export function transcript(name: string): Transcript {
  const text = readFileSync(join(DIR, name.endsWith('.txt') ? name : `${name}.txt`), 'utf8');
  const [method = '', path = ''] = text.split('\n')[0]!.split(' ');
  const headerStart = text.indexOf('### ---- response headers ----\n') + '### ---- response headers ----\n'.length;
  const bodyMarker = /### ---- response body \((\d+) bytes\) ----\n/.exec(text)!;
  const headerLines = text.slice(headerStart, bodyMarker.index).split('\n').filter((l) => l.trim());
  const status = Number(headerLines[0]!.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines.slice(1)) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(bodyMarker[1]);
  const body = Buffer.from(text.slice(bodyMarker.index + bodyMarker[0].length), 'utf8').subarray(0, length);
  let json: any;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { method, path, status, headers, body, json };
}

/** The JSON lines of a watch transcript body. */
export function watchLines(t: Transcript): string[] {
  return t.body.toString('utf8').split('\n').filter((l) => l.length > 0);
}

/**
 * Writes the tx recording: list at 232 paged by 12 (a4 pages 1–3, chained by their continue
 * tokens), a watch from 232 with cm-01..03 modified at 234–236 (c1's events), and d0's first page at 240.
 */
export function buildTxRecording(path: string): void {
  const b = new ObjectLogBuilder(path);
  const pages = ['a4-page1', 'a4-page2', 'a4-page3'].map(transcript);
  let requestContinue: string | undefined;
  for (const page of pages) {
    const meta = page.json.metadata;
    b.list(CONFIGMAPS, { namespace: 'tx', rv: meta.resourceVersion, items: page.json.items, limit: 12, requestContinue, continue: meta.continue });
    requestContinue = meta.continue;
  }
  const c1 = watchLines(transcript('c1-watch-rv233-compacted-in-etcd-cache-on')).map((l) => JSON.parse(l));
  b.watch(CONFIGMAPS, { namespace: 'tx', query: 'resourceVersion=232', events: c1.map((e) => ({ type: e.type, object: stripType(e.object) })) });
  const d0 = transcript('d0-list-limit5-for-token');
  b.list(CONFIGMAPS, { namespace: 'tx', rv: d0.json.metadata.resourceVersion, items: d0.json.items, limit: 5, continue: d0.json.metadata.continue });
  b.close();
}

function stripType(obj: Record<string, any>): Record<string, any> {
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = obj;
  return rest;
}

/** The tx recording (buildTxRecording) in a temporary folder of its own; `remove()` deletes the folder. */
export function tempTxRecording(): { db: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'kubetape-serve-'));
  const db = join(dir, 'tx.db');
  buildTxRecording(db);
  return { db, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
