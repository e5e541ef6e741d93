/**
 * A recording rebuilt from the real apiserver's answers (test/fixtures/transcripts): the 30
 * ConfigMaps of namespace tx listed at RV 232 in three pages (a4), the watch events 234–236 (c1),
 * and a later list page at RV 240 (d0).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordingBuilder, CONFIGMAPS } from '../support/recording-builder';
import { transcript, watchLines } from '../support/transcripts';

/**
 * Writes the tx recording: list at 232 paged by 12 (a4 pages 1–3, chained by their continue
 * tokens), a watch from 232 with cm-01..03 modified at 234–236 (c1's events), and d0's first page at 240.
 */
export function buildTxRecording(path: string): void {
  const b = new RecordingBuilder(path);
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
