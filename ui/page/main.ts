/** The page: tabs over the five views, fed by the API (`kubetape ui`) or by the data a report embeds. */
import './style.css';
import { TABS, type App, type Tab } from './app';
import { clear, h } from './dom';
import { Exchanges } from './exchanges';
import { Objects } from './objects';
import { ApiSource, ReportSource, type ReportData, type Source } from './source';
import { renderSummary } from './summary';
import { TimeTravel } from './time-travel';
import { Timeline } from './timeline';

declare global {
  interface Window { __KUBETAPE_REPORT__?: ReportData }
}

/** How often the page asks whether the recording grew. */
const FOLLOW_MS = 1000;

const TITLES: Record<Tab, string> = { timeline: 'Timeline', exchanges: 'Exchanges', objects: 'Objects', 'time-travel': 'Time travel', summary: 'Summary' };

async function start(): Promise<void> {
  const report = window.__KUBETAPE_REPORT__;
  const source: Source = report ? new ReportSource(report) : new ApiSource();
  const root = document.getElementById('app')!;
  const facets = await source.facets();
  const loaded = new Set<Tab>();
  const app: App = {
    source,
    facets,
    filter: {},
    show: (tab) => void show(tab),
    openExchange: (id) => void openExchange(id),
    filtered: () => {
      void timeline.load();
      void exchanges.load();
      void objects.filtered();
      void travel.filtered();
    },
  };
  const timeline = new Timeline(app);
  const exchanges = new Exchanges(app);
  const objects = new Objects(app);
  const travel = new TimeTravel(app);
  const summary = h('section', { id: 'summary' });
  const panels: Record<Tab, HTMLElement> = { timeline: timeline.el, exchanges: exchanges.el, objects: objects.el, 'time-travel': travel.el, summary };
  const nav = h('nav', {}, h('b', { class: 'brand' }, 'kubetape'), h('span', { class: 'file' }, report ? `${report.title} (report)` : document.title.replace(/ · kubetape$/, '')),
    ...TABS.map((t) => h('button', { class: 'tab', 'data-tab': t, onclick: () => void show(t) }, TITLES[t])));
  clear(root, nav, ...TABS.map((t) => panels[t]));

  async function show(tab: Tab): Promise<void> {
    for (const t of TABS) panels[t].hidden = t !== tab;
    for (const b of nav.querySelectorAll('.tab')) b.classList.toggle('active', (b as HTMLElement).dataset.tab === tab);
    if (loaded.has(tab)) {
      if (tab === 'timeline') timeline.shown();
      return;
    }
    loaded.add(tab);
    if (tab === 'timeline') await timeline.load();
    else if (tab === 'exchanges') await exchanges.load();
    else if (tab === 'objects') await objects.load();
    else if (tab === 'time-travel') await travel.load();
    else await renderSummary(app, summary);
  }

  async function openExchange(id: number): Promise<void> {
    await show('exchanges');
    await exchanges.open(id);
  }

  await show('timeline');
  document.body.dataset.ready = '1';
  if (source.live) follow();

  /** Follows a recording that is still being written (record, serve --out): new exchanges and compactions appear without a reload. */
  function follow(): void {
    const state = (s: { exchanges?: number; compactions?: number }) => `${s.exchanges ?? -1}/${s.compactions ?? 0}`;
    let known = state(facets.span);
    setInterval(async () => {
      const span = await source.span().catch(() => undefined);
      if (!span || state(span) === known) return;
      known = state(span);
      const oldTo = facets.span.to;
      facets.span = span;
      timeline.grow(oldTo, span.to);
      travel.grow(span.to);
      if (loaded.has('exchanges')) void exchanges.load(exchanges.offset);
    }, FOLLOW_MS);
  }
}

start().catch((err) => {
  document.body.dataset.error = String(err);
  document.getElementById('app')!.textContent = `kubetape: ${err instanceof Error ? err.message : String(err)}`;
});
