/** The compactions a recording holds (serve --out writes them; other recordings have none). */
import type { Db } from '../open';

/** `[at ms since the epoch, floor RV]` of each compaction, in time order. */
export type Compaction = [at: number, rv: number];

export function compactions(db: Db): Compaction[] {
  if (!hasCompactions(db)) return [];
  return db.prepare('SELECT at_ms, rv FROM compactions ORDER BY at_ms, rv').raw(true).all() as Compaction[];
}

/** How many compactions there are, and when the last was (null when there is none). */
export function compactionSpan(db: Db): { count: number; last: number | null } {
  if (!hasCompactions(db)) return { count: 0, last: null };
  return db.prepare('SELECT count(*) AS count, max(at_ms) AS last FROM compactions').get() as { count: number; last: number | null };
}

function hasCompactions(db: Db): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'compactions'").pluck().get() !== undefined;
}
