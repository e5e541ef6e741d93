import type { Db } from '../recording/open';
import { observationRawSql } from '../recording/schema';

/** The object bytes: JSON as text, a protobuf object as bytes. */
function rawValue(db: Db): string {
  const raw = observationRawSql(db);
  return `CASE WHEN o.encoding = 'protobuf' AND o.form = 'object' THEN ${raw} ELSE CAST(${raw} AS TEXT) END`;
}

/**
 * Reads recorded object bytes by observation id, so the store keeps in memory only what it
 * serves: rebuilding reads metadata for every observation but the bytes only of the states
 * clients ask for (the current state is preloaded in batches; history is read on demand).
 */
export class RawLoader {
  private readonly one;
  private readonly batch;
  private static readonly BATCH = 500;

  constructor(private readonly db: Db) {
    this.one = db.prepare(`SELECT ${rawValue(db)} FROM observations o WHERE o.id = ?`).pluck();
    this.batch = db
      .prepare(`SELECT o.id, ${rawValue(db)} FROM observations o WHERE o.id IN (${Array(RawLoader.BATCH).fill('?').join(',')})`)
      .raw(true);
  }

  get open(): boolean {
    return this.db.open;
  }

  /** The observation's bytes: JSON text, or a protobuf envelope. */
  load(id: number): string | Buffer | undefined {
    if (!this.db.open) throw new Error('the recording is closed: cannot read object history any more');
    return (this.one.get(id) as string | Buffer | null) ?? undefined;
  }

  /** Reads many observations at once; `into(id, raw)` receives each. */
  loadMany(ids: readonly number[], into: (id: number, raw: string | Buffer) => void): void {
    for (let i = 0; i < ids.length; i += RawLoader.BATCH) {
      const chunk = ids.slice(i, i + RawLoader.BATCH);
      while (chunk.length < RawLoader.BATCH) chunk.push(0);
      for (const [id, raw] of this.batch.all(...chunk) as Array<[number, string | Buffer | null]>) if (raw !== null) into(id, raw);
    }
  }
}
