/**
 * The timeline: one lane per client or resource; list/get/write exchanges as ticks, watches as
 * bars with their events as marks, problems (410, 429, faults, resets, errors) as coloured
 * buttons over the canvas and listed beside. Wheel zooms, drag pans, shift-drag brushes a range
 * (which filters the exchanges table), double-click resets. Counts are on data attributes.
 */
import type { App } from './app';
import { clear, debounce, h, time } from './dom';
import type { LanesView } from './types';

const LANE_HEIGHT = 30;
const LABEL_WIDTH = 240;
export const KIND_COLOURS: Record<string, string> = {
  '410': '#d7263d', '429': '#f49d37', fault: '#8e44ad', reset: '#c0392b', error: '#c0392b', '5xx': '#e74c3c', '4xx': '#e67e22', 'no-response': '#7f8c8d',
};

export class Timeline {
  readonly el = h('section', { id: 'timeline' });
  private by: 'client' | 'resource' = 'client';
  private view = { from: 0, to: 1 };
  private data: LanesView | undefined;
  private readonly canvas = h('canvas', { class: 'lanes-canvas' });
  private readonly overlay = h('div', { class: 'lanes-overlay' });
  private readonly labels = h('div', { class: 'lane-labels' });
  private readonly problems = h('ol', { class: 'problems' });
  private readonly range = h('div', { class: 'range' });
  private readonly chart = h('div', { class: 'chart' }, this.canvas, this.overlay);
  private brush: { from: number; to: number } | undefined;
  private readonly refetch = debounce(120, () => void this.load());

  constructor(private readonly app: App) {
    this.view = { ...app.facets.span };
    const switcher = h('select', { id: 'lane-by', onchange: (e: Event) => { this.by = (e.target as HTMLSelectElement).value as 'client' | 'resource'; void this.load(); } },
      h('option', { value: 'client' }, 'lanes by client'), h('option', { value: 'resource' }, 'lanes by resource'));
    const reset = h('button', { onclick: () => this.reset() }, 'reset zoom');
    clear(this.el,
      h('div', { class: 'toolbar' }, switcher, reset, this.range, h('span', { class: 'hint' }, 'wheel: zoom · drag: pan · shift-drag: filter a range · click: open')),
      h('div', { class: 'timeline-body' }, this.labels, this.chart, h('aside', { class: 'problems-box' }, h('h3', {}, 'Problems'), this.problems)),
      h('div', { class: 'legend' }, ...Object.entries(KIND_COLOURS).map(([k, c]) => h('span', {}, h('i', { style: `background:${c}` }), k)),
        h('span', {}, h('i', { style: 'background:#3b6ea5' }), 'watch'), h('span', {}, h('i', { style: 'background:#0b2545' }), 'watch events'), h('span', {}, h('i', { style: 'background:#888' }), 'list/get/write')));
    this.interact();
    new ResizeObserver(debounce(100, () => this.draw())).observe(this.chart);
  }

  async load(): Promise<void> {
    const width = Math.max(200, Math.floor(this.chart.clientWidth || 1000));
    const { from: _f, to: _t, ...filter } = this.app.filter;
    this.data = await this.app.source.lanes(this.by, this.view, filter, width);
    this.draw();
  }

  /** The recording grew to `to`: a view that showed its end keeps showing it. */
  grow(oldTo: number, to: number): void {
    if (this.view.to >= oldTo - 1) this.view = { from: this.view.from, to };
    void this.load();
  }

  private reset(): void {
    this.view = { ...this.app.facets.span };
    this.brush = undefined;
    if (this.app.filter.from !== undefined || this.app.filter.to !== undefined) {
      delete this.app.filter.from;
      delete this.app.filter.to;
      this.app.filtered();
    } else void this.load();
  }

  private x(t: number, w: number): number {
    return ((t - this.view.from) / (this.view.to - this.view.from)) * w;
  }

  private draw(): void {
    const d = this.data;
    if (!d) return;
    const w = this.chart.clientWidth || 1000;
    const height = Math.max(1, d.lanes.length) * LANE_HEIGHT;
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.floor(w * dpr);
    this.canvas.height = Math.floor(height * dpr);
    this.canvas.style.width = `${w}px`;
    this.canvas.style.height = `${height}px`;
    this.chart.style.height = `${height}px`;
    const g = this.canvas.getContext('2d')!;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, w, height);
    d.lanes.forEach((lane, i) => {
      const y = i * LANE_HEIGHT;
      g.fillStyle = i % 2 ? '#f6f7f9' : '#fff';
      g.fillRect(0, y, w, LANE_HEIGHT);
      for (const [, start, end, ended] of lane.bars) {
        const x0 = Math.max(0, this.x(start, w));
        const x1 = Math.min(w, this.x(end, w));
        if (x1 < 0 || x0 > w) continue;
        g.fillStyle = '#3b6ea5';
        g.globalAlpha = 0.35;
        g.fillRect(x0, y + 9, Math.max(1, x1 - x0), 12);
        g.globalAlpha = 1;
        if (ended === 'expired') { g.fillStyle = KIND_COLOURS['410']!; g.fillRect(x1 - 2, y + 5, 3, 20); }
      }
      g.fillStyle = '#0b2545';
      for (const [, b, n] of lane.marks) {
        const x = this.x(d.from + (b + 0.5) * d.bucketMs, w);
        if (x < 0 || x > w) continue;
        const hgt = Math.min(12, 4 + Math.log2(n) * 2);
        g.fillRect(x - 1, y + 15 - hgt / 2, 2, hgt);
      }
      for (const [b, , , status] of lane.ticks) {
        const x = this.x(d.from + (b + 0.5) * d.bucketMs, w);
        if (x < 0 || x > w) continue;
        g.fillStyle = status >= 400 ? '#e67e22' : '#888';
        g.fillRect(x - 0.75, y + 4, 1.5, LANE_HEIGHT - 8);
      }
    });
    if (this.brush) {
      g.fillStyle = 'rgba(255, 200, 0, 0.25)';
      const x0 = this.x(this.brush.from, w);
      g.fillRect(x0, 0, this.x(this.brush.to, w) - x0, height);
    }
    clear(this.labels, ...d.lanes.map((l) => h('div', { class: 'lane-label', title: l.key, style: `height:${LANE_HEIGHT}px` }, l.key, h('small', {}, ` ${l.exchanges}`))));
    clear(this.overlay, ...d.problems.filter((p) => p.lane >= 0).map((p) => h('button', {
      class: 'mark problem-mark', 'data-kind': p.kind, 'data-exchange': p.id, title: `${p.kind} ${p.label}`,
      style: `left:${this.x(p.at, w) - 4}px;top:${p.lane * LANE_HEIGHT + 3}px;background:${KIND_COLOURS[p.kind] ?? '#c00'}`,
      onclick: (e: Event) => { e.stopPropagation(); this.app.openExchange(p.id); },
    })));
    clear(this.problems, ...d.problems.map((p) => h('li', {}, h('button', { class: 'problem', 'data-kind': p.kind, 'data-exchange': p.id, onclick: () => this.app.openExchange(p.id) },
      h('b', { style: `color:${KIND_COLOURS[p.kind] ?? '#c00'}` }, p.kind), ` ${time(p.at)} `, p.status ?? '', p.rule ? ` [${p.rule}]` : '', h('br', {}), h('small', {}, p.label)))),
      d.problemTotal > d.problems.length ? h('li', {}, `… ${d.problemTotal - d.problems.length} more`) : null, d.problems.length === 0 ? h('li', { class: 'none' }, 'none') : null);
    clear(this.range, `${time(this.view.from)} → ${time(this.view.to)} (${((this.view.to - this.view.from) / 1000).toFixed(3)} s)`,
      this.app.filter.from !== undefined ? ` · filtered ${time(this.app.filter.from)} → ${time(this.app.filter.to!)}` : '');
    Object.assign(this.el.dataset, {
      lanes: String(d.counts.lanes), events: String(d.counts.events), ticks: String(d.counts.ticks), bars: String(d.counts.bars),
      problems: String(d.problemTotal), exchanges: String(d.counts.exchanges), by: d.by,
    });
  }

  private tAt(clientX: number): number {
    const r = this.chart.getBoundingClientRect();
    return this.view.from + ((clientX - r.left) / r.width) * (this.view.to - this.view.from);
  }

  private interact(): void {
    this.chart.addEventListener('wheel', (e) => {
      e.preventDefault();
      const t = this.tAt(e.clientX);
      const k = Math.exp(e.deltaY * 0.002);
      const span = Math.max(1, (this.view.to - this.view.from) * k);
      const f = (t - this.view.from) / (this.view.to - this.view.from);
      this.view = { from: t - f * span, to: t - f * span + span };
      this.draw();
      this.refetch();
    }, { passive: false });
    let drag: { x: number; view: { from: number; to: number }; brush: boolean; t0: number; moved: boolean } | undefined;
    this.chart.addEventListener('mousedown', (e) => {
      drag = { x: e.clientX, view: { ...this.view }, brush: e.shiftKey, t0: this.tAt(e.clientX), moved: false };
    });
    window.addEventListener('mousemove', (e) => {
      if (!drag) return;
      if (Math.abs(e.clientX - drag.x) > 3) drag.moved = true;
      if (drag.brush) {
        const t = this.tAt(e.clientX);
        this.brush = { from: Math.min(drag.t0, t), to: Math.max(drag.t0, t) };
      } else {
        const dt = ((e.clientX - drag.x) / this.chart.clientWidth) * (drag.view.to - drag.view.from);
        this.view = { from: drag.view.from - dt, to: drag.view.to - dt };
      }
      this.draw();
    });
    window.addEventListener('mouseup', (e) => {
      const d = drag;
      drag = undefined;
      if (!d) return;
      if (d.brush && d.moved && this.brush) {
        this.app.filter.from = this.brush.from;
        this.app.filter.to = this.brush.to;
        this.app.filtered();
      } else if (d.moved) this.refetch();
      else this.click(e);
    });
    this.chart.addEventListener('dblclick', () => this.reset());
  }

  /** Opens the exchange drawn nearest the click in its lane (a tick, or the watch bar under it). */
  private click(e: MouseEvent): void {
    const d = this.data;
    if (!d) return;
    const r = this.chart.getBoundingClientRect();
    const lane = d.lanes[Math.floor((e.clientY - r.top) / LANE_HEIGHT)];
    if (!lane) return;
    const w = r.width;
    const x = e.clientX - r.left;
    let best: [number, number] | undefined;
    for (const [b, , id] of lane.ticks) {
      const dx = Math.abs(this.x(d.from + (b + 0.5) * d.bucketMs, w) - x);
      if (dx < 6 && (!best || dx < best[0])) best = [dx, id];
    }
    if (!best) for (const [id, start, end] of lane.bars) if (x >= this.x(start, w) - 3 && x <= this.x(end, w) + 3) best = [0, id];
    if (best) this.app.openExchange(best[1]);
  }
}
