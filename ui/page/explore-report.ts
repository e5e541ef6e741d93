/**
 * The page of `kubetape explore report --html`: the summary, the findings, and for the one picked
 * the UI's own timeline and exchanges views over its recorded run (the data inspect --html embeds),
 * opened on the window around the perturbation, which is marked on the controller's lane and
 * listed first among the problems; then what explore saw around it (requests, notifications
 * delivered or withheld, changes).
 */
import './style.css';
import './explore-report.css';
import type { App } from './app';
import { clear, h } from './dom';
import { Exchanges } from './exchanges';
import { ReportSource, type ReportData } from './source';
import { Timeline } from './timeline';
import type { Filter, LanesView } from './types';

interface Entry { t: number; kind: string; [k: string]: unknown }
interface Finding {
  class: string; flaky: boolean; plan: string; explain: string; difference: string[]; rerun: string; entries: Entry[];
  perturbedAt?: number; window?: { from: number; to: number }; timeline?: ReportData;
}
interface ExploreReport { explore: true; title: string; summary: string; workloadClient: string; findings: Finding[] }

/** The recorded run, with the perturbation as the first problem of the timeline. */
class FindingSource extends ReportSource {
  constructor(data: ReportData, private readonly finding: Finding, private readonly workloadClient: string) {
    super(data);
  }

  async lanes(by: 'client' | 'resource', view: { from: number; to: number }, f: Filter): Promise<LanesView> {
    const v = await super.lanes(by, view, f);
    const at = this.finding.perturbedAt;
    if (at === undefined) return v;
    const lane = by === 'client'
      ? v.lanes.findIndex((l) => !l.key.startsWith(this.workloadClient))
      : Math.max(0, v.lanes.findIndex((l) => this.finding.explain.includes(` ${l.key} `)));
    const near = await this.exchanges({}, 0, Number.MAX_SAFE_INTEGER);
    const id = near.rows.reduce((best, r) => (Math.abs(r.at - at) < Math.abs(best.at - at) ? r : best), near.rows[0] ?? { id: 0, at }).id;
    const mark = { id, at, lane, kind: 'perturbation', status: null, rule: 'explore', label: this.finding.explain };
    return { ...v, problems: [mark, ...v.problems], problemTotal: v.problemTotal + 1 };
  }
}

function describe(e: Entry): string {
  const obj = `${e.resource ?? ''} ${e.namespace ? `${e.namespace}/` : ''}${e.name ?? ''}`;
  switch (e.kind) {
    case 'request': return `${e.who} ${e.verb} ${obj}${e.status ? ` → ${e.status}` : ''}`;
    case 'notification': return `controller ${e.withheld ? 'denied' : 'notified'}: ${e.type} ${obj} (change ${e.index}, rv ${e.rev})`;
    case 'change': return `committed: ${e.type} ${obj} (change ${e.index}, rv ${e.rev})`;
    case 'perturbation': return `perturbation: ${e.what}`;
    case 'step': return `workload step ${e.n}: ${e.step}`;
    default: return JSON.stringify(e);
  }
}

async function showFinding(report: ExploreReport, i: number, box: HTMLElement): Promise<void> {
  const f = report.findings[i]!;
  const head = [
    h('h2', {}, `${f.class}${f.flaky ? ' (flaky)' : ''} — ${f.plan}`),
    h('p', { class: 'explain' }, f.explain),
    h('h3', {}, 'Difference from the reference'),
    h('ul', { class: 'difference' }, ...f.difference.map((d) => h('li', {}, h('code', {}, d)))),
    h('p', {}, 'Reproduce: ', h('code', { class: 'rerun' }, f.rerun)),
  ];
  const log = h('table', { class: 'run-log' }, h('tr', {}, h('th', {}, 'ms'), h('th', {}, 'what explore saw')),
    ...f.entries.map((e) => h('tr', { class: `entry ${e.kind}` }, h('td', {}, e.t), h('td', {}, describe(e)))));
  if (!f.timeline) {
    clear(box, ...head, h('p', { class: 'none' }, 'This run was not recorded (a flaky finding keeps its first run, which is not).'), h('h3', {}, 'Around the perturbation'), log);
    return;
  }
  const source = new FindingSource(f.timeline, f, report.workloadClient);
  const facets = await source.facets();
  const window = f.window ?? facets.span;
  const app: App = {
    source,
    facets: { ...facets, span: { ...window } },
    filter: { from: window.from, to: window.to },
    show: () => undefined,
    openExchange: (id) => void exchanges.open(id).then(() => exchanges.detail.scrollIntoView({ block: 'nearest' })),
    filtered: () => {
      void timeline.load();
      void exchanges.load();
    },
  };
  const timeline = new Timeline(app);
  const exchanges = new Exchanges(app);
  clear(box, ...head, h('h3', {}, 'Timeline of the run around the perturbation'), timeline.el, h('h3', {}, 'Exchanges'), exchanges.el, h('h3', {}, 'What explore saw around the perturbation'), log);
  await Promise.all([timeline.load(), exchanges.load()]);
}

async function start(): Promise<void> {
  const report = (window as unknown as { __KUBETAPE_REPORT__: ExploreReport }).__KUBETAPE_REPORT__;
  const root = document.getElementById('app')!;
  const box = h('div', { id: 'finding' });
  const pick = (i: number) => {
    for (const b of list.querySelectorAll('button')) b.classList.toggle('active', (b as HTMLElement).dataset.finding === String(i));
    return showFinding(report, i, box);
  };
  const list = h('ol', { class: 'findings' }, ...report.findings.map((f, i) =>
    h('li', {}, h('button', { 'data-finding': i, 'data-class': f.class, class: f.flaky ? 'flaky' : '', onclick: () => void pick(i) }, h('b', {}, f.class), f.flaky ? ' (flaky) ' : ' ', f.plan))));
  clear(root,
    h('nav', {}, h('b', { class: 'brand' }, 'kubetape'), h('span', { class: 'file' }, report.title)),
    h('section', { class: 'explore-summary' }, h('pre', {}, report.summary), report.findings.length ? list : h('p', { class: 'none' }, 'No findings.')),
    box);
  if (report.findings.length) await pick(0);
  document.body.dataset.ready = '1';
}

start().catch((err) => {
  document.body.dataset.error = String(err);
  document.getElementById('app')!.textContent = `kubetape: ${err instanceof Error ? err.message : String(err)}`;
});
