/** The compactions a recording holds (serve --out writes them; other recordings have none). */
import type { Db } from '../open';

/** `[at ms since the epoch, floor RV]` of each compaction, in time order. */
export type Compaction = [at: number, rv: number];

export function compactions(db: Db): Compaction[] {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'compactions'").pluck().get();
  if (!table) return [];
  return db.prepare('SELECT at_ms, rv FROM compactions ORDER BY at_ms, rv').raw(true).all() as Compaction[];
}
