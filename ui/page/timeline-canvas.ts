/**
 * Draws a timeline from the JSON `/api/lanes` answers (src/ui/lanes-view.ts) onto a canvas, for
 * any time window inside the one the data was aggregated for: a band of the answers'
 * resourceVersions with the compaction floor as a stepped line, then one lane per client or
 * resource with watch bars, event marks, list/get/write ticks and problems. Marks and ticks are merged per
 * pixel column and written into a pixel buffer, so a frame costs one pass over the columns of each
 * lane however many buckets the data holds, and one put of the buffer. No DOM besides the canvas:
 * other views (an explore report) reuse it.
 */
import type { LanesView } from './types';

export const LANE_HEIGHT = 30;
/** Height of the resourceVersion band above the lanes (0 when the data has no RV). */
const RV_BAND_HEIGHT = 64;
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
export function timelineHeight(d: LanesView, band = rvBand(d)): number {
  return band + Math.max(1, d.lanes.length) * LANE_HEIGHT;
}

/** The RV band's height for `d`: the band is drawn when an answer carried an RV or a compaction is known. */
export function rvBand(d: LanesView): number {
  return d.rv && d.rv.min !== null ? RV_BAND_HEIGHT : 0;
}

/**
 * Draws `d` for the window `view` on a canvas `w` × `h` CSS pixels (its backing store may be
 * larger: the device pixel ratio is read from it), with an RV band `band` pixels high (a page that
 * zooms keeps it while a window without RVs is shown, so that the lanes stay where they were). What is drawn per column — backgrounds, bars,
 * marks, ticks, RV points — is written into a pixel buffer and put in one call; the floor line,
 * the labels and the brush are drawn over it. `scratch` keeps the buffers between frames.
 */
export function drawTimeline(g: CanvasRenderingContext2D, d: LanesView, view: TimeWindow, w: number, h: number, brush?: TimeWindow, scratch = new Scratch(), band = rvBand(d)): Drawn {
  const dpr = g.canvas.width / w || 1;
  const px = scratch.pixels(g, g.canvas.width, g.canvas.height);
  const span = view.to - view.from;
  const x = (t: number) => ((t - view.from) / span) * w;
  const bucketX = (b: number) => x(d.from + (b + 0.5) * d.bucketMs);
  const cols = Math.ceil(w);
  scratch.size(cols);
  // Device-pixel rectangles from CSS-pixel coordinates.
  const rect = (x0: number, y0: number, x1: number, y1: number, colour: number) => px.rect(x0 * dpr, y0 * dpr, x1 * dpr, y1 * dpr, colour);
  let drawn: Drawn = { rvColumns: 0, floorSteps: 0 };
  const rvs = d.rv.min !== null;
  if (band) {
    rect(0, 0, w, band - 1, PX.band);
    rect(0, band - 1, w, band, PX.bandLine);
    if (rvs) drawn = rvPoints(d, band, cols, bucketX, scratch, rect);
  }
  d.lanes.forEach((lane, i) => {
    const y = band + i * LANE_HEIGHT;
    const odd = i % 2 === 1;
    rect(0, y, w, y + LANE_HEIGHT, odd ? PX.laneOdd : PX.lane);
    const bar = odd ? PX.barOdd : PX.bar;
    for (const [, start, end] of lane.bars) {
      const x0 = Math.max(0, x(start));
      const x1 = Math.min(w, x(end));
      if (x1 < 0 || x0 > w) continue;
      rect(x0, y + 9, Math.max(x0 + 1, x1), y + 21, bar);
    }
    for (const [, , end, ended] of lane.bars) {
      if (ended !== 'expired') continue;
      const x1 = x(end);
      if (x1 >= -2 && x1 <= w + 2) rect(x1 - 2, y + 5, x1 + 1, y + 25, PX.expired);
    }
    // Event marks: the events per pixel column, one mark whose height grows with the log of the count.
    const events = scratch.a;
    events.fill(0, 0, cols);
    for (const [, b, n] of lane.marks) {
      const c = Math.floor(bucketX(b));
      if (c >= 0 && c < cols) events[c] += n;
    }
    for (let c = 0; c < cols; c++) {
      const n = events[c]!;
      if (n === 0) continue;
      const hgt = Math.min(12, 4 + Math.log2(n) * 2);
      rect(c, y + 15 - hgt / 2, c + 2, y + 15 + hgt / 2, PX.events);
    }
    // Ticks: per pixel column, the highest status among them decides the colour.
    const status = scratch.b;
    status.fill(-1, 0, cols);
    for (const [b, , , st] of lane.ticks) {
      const c = Math.floor(bucketX(b));
      if (c >= 0 && c < cols && st > status[c]!) status[c] = st;
    }
    for (let c = 0; c < cols; c++) {
      const st = status[c]!;
      if (st >= 0) rect(c, y + 4, c + 1.5, y + LANE_HEIGHT - 4, st >= 400 ? PX.badTick : PX.tick);
    }
  });
  // Problems (410, 429, faults …): a coloured mark with a white edge at their instant, over everything in their lane.
  for (const p of d.problems) {
    if (p.lane < 0) continue;
    const px0 = x(p.at);
    if (px0 < -5 || px0 > w + 5) continue;
    const y = band + p.lane * LANE_HEIGHT;
    rect(px0 - 4, y + 3, px0 + 5, y + 27, PX.lane);
    rect(px0 - 3, y + 4, px0 + 4, y + 26, problemPixel(p.kind));
  }
  px.put(g);
  if (band && rvs) drawn.floorSteps = drawFloor(g, d, w, band, x);
  if (brush) {
    g.fillStyle = COLOURS.brush;
    const x0 = x(brush.from);
    g.fillRect(x0, 0, x(brush.to) - x0, h);
  }
  return drawn;
}

/** Where the RV band maps a resourceVersion. */
function rvY(d: LanesView, band: number): (rv: number) => number {
  const lo = d.rv.min!;
  const inner = band - 16;
  if (d.rv.max === lo) return () => 8 + inner / 2;
  const range = d.rv.max! - lo;
  return (rv) => 8 + inner - ((rv - lo) / range) * inner;
}

/** The answers' RVs per pixel column as vertical strokes from lowest to highest. */
function rvPoints(d: LanesView, band: number, cols: number, bucketX: (b: number) => number, scratch: Scratch, rect: (x0: number, y0: number, x1: number, y1: number, c: number) => void): Drawn {
  const y = rvY(d, band);
  const colLo = scratch.a;
  const colHi = scratch.b;
  colLo.fill(Infinity, 0, cols);
  colHi.fill(-Infinity, 0, cols);
  for (const [b, pLo, pHi] of d.rv.points) {
    const c = Math.floor(bucketX(b));
    if (c < 0 || c >= cols) continue;
    if (pLo < colLo[c]!) colLo[c] = pLo;
    if (pHi > colHi[c]!) colHi[c] = pHi;
  }
  let rvColumns = 0;
  for (let c = 0; c < cols; c++) {
    if (colHi[c] === -Infinity) continue;
    rvColumns++;
    const y0 = y(colHi[c]!);
    rect(c - 1, y0 - 1, c + 2, Math.max(y0 + 2, y(colLo[c]!) + 1), PX.rv);
  }
  return { rvColumns, floorSteps: 0 };
}

/** The compaction floor as a stepped dashed line with a mark at each compaction, and the band's RV scale; returns the steps drawn. */
function drawFloor(g: CanvasRenderingContext2D, d: LanesView, w: number, band: number, x: (t: number) => number): number {
  const { floors, min, max } = d.rv;
  const y = rvY(d, band);
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
  g.fillText(`RV ${max}`, 4, 16);
  g.fillText(`RV ${min}`, 4, band - 8);
  return floorSteps;
}

/** `#rrggbb` (over white when `alpha` < 1, or over `under`) as a pixel of an ImageData's Uint32Array (little-endian ABGR). */
function pixel(hex: string, alpha = 1, under = '#ffffff'): number {
  const rgb = (h: string) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
  const top = rgb(hex);
  const bottom = rgb(under);
  const [r, g, b] = top.map((v, i) => Math.round(v * alpha + bottom[i]! * (1 - alpha)));
  return ((255 << 24) | (b! << 16) | (g! << 8) | r!) >>> 0;
}

const PROBLEM_PX = new Map(Object.entries(KIND_COLOURS).map(([k, c]) => [k, pixel(c)]));
const problemPixel = (kind: string) => PROBLEM_PX.get(kind) ?? pixel('#cc0000');

const PX = {
  band: pixel('#fbfcfd'), bandLine: pixel('#e3e7ec'), lane: pixel('#ffffff'), laneOdd: pixel('#f6f7f9'),
  bar: pixel(COLOURS.bar, 0.35), barOdd: pixel(COLOURS.bar, 0.35, '#f6f7f9'), expired: pixel(KIND_COLOURS['410']!),
  events: pixel(COLOURS.events), tick: pixel(COLOURS.tick), badTick: pixel(COLOURS.badTick), rv: pixel(COLOURS.rv),
};

/** A canvas-sized pixel buffer: rectangles in device pixels, then put on the canvas in one call. */
class Pixels {
  readonly image: ImageData;
  readonly u: Uint32Array;
  constructor(g: CanvasRenderingContext2D, readonly width: number, readonly height: number) {
    this.image = g.createImageData(width, height);
    this.u = new Uint32Array(this.image.data.buffer);
  }

  rect(x0: number, y0: number, x1: number, y1: number, colour: number): void {
    const l = Math.max(0, Math.round(x0));
    const r = Math.min(this.width, Math.max(l + 1, Math.round(x1)));
    const t = Math.max(0, Math.round(y0));
    const b = Math.min(this.height, Math.max(t + 1, Math.round(y1)));
    if (l >= r || t >= b) return;
    for (let y = t; y < b; y++) this.u.fill(colour, y * this.width + l, y * this.width + r);
  }

  put(g: CanvasRenderingContext2D): void {
    g.putImageData(this.image, 0, 0);
  }
}

/** Buffers kept between frames, so that drawing allocates nothing: per-column arrays, and the pixel buffer. */
export class Scratch {
  a = new Float64Array(0);
  b = new Float64Array(0);
  private buffer: Pixels | undefined;
  size(n: number): void {
    if (this.a.length >= n) return;
    this.a = new Float64Array(n * 2);
    this.b = new Float64Array(n * 2);
  }

  pixels(g: CanvasRenderingContext2D, width: number, height: number): Pixels {
    if (this.buffer?.width !== width || this.buffer.height !== height) this.buffer = new Pixels(g, width, height);
    return this.buffer;
  }
}
