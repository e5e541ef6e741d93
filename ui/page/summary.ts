/** Summary: what `kubetape inspect` prints, as a page; decode errors link to their exchanges. */
import type { App } from './app';
import { clear, h } from './dom';

export async function renderSummary(app: App, el: HTMLElement): Promise<void> {
  const s = await app.source.summary();
  const counts = (title: string, o: Record<string, number>) =>
    h('div', { class: 'counts' }, h('h4', {}, title), h('table', {}, ...Object.entries(o ?? {}).map(([k, n]) => h('tr', {}, h('th', {}, k), h('td', {}, n)))));
  clear(el,
    h('h3', {}, `${s.file}: ${s.exchanges} exchanges, ${s.firstAt ?? '—'} → ${s.lastAt ?? '—'}`),
    h('p', {}, `${s.lists} list pages · ${s.watches?.length ?? 0} watches (${s.watchEvents} events) · ${s.observations} observations · resourceVersions ${s.resourceVersionRange ? `${s.resourceVersionRange.min}..${s.resourceVersionRange.max}` : '—'}`),
    h('div', { class: 'grid' }, counts('by verb', s.byVerb), counts('by status', s.byStatus), counts('by outcome', s.byOutcome), counts('by resource', s.byResource), counts('objects per resource', s.objectsByResource)),
    h('h4', {}, 'Warnings'),
    h('ul', { class: 'warnings' },
      ...(s.partialObjects ?? []).map((p: any) => h('li', {}, `${p.resource}: ${p.tableRows} objects known only as Table rows, ${p.metadata} only as metadata (serve lacks their other fields)`)),
      ...(s.decodeErrors ?? []).map((d: any) => h('li', {}, h('button', { class: 'link', onclick: () => app.openExchange(d.exchangeId) }, `#${d.exchangeId}`), ` ${d.method} ${d.url}: ${d.error}`)),
      (s.partialObjects?.length ?? 0) + (s.decodeErrors?.length ?? 0) === 0 ? h('li', { class: 'none' }, 'none') : ''),
    h('details', {}, h('summary', {}, 'as JSON (inspect --json)'), h('pre', {}, JSON.stringify(s, null, 2))));
}
