/**
 * One object's history: its observations grouped into revisions (one per resourceVersion, a
 * deletion its own), each shown in the fullest form the recording holds and with the exchanges
 * that saw it. The page diffs consecutive revisions.
 */
import type { ObjectObservation } from '../recording/reader/object-revisions';
import { pretty } from './body-view';
import { protobufObject } from './protobuf-object-view';

export interface RevisionView {
  rv: string | null;
  deleted: boolean;
  firstAt: number;
  /** How it was seen: `list`, `watch ADDED`, `get`, `write` … */
  seenAs: string[];
  exchanges: number[];
  /** The fullest form seen: object, metadata or table-row. */
  form: string;
  text: string;
}

const FORM_RANK: Record<string, number> = { object: 3, metadata: 1, 'table-row': 0 };

export function revisionViews(observations: ObjectObservation[]): RevisionView[] {
  const byRv = new Map<string, RevisionView & { rank: number }>();
  for (const o of observations) {
    const deleted = o.event === 'DELETED';
    const id = `${deleted ? 'deleted:' : ''}${o.rv ?? ''}`;
    const rank = (FORM_RANK[o.form] ?? 0) + (o.encoding === 'json' ? 1 : 0);
    let rev = byRv.get(id);
    if (!rev) byRv.set(id, (rev = { rv: o.rv, deleted, firstAt: o.at, seenAs: [], exchanges: [], form: o.form, text: '', rank: -1 }));
    const seen = o.event ? `${o.source} ${o.event}` : o.source;
    if (!rev.seenAs.includes(seen)) rev.seenAs.push(seen);
    if (!rev.exchanges.includes(o.exchangeId)) rev.exchanges.push(o.exchangeId);
    if (rank > rev.rank) {
      rev.rank = rank;
      rev.form = o.form;
      rev.text = shown(o);
    }
  }
  return [...byRv.values()]
    .map(({ rank: _rank, ...r }) => r)
    .sort((a, b) => numeric(a.rv) - numeric(b.rv) || Number(a.deleted) - Number(b.deleted) || a.firstAt - b.firstAt);
}

function numeric(rv: string | null): number {
  const n = Number(rv);
  return Number.isFinite(n) ? n : Infinity;
}

/** The observation as pretty JSON: a Table row shows its object when it carries one. */
function shown(o: ObjectObservation): string {
  if (o.raw === null) return '';
  try {
    if (Buffer.isBuffer(o.raw)) return pretty(protobufObject(o.raw));
    const value = JSON.parse(o.raw) as { object?: unknown; cells?: unknown };
    if (o.form === 'table-row' && value.object && typeof value.object === 'object') return pretty(value.object);
    return pretty(value);
  } catch (err) {
    return `(could not be decoded: ${(err as Error).message})`;
  }
}
