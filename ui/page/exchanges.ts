/** The exchanges table (filtered, paged) and one exchange's detail: headers, decoded bodies, a watch's events. */
import type { App } from './app';
import { clear, dateTime, h, time } from './dom';
import type { BodyView, ExchangeDetail, ExchangeRow, Filter } from './types';

const PAGE = 100;
const STATUS_CHOICES = ['2xx', '3xx', '4xx', '5xx', '410', '429', 'none'];

export class Exchanges {
  readonly el = h('section', { id: 'exchanges' });
  offset = 0;
  private readonly filters = h('div', { class: 'filters' });
  private readonly table = h('table', { class: 'exchange-table' });
  private readonly pager = h('div', { class: 'pager' });
  readonly detail = h('div', { id: 'detail' }, h('p', { class: 'none' }, 'Pick an exchange.'));

  constructor(private readonly app: App) {
    const f = app.facets;
    const select = (name: keyof Filter, label: string, values: string[]) =>
      h('label', {}, `${label} `, h('select', { id: `filter-${name}`, onchange: (e: Event) => this.set(name, (e.target as HTMLSelectElement).value) },
        h('option', { value: '' }, 'all'), ...values.map((v) => h('option', { value: v }, v))));
    clear(this.filters,
      select('verb', 'verb', f.verbs), select('resource', 'resource', f.resources), select('namespace', 'namespace', f.namespaces),
      select('status', 'status', STATUS_CHOICES), select('client', 'client', f.clients),
      h('label', {}, h('input', { type: 'checkbox', id: 'filter-problems', onchange: (e: Event) => this.set('problems', (e.target as HTMLInputElement).checked) }), ' problems only'),
      h('span', { class: 'brushed' }));
    clear(this.el, this.filters, h('div', { class: 'split' }, h('div', { class: 'table-box' }, this.table, this.pager), this.detail));
  }

  private set(name: keyof Filter, value: string | boolean): void {
    if (value === '' || value === false) delete this.app.filter[name];
    else (this.app.filter as Record<string, unknown>)[name] = value;
    this.app.filtered();
  }

  async load(offset = 0): Promise<void> {
    this.offset = offset;
    const f = this.app.filter;
    const brushed = this.filters.querySelector('.brushed')!;
    clear(brushed, f.from !== undefined ? h('span', {}, ` range ${time(f.from)} → ${time(f.to!)} `, h('button', { onclick: () => { delete f.from; delete f.to; this.app.filtered(); } }, 'clear range')) : null);
    const page = await this.app.source.exchanges(f, offset, PAGE);
    this.el.dataset.total = String(page.total);
    clear(this.table,
      h('thead', {}, h('tr', {}, ...['#', 'time', 'method', 'path', 'status', 'ms', 'RV', 'rule', 'client'].map((c) => h('th', {}, c)))),
      h('tbody', {}, ...page.rows.map((r) => this.row(r))));
    clear(this.pager, `${page.total === 0 ? 0 : offset + 1}–${offset + page.rows.length} of ${page.total} `,
      h('button', { disabled: offset === 0, onclick: () => void this.load(Math.max(0, offset - PAGE)) }, '‹ previous'),
      h('button', { disabled: offset + PAGE >= page.total, onclick: () => void this.load(offset + PAGE) }, 'next ›'));
  }

  private row(r: ExchangeRow): HTMLTableRowElement {
    const bad = r.status === null || r.status >= 400 || r.watchEnded === 'expired';
    return h('tr', { 'data-id': r.id, 'data-resource': r.resource, class: bad ? 'bad' : '', onclick: () => this.app.openExchange(r.id) },
      h('td', {}, r.id), h('td', {}, time(r.at)), h('td', {}, r.method), h('td', { class: 'path', title: r.url }, r.url),
      h('td', { class: 'status' }, r.status ?? '—', r.watchEnded === 'expired' ? ' (watch 410)' : ''), h('td', {}, r.durationMs === null ? '' : r.durationMs.toFixed(1)),
      h('td', {}, r.rv ?? ''), h('td', {}, r.rule ?? ''), h('td', { class: 'client', title: r.client }, r.client));
  }

  async open(id: number, frames = 0): Promise<void> {
    for (const tr of this.table.querySelectorAll('tr.selected')) tr.classList.remove('selected');
    this.table.querySelector(`tr[data-id="${id}"]`)?.classList.add('selected');
    const d = await this.app.source.exchange(id, frames);
    if (!d) {
      clear(this.detail, h('p', { class: 'none' }, `Exchange ${id} is not in this report (details are kept for the first exchanges within its size budget).`));
      return;
    }
    this.detail.dataset.id = String(id);
    clear(this.detail, ...detailView(d, (offset) => void this.open(id, offset)));
  }
}

function detailView(d: ExchangeDetail, page: (frameOffset: number) => void): Array<Node | string> {
  const e = d.exchange;
  const status = statusOf(d);
  return [
    h('h3', {}, `#${e.id} ${e.method} `, h('span', { class: 'path' }, e.url)),
    h('p', { class: 'status-line', 'data-status': e.status ?? '' }, h('b', {}, e.status ?? 'no response'), status ? ` ${status}` : '',
      ` · ${e.verb} ${e.resource}${e.namespace ? ` in ${e.namespace}` : ''} · ${dateTime(e.at)} · ${e.durationMs?.toFixed(1) ?? '?'} ms · ${e.outcome}`,
      e.rv ? ` · RV ${e.rv}` : '', e.rule ? h('span', { class: 'rule' }, ` · fault rule ${e.rule}`) : '', e.watchEnded ? ` · watch ended: ${e.watchEnded}` : ''),
    d.error ? h('p', { class: 'error' }, d.error) : '',
    d.decodeError ? h('p', { class: 'error' }, `decode error: ${d.decodeError}`) : '',
    h('h4', {}, 'Request'), headers(d.request.headers), body(d.request.body),
    h('h4', {}, 'Response'), headers(d.response.headers), d.response.body ? body(d.response.body) : '',
    d.watch ? watchView(d.watch, page) : '',
  ];
}

/** The Status a body carries (`Expired: …`), read from the decoded text. */
function statusOf(d: ExchangeDetail): string {
  const text = d.response.body?.text ?? d.watch?.rows.find((r) => r.type === 'ERROR')?.text;
  if (!text) return '';
  try {
    const s = JSON.parse(text) as { kind?: string; reason?: string; message?: string };
    return s.kind === 'Status' ? `${s.reason ?? ''}: ${s.message ?? ''}` : '';
  } catch {
    return '';
  }
}

function headers(list: Array<[string, string]>): HTMLElement {
  return h('table', { class: 'headers' }, ...list.map(([k, v]) => h('tr', {}, h('th', {}, k), h('td', {}, v))));
}

function body(b: BodyView): HTMLElement {
  if (b.kind === 'empty') return h('p', { class: 'none' }, 'no body');
  return h('div', { class: 'body' },
    h('small', {}, `${b.contentType ?? 'no content type'} · ${b.bytes} bytes${b.gzip ? ' (gzip undone)' : ''} · ${b.kind}${b.truncated ? ' · cut' : ''}`),
    h('pre', { class: 'body-text' }, b.text));
}

function watchView(w: NonNullable<ExchangeDetail['watch']>, page: (frameOffset: number) => void): HTMLElement {
  return h('div', { class: 'watch-events' },
    h('h4', {}, `Watch events (${w.events ?? '?'} recorded, ${w.encoding ?? '?'}, from RV ${w.startRv ?? '—'})`),
    h('table', { class: 'events' },
      h('thead', {}, h('tr', {}, ...['+ms', 'type', 'object', 'RV'].map((c) => h('th', {}, c)))),
      h('tbody', {}, ...w.rows.map((r) => h('tr', { class: r.type === 'ERROR' ? 'bad' : '', title: r.text },
        h('td', {}, r.offsetMs.toFixed(1)), h('td', {}, r.type), h('td', {}, r.namespace ? `${r.namespace}/${r.name}` : r.name), h('td', {}, r.rv))))),
    h('div', { class: 'pager' },
      w.frameOffset > 0 ? h('button', { onclick: () => page(Math.max(0, w.frameOffset - 200)) }, '‹ earlier') : '',
      w.nextFrameOffset !== null ? h('button', { onclick: () => page(w.nextFrameOffset!) }, 'later ›') : ''));
}
