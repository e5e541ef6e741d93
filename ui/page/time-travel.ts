/**
 * Time travel: a scrubber over the recording's span; the store as rebuilt at that instant, and the
 * watches open then. A range brushed on the timeline moves the scrubber to its end (shown on the
 * track); clearing it moves the scrubber back to the recording's end.
 */
import type { App } from './app';
import { clear, dateTime, debounce, h } from './dom';

export class TimeTravel {
  readonly el = h('section', { id: 'time-travel' });
  private readonly state = h('div', { id: 'state' });
  private readonly label = h('span', { class: 'at' });
  private readonly scrubber: HTMLInputElement;
  private readonly refresh = debounce(60, () => void this.load());
  private readonly track = h('div', { class: 'scrubber-range', hidden: true });
  private range = '';
  private loaded = false;

  constructor(private readonly app: App) {
    const { from, to } = app.facets.span;
    this.scrubber = h('input', { type: 'range', id: 'scrubber', min: from, max: to, step: 1, value: to, oninput: () => this.refresh() });
    clear(this.el, h('div', { class: 'toolbar' }, h('div', { class: 'scrubber-box' }, this.scrubber, this.track), this.label), this.state);
  }

  /** The filters changed: a new brushed range moves the scrubber to its end; a cleared one, back to the recording's end. */
  async filtered(): Promise<void> {
    const { from, to } = this.app.filter;
    const range = from !== undefined && to !== undefined ? `${from}-${to}` : '';
    if (range === this.range) return;
    this.range = range;
    const min = Number(this.scrubber.min);
    const span = Math.max(1, Number(this.scrubber.max) - min);
    this.track.hidden = !range;
    if (range) Object.assign(this.track.style, { left: `${(((from! - min) / span) * 100).toFixed(2)}%`, width: `${(((to! - from!) / span) * 100).toFixed(2)}%` });
    this.scrubber.value = String(range ? Math.round(to!) : this.scrubber.max);
    if (this.loaded) await this.load();
  }

  /** The recording grew to `to`: the scrubber reaches it, and follows the end if it was there. */
  grow(to: number): void {
    const atEnd = Number(this.scrubber.value) >= Number(this.scrubber.max);
    this.scrubber.max = String(to);
    if (atEnd) this.scrubber.value = String(to);
  }

  /** Moves the scrubber to `at` (ms since the epoch) and shows that instant. */
  async at(at: number): Promise<void> {
    this.scrubber.value = String(at);
    await this.load();
  }

  async load(): Promise<void> {
    this.loaded = true;
    const at = Number(this.scrubber.value);
    const s = await this.app.source.state(at);
    clear(this.label, ` ${dateTime(at)} · ${s.applied} of ${s.changes} changes · ${s.objects} objects · ${s.openWatches.length} watches open`);
    this.state.dataset.at = String(at);
    this.state.dataset.objects = String(s.objects);
    clear(this.state,
      h('div', { class: 'split' },
        h('div', {}, ...s.resources.map((r) => h('div', { class: 'state-resource' }, h('h4', {}, `${r.resource} (${r.objects})`),
          ...r.namespaces.map((ns) => h('div', {}, ns.namespace ? h('h5', {}, ns.namespace) : '',
            h('ul', {}, ...ns.objects.map(([name, rv]) => h('li', { class: 'obj', 'data-key': `${r.resource}/${ns.namespace}/${name}` }, name, h('small', {}, ` RV ${rv}`))))))))),
        h('div', {}, h('h4', {}, 'Open watches'), h('ul', {}, ...s.openWatches.map((w) => h('li', {}, h('button', { class: 'link watch', 'data-exchange': w.id, onclick: () => this.app.openExchange(w.id) },
          `#${w.id} ${w.resource}${w.namespace ? ` in ${w.namespace}` : ''} since ${dateTime(w.since)}`))), s.openWatches.length === 0 ? h('li', { class: 'none' }, 'none') : ''))));
  }
}
