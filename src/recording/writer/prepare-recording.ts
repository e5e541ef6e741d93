import Database from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { RecordingFormatError } from '../../errors/recording-format-error';
import { openRecording, withUriFilenames } from '../open';

/**
 * The page size of a new recording: frames of whole arrivals are tens of KiB, and pages larger
 * than SQLite's default 4 KiB keep them off overflow pages, which cost the writer CPU per byte and
 * the file space (bench/record-writer.js measures it).
 */
export const PAGE_SIZE = 16384;

/**
 * Creates or opens the recording (RecordingFormatError if it is not one), notes the session in
 * `meta`, and returns the id the next exchange gets: recording into an existing file appends.
 */
export function prepareRecording(path: string, meta: Record<string, string>): number {
  if (path !== ':memory:' && !existsSync(path)) createEmpty(path);
  const db = openRecording(path, { create: true });
  try {
    const upsert = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    const keepFirst = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING');
    db.transaction(() => {
      for (const [key, value] of Object.entries(meta)) {
        if (key === 'created_at') keepFirst.run(key, value);
        else upsert.run(key, value);
      }
    })();
    const row = db.prepare('SELECT max(id) AS id FROM exchanges').get() as { id: number | null };
    return (row.id ?? 0) + 1;
  } finally {
    db.close();
  }
}

/** An empty SQLite file with PAGE_SIZE pages (the page size is fixed when the first page is written); its directory is made if missing. */
function createEmpty(path: string): void {
  let db: Database.Database;
  try {
    makeParents(dirname(path));
    db = withUriFilenames(() => new Database(path));
  } catch (err) {
    throw new RecordingFormatError(path, `cannot create: ${(err as Error).message}`);
  }
  try {
    db.pragma(`page_size = ${PAGE_SIZE}`);
    db.exec('VACUUM');
  } finally {
    db.close();
  }
}

/** mkdir -p, one level at a time (Node's recursive mkdirSync spins forever under /proc). */
function makeParents(dir: string): void {
  if (existsSync(dir)) return;
  const parent = dirname(dir);
  if (parent !== dir) makeParents(parent);
  mkdirSync(dir);
}
