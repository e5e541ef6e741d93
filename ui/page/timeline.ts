/**
 * The timeline: one lane per client or resource; list/get/write exchanges as ticks, watches as
 * bars with their events as marks, problems (410, 429, faults, resets, errors) as coloured marks
 * (transparent buttons over the canvas take the clicks) and listed beside; above the lanes, the
 * resourceVersion of the answers and the compaction floor. Wheel zooms, drag pans, shift-drag
 * brushes a range (which filters the exchanges table, the problems listed
 * beside, the objects view's revisions and moves time travel to its end), double-click resets. The canvas is drawn
 * by timeline-canvas.ts, at most once per animation frame; new data (fetched once a zoom or pan
 * settles) rebuilds the DOM around it. Counts are on data attributes.
 */
import type { App } from './app';
import { clear, debounce, h, time } from './dom';
import { COLOURS, drawTimeline, KIND_COLOURS, LANE_HEIGHT, rvBand, Scratch, timelineHeight } from './timeline-canvas';
import type { LanesView, Problem } from './types';

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
  private readonly clearRange = h('button', { class: 'clear-range', hidden: true, onclick: () => this.unbrush() }, 'clear range');
  private readonly chart = h('div', { class: 'chart' }, this.canvas, this.overlay);
  private brush: { from: number; to: number } | undefined;
  private readonly refetch = debounce(120, () => void this.load());
  /** The problem marks over the canvas, with the instant each stands for (moved on every frame). */
  private marks: Array<[HTMLElement, number]> = [];
  private readonly scratch = new Scratch();
  private size = { w: 0, h: 0, dpr: 0 };
  private frame = 0;
  private listed = '';
  private band = 0;
  private asked = 0;
  /** The window the data was fetched for, and the data whose marks stand placed for it. */
  private dataView = { from: 0, to: 1 };
  private placed: { data: LanesView; w: number } | undefined;
  private marked = '';
  private readonly made = new Map<number, { mark?: HTMLElement; item?: HTMLElement }>();

  constructor(private readonly app: App) {
    this.view = { ...app.facets.span };
    const switcher = h('select', { id: 'lane-by', onchange: (e: Event) => { this.by = (e.target as HTMLSelectElement).value as 'client' | 'resource'; void this.load(); } },
      h('option', { value: 'client' }, 'lanes by client'), h('option', { value: 'resource' }, 'lanes by resource'));
    const reset = h('button', { onclick: () => this.reset() }, 'reset zoom');
    clear(this.el,
      h('div', { class: 'toolbar' }, switcher, reset, this.range, this.clearRange, h('span', { class: 'hint' }, 'wheel: zoom · drag: pan · shift-drag: filter a range · click: open')),
      h('div', { class: 'timeline-body' }, this.labels, this.chart, h('aside', { class: 'problems-box' }, h('h3', {}, 'Problems'), this.problems)),
      h('div', { class: 'legend' }, ...Object.entries(KIND_COLOURS).map(([k, c]) => h('span', {}, h('i', { style: `background:${c}` }), k)),
        h('span', {}, h('i', { style: `background:${COLOURS.bar}` }), 'watch'), h('span', {}, h('i', { style: `background:${COLOURS.events}` }), 'watch events'),
        h('span', {}, h('i', { style: `background:${COLOURS.tick}` }), 'list/get/write'), h('span', {}, h('i', { style: `background:${COLOURS.rv}` }), 'resourceVersion of the answers'),
        h('span', {}, h('i', { style: `background:${COLOURS.floor}` }), 'compaction floor')));
    this.interact();
    new ResizeObserver(debounce(100, () => this.paint())).observe(this.chart);
  }

  async load(): Promise<void> {
    const width = Math.max(200, Math.floor(this.chart.clientWidth || 1000));
    const { from: _f, to: _t, ...filter } = this.app.filter;
    const view = { ...this.view };
    const asked = ++this.asked;
    this.clearRange.hidden = this.app.filter.from === undefined;
    if (this.app.filter.from === undefined) this.brush = undefined;
    const data = await this.app.source.lanes(this.by, view, filter, width);
    if (asked !== this.asked) return; // a later view was asked for meanwhile: its answer is drawn
    this.data = data;
    this.dataView = view;
    this.placed = undefined;
    this.render();
    // The list beside in a task of its own, after the frame that draws the new data.
    await new Promise((r) => setTimeout(r));
    if (this.data === data) this.listProblems(data);
  }

  /** The tab is shown again: drawn and its marks placed at the chart's width now (hidden, it has none). */
  shown(): void {
    this.paint();
  }

  /** The recording grew to `to`: a view that showed its end keeps showing it. */
  grow(oldTo: number, to: number): void {
    if (this.view.to >= oldTo - 1) this.view = { from: this.view.from, to };
    void this.load();
  }

  private reset(): void {
    this.view = { ...this.app.facets.span };
    this.unbrush();
  }

  /** Clears the brushed range: every view shows the whole recording again. */
  private unbrush(): void {
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

  /** New data: the labels, the problem marks, the counts; then a frame. */
  private render(): void {
    const d = this.data;
    if (!d) return;
    // The band stays once shown: a zoom into a window without RVs does not move the lanes.
    const band = (this.band = Math.max(this.band, rvBand(d)));
    clear(this.labels,
      band ? h('div', { class: 'rv-label', title: 'resourceVersion of each answer; dashed: the compaction floor', style: `height:${band}px` }, 'resourceVersion') : null,
      ...d.lanes.map((l) => h('div', { class: 'lane-label', title: l.key, style: `height:${LANE_HEIGHT}px` }, l.key, h('small', {}, ` ${l.exchanges}`))));
    this.marks = d.problems.filter((p) => p.lane >= 0).map((p) => {
      const mark = this.problemMark(p);
      mark.style.top = `${band + p.lane * LANE_HEIGHT + 3}px`;
      mark.style.left = '0';
      return [mark, p.at];
    });
    const marked = this.marks.map(([b]) => b.dataset.exchange).join(',');
    if (marked !== this.marked) this.overlay.replaceChildren(...this.marks.map(([b]) => b));
    this.marked = marked;
    Object.assign(this.el.dataset, {
      lanes: String(d.counts.lanes), events: String(d.counts.events), ticks: String(d.counts.ticks), bars: String(d.counts.bars),
      problems: String(d.problemTotal), exchanges: String(d.counts.exchanges), by: d.by,
      rvAnswers: String(d.rv.points.reduce((n, p) => n + p[3], 0)), rvMin: String(d.rv.min ?? ''), rvMax: String(d.rv.max ?? ''),
      floors: String(d.rv.floors.length), floor: String(d.rv.floors.at(-1)?.[1] ?? ''),
    });
    this.paint();
  }

  /** A problem's mark over the canvas, made once per exchange and reused by the next views (a zoom keeps most of them). */
  private problemMark(p: Problem): HTMLElement {
    let made = this.made.get(p.id);
    if (!made) this.made.set(p.id, (made = {}));
    return (made.mark ??= h('button', {
      class: 'mark problem-mark', 'data-kind': p.kind, 'data-exchange': p.id, title: `${p.kind} ${p.label}`,
      onclick: (e: Event) => { e.stopPropagation(); this.app.openExchange(p.id); },
    }));
  }

  /**
   * The problems listed beside (their entries made once per exchange): those of the view, or with a
   * brushed range only those in it; untouched when the view lists the same ones.
   */
  private listProblems(d: LanesView): void {
    const { from, to } = this.app.filter;
    const ranged = from !== undefined && to !== undefined;
    const shown = ranged ? d.problems.filter((p) => p.at >= from && p.at <= to) : d.problems;
    const more = ranged ? 0 : d.problemTotal - d.problems.length;
    const listed = `${from}-${to}:${d.problemTotal}:${shown.map((p) => p.id).join(',')}`;
    if (listed === this.listed) return;
    this.listed = listed;
    this.problems.dataset.listed = String(shown.length);
    this.problems.replaceChildren(...shown.map((p) => this.problemItem(p)),
      ...[more > 0 ? h('li', {}, `… ${more} more`) : null, shown.length === 0 ? h('li', { class: 'none' }, ranged ? 'none in the range' : 'none') : null].filter((x) => x !== null));
    this.forget(d.problems);
  }

  /** A problem's entry in the list beside, made once per exchange. */
  private problemItem(p: Problem): HTMLElement {
    let made = this.made.get(p.id);
    if (!made) this.made.set(p.id, (made = {}));
    return (made.item ??= h('li', {}, h('button', { class: 'problem', 'data-kind': p.kind, 'data-exchange': p.id, onclick: () => this.app.openExchange(p.id) },
      h('b', { style: `color:${KIND_COLOURS[p.kind] ?? '#c00'}` }, p.kind), ` ${time(p.at)} `, p.status ?? '', p.rule ? ` [${p.rule}]` : '', h('br', {}), h('small', {}, p.label))));
  }

  /** Keeps the made elements of the problems shown, so that the cache stays as large as one view. */
  private forget(shown: Problem[]): void {
    if (this.made.size <= 2 * shown.length + 100) return;
    const keep = new Set(shown.map((p) => p.id));
    for (const id of this.made.keys()) if (!keep.has(id)) this.made.delete(id);
  }

  /** Asks for a frame; several moves before it are drawn once. */
  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.paint();
    });
  }

  /** One frame: the canvas for the current window (resized only when its size changed), the problem marks moved, the range. */
  private paint(): void {
    const d = this.data;
    if (!d) return;
    const w = this.chart.clientWidth || 1000;
    const height = timelineHeight(d, this.band);
    const dpr = window.devicePixelRatio || 1;
    if (this.size.w !== w || this.size.h !== height || this.size.dpr !== dpr) {
      this.size = { w, h: height, dpr };
      this.canvas.width = Math.floor(w * dpr);
      this.canvas.height = Math.floor(height * dpr);
      this.canvas.style.width = `${w}px`;
      this.canvas.style.height = `${height}px`;
      this.chart.style.height = `${height}px`;
    }
    const g = this.canvas.getContext('2d')!;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    const drawn = drawTimeline(g, d, this.view, w, height, this.brush, this.scratch, this.band);
    // The problem marks' hit targets stand where the data's window puts them; while a zoom or pan has
    // moved away from it (until the view it settles on is fetched) they are hidden, not moved per frame.
    const settled = this.view.from === this.dataView.from && this.view.to === this.dataView.to;
    if (settled && (this.placed?.data !== d || this.placed.w !== w)) {
      for (const [button, at] of this.marks) button.style.transform = `translateX(${(this.x(at, w) - 4).toFixed(1)}px)`;
      this.placed = { data: d, w };
    }
    if (this.overlay.hidden === settled) this.overlay.hidden = !settled;
    this.range.textContent = `${time(this.view.from)} → ${time(this.view.to)} (${((this.view.to - this.view.from) / 1000).toFixed(3)} s)` +
      (this.app.filter.from !== undefined ? ` · filtered ${time(this.app.filter.from)} → ${time(this.app.filter.to!)}` : '');
    this.el.dataset.rvColumns = String(drawn.rvColumns);
    this.el.dataset.floorSteps = String(drawn.floorSteps);
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
      this.schedule();
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
      this.schedule();
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
    const lane = d.lanes[Math.floor((e.clientY - r.top - this.band) / LANE_HEIGHT)];
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
