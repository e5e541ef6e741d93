/** What the views share: the data source, the filters, and how one view asks another to show something. */
import type { Source } from './source';
import type { Facets, Filter } from './types';

export interface App {
  source: Source;
  facets: Facets;
  /** The exchanges table's filters; `from`/`to` are the range brushed on the timeline. */
  filter: Filter;
  show(tab: Tab): void;
  openExchange(id: number): void;
  /** The filters changed: every view that depends on them refreshes. */
  filtered(): void;
}

export const TABS = ['timeline', 'exchanges', 'objects', 'time-travel', 'summary'] as const;
export type Tab = (typeof TABS)[number];
