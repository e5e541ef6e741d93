/**
 * Objects: pick a resource and an object; every revision it had, the diff from the one before, and
 * which exchanges saw it. With a range brushed on the timeline, the revisions first seen in it are
 * marked and the others dimmed.
 */
import type { App } from './app';
import { lineDiff } from './diff';
import { clear, dateTime, h, time } from './dom';
import type { RevisionView } from './types';

export class Objects {
  readonly el = h('section', { id: 'objects' });
  private readonly list = h('div', { class: 'object-list' });
  private readonly history = h('div', { class: 'history' });
  private resource = '';
  private namespace = '';
  private opened: { namespace: string; name: string } | undefined;

  constructor(private readonly app: App) {}

  async load(): Promise<void> {
    const resources = await this.app.source.objectResources();
    this.resource ||= resources[0]?.resource ?? '';
    const nsSelect = h('select', { id: 'obj-namespace', onchange: (e: Event) => { this.namespace = (e.target as HTMLSelectElement).value; void this.loadList(); } });
    const fillNs = () => clear(nsSelect, h('option', { value: '' }, 'all namespaces'),
      ...(resources.find((r) => r.resource === this.resource)?.namespaces ?? []).map((n) => h('option', { value: n, selected: n === this.namespace }, n)));
    fillNs();
    const resSelect = h('select', { id: 'obj-resource', onchange: (e: Event) => { this.resource = (e.target as HTMLSelectElement).value; this.namespace = ''; fillNs(); void this.loadList(); } },
      ...resources.map((r) => h('option', { value: r.resource, selected: r.resource === this.resource }, r.resource)));
    clear(this.el, h('div', { class: 'toolbar' }, resSelect, nsSelect), h('div', { class: 'split' }, this.list, this.history));
    await this.loadList();
  }

  private async loadList(): Promise<void> {
    if (!this.resource) return void clear(this.list, h('p', { class: 'none' }, 'No objects in this recording.'));
    const objects = await this.app.source.objects(this.resource, this.namespace || undefined);
    clear(this.list, h('ul', {}, ...objects.map((o) => h('li', {}, h('button', {
      class: `object${o.deleted ? ' deleted' : ''}`, 'data-name': o.name, 'data-namespace': o.namespace,
      onclick: () => void this.open(o.namespace, o.name),
    }, o.namespace ? `${o.namespace}/${o.name}` : o.name, h('small', {}, ` ${o.revisions} rev · ${o.lastRv ?? ''}${o.deleted ? ' · deleted' : ''}`))))));
  }

  /** The brushed range changed: the open history marks the revisions in it anew. */
  async filtered(): Promise<void> {
    if (this.opened) await this.open(this.opened.namespace, this.opened.name);
  }

  async open(namespace: string, name: string): Promise<void> {
    this.opened = { namespace, name };
    const h1 = await this.app.source.object(this.resource, namespace, name);
    if (!h1) return void clear(this.history, h('p', { class: 'none' }, 'This object’s history is not in this report (size budget).'));
    const { from, to } = this.app.filter;
    const ranged = from !== undefined && to !== undefined;
    const inRange = (r: RevisionView) => !ranged || (r.firstAt >= from && r.firstAt <= to);
    const count = h1.revisions.filter(inRange).length;
    this.history.dataset.name = name;
    this.history.dataset.revisions = String(h1.revisions.length);
    this.history.dataset.inRange = String(count);
    clear(this.history, h('h3', {}, `${this.resource} ${namespace ? `${namespace}/` : ''}${name}`),
      ranged ? h('p', { class: 'range-note' }, `${count} of ${h1.revisions.length} revisions first seen in the range ${time(from)} → ${time(to)} `,
        h('button', { class: 'clear-range', onclick: () => { delete this.app.filter.from; delete this.app.filter.to; this.app.filtered(); } }, 'clear range')) : '',
      ...h1.revisions.map((r, i) => revision(r, i > 0 ? h1.revisions[i - 1] : undefined, this.app, ranged ? inRange(r) : undefined)));
  }
}

/** One revision; `inRange` is whether it was first seen in the brushed range (undefined: no range). */
function revision(r: RevisionView, before: RevisionView | undefined, app: App, inRange: boolean | undefined): HTMLElement {
  const diff = before && !r.deleted ? lineDiff(before.text, r.text) : undefined;
  const ranged = inRange === undefined ? '' : inRange ? ' in-range' : ' out-of-range';
  return h('div', { class: `revision${r.deleted ? ' deleted' : ''}${ranged}`, 'data-rv': r.rv ?? '' },
    h('h4', {}, r.deleted ? `deleted at RV ${r.rv}` : `RV ${r.rv}`, h('small', {}, ` · first seen ${dateTime(r.firstAt)} · ${r.seenAs.join(', ')} · ${r.form}`)),
    h('p', { class: 'seen-in' }, 'seen in ', ...r.exchanges.map((id) => h('button', { class: 'link', onclick: () => app.openExchange(id) }, `#${id}`))),
    r.deleted ? '' : diff
      ? h('pre', { class: 'diff' }, ...diff.filter((l, i, all) => l[0] !== ' ' || near(all, i)).map(([op, text]) => h('div', { class: op === '+' ? 'add' : op === '-' ? 'del' : 'same' }, `${op} ${text}`)))
      : h('pre', { class: 'object-text' }, r.text));
}

/** Unchanged lines within 3 of a change are shown as context. */
function near(all: Array<[string, string]>, i: number): boolean {
  for (let j = Math.max(0, i - 3); j <= Math.min(all.length - 1, i + 3); j++) if (all[j]![0] !== ' ') return true;
  return false;
}
