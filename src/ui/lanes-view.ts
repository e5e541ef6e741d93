/**
 * The timeline of one view, aggregated to the pixel width asked for: per lane (a client or a
 * resource) the non-watch exchanges as ticks counted per bucket, each watch as a bar with its
 * events counted per bucket as marks, and the exchanges that went wrong, listed; beside the lanes,
 * the resourceVersions the answers carried (per bucket, lowest to highest) and the compaction
 * floor over time when the recording holds compactions (serve --out).
 */
import type { Compaction } from '../recording/reader/compactions';
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

/** What the answers' resourceVersions and the compactions add to the lanes. */
export interface RvSources {
  /** RVs of gets and writes (a list's and a watch's are on their rows and buckets). */
  objectRvs: Map<number, string>;
  compactions: Compaction[];
}

export interface RvView {
  /** `[bucket, lowest RV, highest RV, answers]`: answers (list pages, gets, writes, watch arrivals) that carried a numeric RV. */
  points: Array<[number, number, number, number]>;
  /** `[at, floor RV]`: the floor in force at `from` (its compaction may be earlier), then each compaction up to `to`, per bucket its highest. */
  floors: Array<[number, number]>;
  /** The lowest and highest RV drawn (points and floors), null when there is none. */
  min: number | null;
  max: number | null;
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
  rv: RvView;
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
export function lanesView(by: LaneKey, rows: ExchangeRow[], buckets: WatchEventBucket[], from: number, to: number, width: number, rvs?: RvSources): LanesView {
  const bucketMs = Math.max((to - from) / width, 1e-3);
  const bucketOf = (t: number) => Math.min(width - 1, Math.max(0, Math.floor((t - from) / bucketMs)));
  const lanes = new Map<string, Lane & { tickAt: Map<number, [number, number, number, number]>; index: number }>();
  const laneOfWatch = new Map<number, Lane>();
  const problems: Problem[] = [];
  let problemTotal = 0;
  let ticks = 0;
  const rvAt = new Map<number, [number, number, number, number]>();
  const addRv = (b: number, lo: number, hi: number, n: number) => {
    const p = rvAt.get(b);
    if (!p) rvAt.set(b, [b, lo, hi, n]);
    else {
      p[1] = Math.min(p[1], lo);
      p[2] = Math.max(p[2], hi);
      p[3] += n;
    }
  };
  for (const r of rows) {
    const key = by === 'client' ? r.client : r.resource;
    let lane = lanes.get(key);
    if (!lane) lanes.set(key, (lane = { key, exchanges: 0, ticks: [], bars: [], marks: [], tickAt: new Map(), index: lanes.size }));
    lane.exchanges++;
    if (r.verb === 'watch') {
      lane.bars.push([r.id, r.at, r.durationMs === null ? to : r.at + r.durationMs, r.watchEnded, r.status]);
      laneOfWatch.set(r.id, lane);
    } else {
      const rv = numericRv(r.rv ?? rvs?.objectRvs.get(r.id));
      const answeredAt = r.at + (r.durationMs ?? 0);
      if (rv !== undefined && answeredAt >= from && answeredAt <= to) addRv(bucketOf(answeredAt), rv, rv, 1);
    }
    if (r.verb !== 'watch' && r.at >= from) {
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
  for (const [id, bucket, n, lo, hi] of buckets) {
    const lane = laneOfWatch.get(id);
    if (!lane || bucket < 0 || bucket >= width) continue;
    lane.marks.push([id, bucket, n]);
    events += n;
    if (lo !== null && hi !== null) addRv(bucket, lo, hi, n);
  }
  const out: Lane[] = [...lanes.values()].map(({ key, exchanges, bars, marks, tickAt }) => ({ key, exchanges, ticks: [...tickAt.values()], bars, marks }));
  const bars = out.reduce((n, l) => n + l.bars.length, 0);
  return {
    by, from, to, width, bucketMs, lanes: out, problems, problemTotal,
    counts: { lanes: out.length, exchanges: rows.length, ticks, bars, events },
    rv: rvView([...rvAt.values()].sort((a, b) => a[0] - b[0]), rvs?.compactions ?? [], from, to, bucketOf),
  };
}

function rvView(points: RvView['points'], compactions: Compaction[], from: number, to: number, bucketOf: (t: number) => number): RvView {
  const floors: RvView['floors'] = [];
  let lastBucket = -1;
  for (const [at, rv] of compactions) {
    if (at > to) break;
    const b = at < from ? -1 : bucketOf(at);
    const last = floors[floors.length - 1];
    if (last && (b === -1 || b === lastBucket)) last.splice(0, 2, at, Math.max(last[1], rv));
    else floors.push([at, rv]);
    lastBucket = b;
  }
  let min: number | null = null;
  let max: number | null = null;
  const see = (lo: number, hi: number) => {
    min = min === null ? lo : Math.min(min, lo);
    max = max === null ? hi : Math.max(max, hi);
  };
  for (const [, lo, hi] of points) see(lo, hi);
  for (const [, rv] of floors) see(rv, rv);
  return { points, floors, min, max };
}

/** A resourceVersion as a number when it is a plain integer (etcd's); undefined otherwise. */
function numericRv(rv: string | null | undefined): number | undefined {
  if (!rv || !/^\d{1,15}$/.test(rv)) return undefined;
  return Number(rv);
}
