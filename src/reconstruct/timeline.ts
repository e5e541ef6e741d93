import type { RecordedRevision } from './recorded-revision';

/**
 * Every revision of every resource in global revision order, with the time each was first
 * recorded (made non-decreasing along the order, so a clock can replay them at their pace),
 * plus the revisions the server reached without a change here (list RVs, bookmarks).
 */
export class Timeline {
  /**
   * Invariant: `revisions[i].rev` is non-decreasing in i, revisions of one key keep their
   * history order, `resources[i]` is the id of revisions[i]'s resource, and `times[i]` is
   * non-decreasing too.
   */
  readonly revisions: RecordedRevision[];
  readonly resources: string[];
  readonly times: Float64Array;
  /** Progress points `[rev, atMs]`, sorted by revision. */
  readonly progress: Array<[number, number]>;

  constructor(entries: Array<{ resource: string; revisions: RecordedRevision[] }>, progress: Array<[number, number]>) {
    const flat: RecordedRevision[] = [];
    const owner: string[] = [];
    for (const e of entries) {
      for (const r of e.revisions) {
        flat.push(r);
        owner.push(e.resource);
      }
    }
    const order = sortedOrder(flat);
    // Filled by push: `new Array(n)` beyond 100k elements is a dictionary, slow to index.
    this.revisions = [];
    this.resources = [];
    this.times = new Float64Array(flat.length);
    let time = -Infinity;
    for (let i = 0; i < order.length; i++) {
      const r = flat[order[i]!]!;
      this.revisions.push(r);
      this.resources.push(owner[order[i]!]!);
      time = Math.max(time, r.recordedAt);
      this.times[i] = time;
    }
    this.progress = progress.slice().sort((a, b) => a[0] - b[0]);
  }

  get length(): number {
    return this.revisions.length;
  }

  /** The highest revision anything in the recording reached. */
  get endRevision(): number {
    const lastChange = this.length ? this.revisions[this.length - 1]!.rev : 0;
    const lastProgress = this.progress.length ? this.progress[this.progress.length - 1]![0] : 0;
    return Math.max(lastChange, lastProgress);
  }

  /** Index of the first revision above `rev`. */
  indexAfter(rev: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.revisions[mid]!.rev > rev) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** When the recording reached `rev` (the first change or progress point at or after it). */
  timeOf(rev: number): number {
    const i = this.indexAfter(rev - 1);
    const change = i < this.length ? this.times[i]! : Infinity;
    const p = this.progress.find(([r]) => r >= rev);
    const at = Math.min(change, p ? p[1] : Infinity);
    return at === Infinity ? (this.length ? this.times[this.length - 1]! : 0) : at;
  }
}

/**
 * Indices of `flat` sorted by revision, ties kept in input order (a key's deletion before its
 * recreation at the same revision). Packs (rev, index) into one float so the native numeric sort
 * does the work: a million revisions sort in well under a second.
 */
function sortedOrder(flat: RecordedRevision[]): Uint32Array {
  const n = flat.length;
  const order = new Uint32Array(n);
  const SHIFT = 2 ** 21;
  const fits = n < SHIFT && flat.every((r) => r.rev < 2 ** 31);
  if (fits) {
    const packed = new Float64Array(n);
    for (let i = 0; i < n; i++) packed[i] = flat[i]!.rev * SHIFT + i;
    packed.sort();
    for (let i = 0; i < n; i++) order[i] = packed[i]! % SHIFT;
    return order;
  }
  const idx: number[] = [];
  for (let i = 0; i < n; i++) idx.push(i);
  idx.sort((a, b) => flat[a]!.rev - flat[b]!.rev || a - b);
  order.set(idx);
  return order;
}
