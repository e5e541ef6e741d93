import type { Statement } from 'better-sqlite3';
import type { Db } from '../open';
import type { PackedWatchEvent } from '../schema';
import { hasFrameSlices, hasWatchObservations } from './schema-features';

/** An observation's bytes as stored: its own `raw`, or where they lie in its watch frame. */
type RawRow = [id: number, raw: string | Buffer | null, text: number, exchangeId: number, seq: number, offset: number | null, length: number | null];

/** A `watch_observations` row (schema 3), its events unpacked. */
interface WatchFrameRow {
  firstId: number;
  exchangeId: number;
  seq: number;
  protobuf: boolean;
  events: PackedWatchEvent[];
}

/**
 * Reads recorded object bytes by observation id, so the store keeps in memory only what it
 * serves: rebuilding reads metadata for every observation but the bytes only of the states
 * clients ask for (the current state is preloaded in batches; history is read on demand).
 * A watch event's object is a slice of its frame (schema 2): each frame is read once for all
 * the events in it, and sliced here rather than in SQL, which would read the frame per event.
 * From schema 3 a watch event's observation is in its frame's `watch_observations` row, found by
 * the highest first id at or below the id (also read once for the events in it).
 */
export class RawLoader {
  private readonly one: Statement;
  private readonly batch: Statement;
  private readonly frame: Statement;
  private readonly watchFrame: Statement | null;
  private lastFrame: { exchangeId: number; seq: number; data: Buffer } | undefined;
  private lastWatchFrame: WatchFrameRow | undefined;
  private static readonly BATCH = 500;

  constructor(private readonly db: Db) {
    const framed = hasFrameSlices(db);
    const table = hasWatchObservations(db) ? 'observation_rows' : 'observations';
    // JSON comes back as text, a protobuf object as bytes.
    const columns = `o.id, CASE WHEN o.encoding = 'protobuf' AND o.form = 'object' THEN o.raw ELSE CAST(o.raw AS TEXT) END,
      NOT (o.encoding = 'protobuf' AND o.form = 'object'), o.exchange_id, o.seq,
      ${framed ? 'o.frame_offset, o.frame_length' : 'NULL, NULL'}`;
    this.one = db.prepare(`SELECT ${columns} FROM ${table} o WHERE o.id = ?`).raw(true);
    this.batch = db.prepare(`SELECT ${columns} FROM ${table} o WHERE o.id IN (${Array(RawLoader.BATCH).fill('?').join(',')}) ORDER BY o.id`).raw(true);
    this.frame = db.prepare('SELECT data FROM frames WHERE exchange_id = ? AND seq = ?').pluck();
    this.watchFrame = table === 'observation_rows'
      ? db.prepare('SELECT first_id, exchange_id, seq, encoding, json(events) FROM watch_observations WHERE first_id <= ? ORDER BY first_id DESC LIMIT 1').raw(true)
      : null;
  }

  get open(): boolean {
    return this.db.open;
  }

  /** The observation's bytes: JSON text, or a protobuf envelope. */
  load(id: number): string | Buffer | undefined {
    if (!this.db.open) throw new Error('the recording is closed: cannot read object history any more');
    const row = (this.one.get(id) as RawRow | undefined) ?? this.watchRow(id);
    return row ? (this.bytesOf(row) ?? undefined) : undefined;
  }

  /** Reads many observations at once; `into(id, raw)` receives each. */
  loadMany(ids: readonly number[], into: (id: number, raw: string | Buffer) => void): void {
    for (let i = 0; i < ids.length; i += RawLoader.BATCH) {
      const chunk = ids.slice(i, i + RawLoader.BATCH);
      const found = this.watchFrame ? new Set<number>() : null; // the ids left are watch events packed per frame
      while (chunk.length < RawLoader.BATCH) chunk.push(0);
      for (const row of this.batch.all(...chunk) as RawRow[]) {
        found?.add(row[0]);
        const raw = this.bytesOf(row);
        if (raw !== null) into(row[0], raw);
      }
      if (!found) continue;
      for (const id of chunk.filter((id) => id > 0 && !found.has(id)).sort((a, b) => a - b)) {
        const row = this.watchRow(id);
        const raw = row ? this.bytesOf(row) : null;
        if (raw !== null) into(id, raw);
      }
    }
    this.lastFrame = undefined;
    this.lastWatchFrame = undefined;
  }

  /** A watch event's observation (schema 3) as a RawRow, from its frame's watch_observations row. */
  private watchRow(id: number): RawRow | undefined {
    if (!this.watchFrame) return undefined;
    let w = this.lastWatchFrame;
    if (!w || id < w.firstId || id >= w.firstId + w.events.length) {
      const row = this.watchFrame.get(id) as [number, number, number, string, string] | undefined;
      if (!row) return undefined;
      const [firstId, exchangeId, seq, encoding, events] = row;
      this.lastWatchFrame = w = { firstId, exchangeId, seq, protobuf: encoding === 'protobuf', events: JSON.parse(events) };
    }
    const event = w.events[id - w.firstId];
    if (!event) return undefined;
    const [, form, , , , , , frameOffset, frameLength] = event;
    return [id, null, w.protobuf && form === 'object' ? 0 : 1, w.exchangeId, w.seq, frameOffset, frameLength];
  }

  private bytesOf([, raw, text, exchangeId, seq, offset, length]: RawRow): string | Buffer | null {
    if (raw !== null || offset === null || length === null) return raw;
    let frame = this.lastFrame;
    if (!frame || frame.exchangeId !== exchangeId || frame.seq !== seq) {
      const data = this.frame.get(exchangeId, seq) as Buffer | undefined;
      if (!data) return null;
      this.lastFrame = frame = { exchangeId, seq, data };
    }
    const bytes = frame.data.subarray(offset, offset + length);
    return text ? bytes.toString('utf8') : Buffer.from(bytes); // a copy: the frame is not kept alive by one object
  }
}
