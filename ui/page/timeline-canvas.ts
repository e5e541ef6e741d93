/**
 * Draws a timeline from the JSON `/api/lanes` answers (src/ui/lanes-view.ts) onto a canvas, for
 * any time window inside the one the data was aggregated for: a band of the answers'
 * resourceVersions with the compaction floor as a stepped line, then one lane per client or
 * resource with watch bars, event marks and list/get/write ticks. Marks and ticks are merged per
 * pixel column before drawing, so a frame costs one rectangle per column and lane however many
 * buckets the data holds. No DOM besides the canvas: other views (an explore report) reuse it.
 */
import type { LanesView } from './types';

export const LANE_HEIGHT = 30;
/** Height of the resourceVersion band above the lanes (0 when the data has no RV). */
export const RV_BAND_HEIGHT = 64;
export const KIND_COLOURS: Record<string, string> = {
  '410': '#d7263d', '429': '#f49d37', fault: '#8e44ad', reset: '#c0392b', error: '#c0392b', '5xx': '#e74c3c', '4xx': '#e67e22', 'no-response': '#7f8c8d',
};
export const COLOURS = { bar: '#3b6ea5', events: '#0b2545', tick: '#888888', badTick: '#e67e22', rv: '#1f9e89', floor: '#d7263d', brush: 'rgba(255, 200, 0, 0.25)' };

export interface TimeWindow {
  from: number;
  to: number;
}

/** What one frame drew (tests and the benchmark read it from data attributes). */
export interface Drawn {
  rvColumns: number;
  floorSteps: number;
}

/** The height the canvas needs for `d`. */
export function timelineHeight(d: LanesView): number {
  return rvBand(d) + Math.max(1, d.lanes.length) * LANE_HEIGHT;
}

/** The RV band's height for `d`: the band is drawn when an answer carried an RV or a compaction is known. */
export function rvBand(d: LanesView): number {
  return d.rv && d.rv.min !== null ? RV_BAND_HEIGHT : 0;
}

/**
 * Draws `d` for the window `view` on a context already scaled to CSS pixels, `w` × `h`.
 * `columns` is scratch space reused across frames (grown as needed).
 */
export function drawTimeline(g: CanvasRenderingContext2D, d: LanesView, view: TimeWindow, w: number, h: number, brush?: TimeWindow, scratch = new Scratch()): Drawn {
  const span = view.to - view.from;
  const x = (t: number) => ((t - view.from) / span) * w;
  const bucketX = (b: number) => x(d.from + (b + 0.5) * d.bucketMs);
  const cols = Math.ceil(w);
  scratch.size(cols);
  g.clearRect(0, 0, w, h);
  const band = rvBand(d);
  const drawn = band ? drawRvBand(g, d, w, band, bucketX, x, scratch) : { rvColumns: 0, floorSteps: 0 };
  d.lanes.forEach((lane, i) => {
    const y = band + i * LANE_HEIGHT;
    g.fillStyle = i % 2 ? '#f6f7f9' : '#fff';
    g.fillRect(0, y, w, LANE_HEIGHT);
    g.fillStyle = COLOURS.bar;
    g.globalAlpha = 0.35;
    for (const [, start, end] of lane.bars) {
      const x0 = Math.max(0, x(start));
      const x1 = Math.min(w, x(end));
      if (x1 < 0 || x0 > w) continue;
      g.fillRect(x0, y + 9, Math.max(1, x1 - x0), 12);
    }
    g.globalAlpha = 1;
    g.fillStyle = KIND_COLOURS['410']!;
    for (const [, , end, ended] of lane.bars) {
      if (ended !== 'expired') continue;
      const x1 = x(end);
      if (x1 >= -2 && x1 <= w + 2) g.fillRect(x1 - 2, y + 5, 3, 20);
    }
    // Event marks: the events per pixel column, drawn as one bar whose height grows with the log of the count.
    const events = scratch.a;
    events.fill(0, 0, cols);
    for (const [, b, n] of lane.marks) {
      const c = Math.floor(bucketX(b));
      if (c >= 0 && c < cols) events[c] += n;
    }
    g.fillStyle = COLOURS.events;
    for (let c = 0; c < cols; c++) {
      const n = events[c]!;
      if (n === 0) continue;
      const hgt = Math.min(12, 4 + Math.log2(n) * 2);
      g.fillRect(c - 0.5, y + 15 - hgt / 2, 2, hgt);
    }
    // Ticks: per pixel column, the highest status among them decides the colour.
    const status = scratch.b;
    status.fill(-1, 0, cols);
    for (const [b, , , s] of lane.ticks) {
      const c = Math.floor(bucketX(b));
      if (c >= 0 && c < cols && s > status[c]!) status[c] = s;
    }
    for (let c = 0; c < cols; c++) {
      const s = status[c]!;
      if (s < 0) continue;
      g.fillStyle = s >= 400 ? COLOURS.badTick : COLOURS.tick;
      g.fillRect(c - 0.25, y + 4, 1.5, LANE_HEIGHT - 8);
    }
  });
  if (brush) {
    g.fillStyle = COLOURS.brush;
    const x0 = x(brush.from);
    g.fillRect(x0, 0, x(brush.to) - x0, h);
  }
  return drawn;
}

/** The answers' RVs per pixel column as vertical strokes from lowest to highest, and the compaction floor as a stepped line with a mark at each compaction. */
function drawRvBand(g: CanvasRenderingContext2D, d: LanesView, w: number, band: number, bucketX: (b: number) => number, x: (t: number) => number, scratch: Scratch): Drawn {
  const { points, floors, min, max } = d.rv;
  const lo = min!;
  const range = Math.max(1, max! - lo);
  const top = 8;
  const inner = band - 16;
  const y = (rv: number) => top + inner - ((rv - lo) / range) * inner;
  g.fillStyle = '#fbfcfd';
  g.fillRect(0, 0, w, band);
  g.fillStyle = '#e3e7ec';
  g.fillRect(0, band - 1, w, 1);
  const cols = Math.ceil(w);
  const colLo = scratch.a;
  const colHi = scratch.b;
  colLo.fill(Infinity, 0, cols);
  colHi.fill(-Infinity, 0, cols);
  for (const [b, pLo, pHi] of points) {
    const c = Math.floor(bucketX(b));
    if (c < 0 || c >= cols) continue;
    if (pLo < colLo[c]!) colLo[c] = pLo;
    if (pHi > colHi[c]!) colHi[c] = pHi;
  }
  let rvColumns = 0;
  g.fillStyle = COLOURS.rv;
  for (let c = 0; c < cols; c++) {
    if (colHi[c] === -Infinity) continue;
    rvColumns++;
    const y0 = y(colHi[c]!);
    g.fillRect(c - 1, y0 - 1, 3, Math.max(3, y(colLo[c]!) - y0 + 2));
  }
  let floorSteps = 0;
  if (floors.length) {
    g.strokeStyle = COLOURS.floor;
    g.lineWidth = 2;
    g.setLineDash([5, 3]);
    g.beginPath();
    for (let i = 0; i < floors.length; i++) {
      const [at, rv] = floors[i]!;
      const x0 = Math.max(0, x(at));
      const x1 = i + 1 < floors.length ? Math.min(w, x(floors[i + 1]![0])) : w;
      if (x1 < 0 || x0 > w) continue;
      const fy = y(rv);
      g.moveTo(x0, fy);
      g.lineTo(x1, fy);
      if (i + 1 < floors.length && x1 < w) g.lineTo(x1, y(floors[i + 1]![1]));
      floorSteps++;
    }
    g.stroke();
    g.setLineDash([]);
    // Each compaction in view also as a mark at its instant (the last one may sit on the window's edge).
    g.fillStyle = COLOURS.floor;
    for (const [at, rv] of floors) {
      const fx = x(at);
      if (fx < 0 || fx > w) continue;
      g.fillRect(Math.min(w - 3, fx - 1), y(rv) - 5, 3, 10);
    }
  }
  g.fillStyle = '#556';
  g.font = '10px system-ui, sans-serif';
  g.fillText(`RV ${max}`, 4, top + 8);
  g.fillText(`RV ${min}`, 4, top + inner);
  return { rvColumns, floorSteps };
}

/** Per-column scratch arrays, kept between frames so that drawing allocates nothing. */
export class Scratch {
  a = new Float64Array(0);
  b = new Float64Array(0);
  size(n: number): void {
    if (this.a.length >= n) return;
    this.a = new Float64Array(n * 2);
    this.b = new Float64Array(n * 2);
  }
}
