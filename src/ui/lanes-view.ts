/**
 * The timeline of one view, aggregated to the pixel width asked for: per lane (a client or a
 * resource) the non-watch exchanges as ticks counted per bucket, each watch as a bar with its
 * events counted per bucket as marks, and the exchanges that went wrong, listed.
 */
import type { ExchangeRow } from '../recording/reader/exchange-rows';
import type { WatchEventBucket } from '../recording/reader/watch-event-times';

export const LANE_KEYS = ['client', 'resource'] as const;
export type LaneKey = (typeof LANE_KEYS)[number];

/** Problems listed beside the timeline, at most this many per view (the total is counted). */
export const PROBLEM_LIMIT = 500;

/** What a problem is, most specific first: an expired watch (ERROR 410) counts as a 410. */
export type ProblemKind = '410' | '429' | 'fault' | 'reset' | 'error' | '5xx' | '4xx' | 'no-response';

export interface Problem {
  id: number;
  at: number;
  lane: number;
  kind: ProblemKind;
  status: number | null;
  rule: string | null;
  label: string;
}

export interface Lane {
  key: string;
  exchanges: number;
  /** `[bucket, exchanges, first exchange id, highest status]`: non-watch exchanges that started in the bucket. */
  ticks: Array<[number, number, number, number]>;
  /** `[exchange id, start, end, ended, status]`: a watch stream (end: start plus duration, or the view's end while open). */
  bars: Array<[number, number, number, string | null, number | null]>;
  /** `[watch exchange id, bucket, events]`. */
  marks: Array<[number, number, number]>;
}

export interface LanesView {
  by: LaneKey;
  from: number;
  to: number;
  width: number;
  bucketMs: number;
  lanes: Lane[];
  problems: Problem[];
  problemTotal: number;
  counts: { lanes: number; exchanges: number; ticks: number; bars: number; events: number };
}

export function problemOf(r: ExchangeRow): ProblemKind | undefined {
  if (r.watchEnded === 'expired' || r.status === 410) return '410';
  if (r.status === 429) return '429';
  if (r.rule) return 'fault';
  if (r.outcome === 'reset') return 'reset';
  if (r.outcome === 'error') return 'error';
  if (r.status === null) return r.outcome === 'open' ? undefined : 'no-response';
  if (r.status >= 500) return '5xx';
  if (r.status >= 400) return '4xx';
  return undefined;
}

/** `rows` in time order; `buckets` counted with the same `from` and `bucketMs`. */
export function lanesView(by: LaneKey, rows: ExchangeRow[], buckets: WatchEventBucket[], from: number, to: number, width: number): LanesView {
  const bucketMs = Math.max((to - from) / width, 1e-3);
  const bucketOf = (t: number) => Math.min(width - 1, Math.max(0, Math.floor((t - from) / bucketMs)));
  const lanes = new Map<string, Lane & { tickAt: Map<number, [number, number, number, number]>; index: number }>();
  const laneOfWatch = new Map<number, Lane>();
  const problems: Problem[] = [];
  let problemTotal = 0;
  let ticks = 0;
  for (const r of rows) {
    const key = by === 'client' ? r.client : r.resource;
    let lane = lanes.get(key);
    if (!lane) lanes.set(key, (lane = { key, exchanges: 0, ticks: [], bars: [], marks: [], tickAt: new Map(), index: lanes.size }));
    lane.exchanges++;
    if (r.verb === 'watch') {
      lane.bars.push([r.id, r.at, r.durationMs === null ? to : r.at + r.durationMs, r.watchEnded, r.status]);
      laneOfWatch.set(r.id, lane);
    } else if (r.at >= from) {
      const b = bucketOf(r.at);
      const tick = lane.tickAt.get(b);
      if (tick) {
        tick[1]++;
        tick[3] = Math.max(tick[3], r.status ?? 0);
      } else {
        lane.tickAt.set(b, [b, 1, r.id, r.status ?? 0]);
        ticks++;
      }
    }
    const kind = problemOf(r);
    if (kind) {
      problemTotal++;
      if (problems.length < PROBLEM_LIMIT) problems.push({ id: r.id, at: r.at, lane: lane.index, kind, status: r.status, rule: r.rule, label: `${r.method} ${r.url}` });
    }
  }
  let events = 0;
  for (const [id, bucket, n] of buckets) {
    const lane = laneOfWatch.get(id);
    if (!lane || bucket < 0 || bucket >= width) continue;
    lane.marks.push([id, bucket, n]);
    events += n;
  }
  const out: Lane[] = [...lanes.values()].map(({ key, exchanges, bars, marks, tickAt }) => ({ key, exchanges, ticks: [...tickAt.values()], bars, marks }));
  const bars = out.reduce((n, l) => n + l.bars.length, 0);
  return {
    by, from, to, width, bucketMs, lanes: out, problems, problemTotal,
    counts: { lanes: out.length, exchanges: rows.length, ticks, bars, events },
  };
}
