/**
 * Where the page's data comes from: the JSON API of `kubetape ui`, or the data a report embeds
 * (the same views, computed when the report was written; filters applied here).
 */
import { stateAt, type ChangeLog, type StateView } from '../../src/ui/state-at';
import type { ExchangeDetail, ExchangeRow, Facets, Filter, LanesView, ObservedObject, RevisionView, Span } from './types';

export interface Source {
  readonly live: boolean;
  summary(): Promise<any>;
  facets(): Promise<Facets>;
  span(): Promise<Span>;
  lanes(by: 'client' | 'resource', view: { from: number; to: number }, filter: Filter, width: number): Promise<LanesView>;
  exchanges(filter: Filter, offset: number, limit: number): Promise<{ total: number; rows: ExchangeRow[] }>;
  exchange(id: number, frames?: number): Promise<ExchangeDetail | null>;
  objectResources(): Promise<Array<{ resource: string; namespaces: string[] }>>;
  objects(resource: string, ns?: string): Promise<ObservedObject[]>;
  object(resource: string, ns: string, name: string): Promise<{ revisions: RevisionView[] } | null>;
  state(at: number): Promise<StateView>;
}

function query(params: Record<string, string | number | boolean | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '' && v !== false) q.set(k, v === true ? '1' : String(v));
  return q.toString();
}

export class ApiSource implements Source {
  readonly live = true;
  private async get<T>(path: string): Promise<T> {
    const res = await fetch(path);
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }
  summary() { return this.get<any>('/api/summary'); }
  facets() { return this.get<Facets>('/api/facets'); }
  span() { return this.get<Span>('/api/span'); }
  lanes(by: 'client' | 'resource', view: { from: number; to: number }, f: Filter, width: number) {
    return this.get<LanesView>(`/api/lanes?${query({ by, width, ...f, from: view.from, to: view.to })}`);
  }
  exchanges(f: Filter, offset: number, limit: number) { return this.get<{ total: number; rows: ExchangeRow[] }>(`/api/exchanges?${query({ ...f, offset, limit })}`); }
  exchange(id: number, frames = 0) { return this.get<ExchangeDetail | null>(`/api/exchanges/${id}?${query({ frames })}`); }
  objectResources() { return this.get<Array<{ resource: string; namespaces: string[] }>>('/api/object-resources'); }
  objects(resource: string, ns?: string) { return this.get<ObservedObject[]>(`/api/objects?${query({ resource, ns })}`); }
  object(resource: string, ns: string, name: string) {
    return this.get<{ revisions: RevisionView[] }>(`/api/objects/${encodeURIComponent(resource)}/${encodeURIComponent(ns || '_')}/${encodeURIComponent(name)}`);
  }
  state(at: number) { return this.get<StateView>(`/api/state?at=${at}`); }
}

export interface ReportData {
  title: string;
  summary: any;
  facets: Facets;
  lanes: { client: LanesView; resource: LanesView };
  exchanges: { total: number; columns: string[]; rows: unknown[][] };
  details: Record<string, ExchangeDetail>;
  objectResources: Array<{ resource: string; namespaces: string[] }>;
  objects: Record<string, ObservedObject[]>;
  histories: Record<string, RevisionView[]>;
  changes: ChangeLog;
}

export function matches(r: ExchangeRow, f: Filter): boolean {
  if (f.from !== undefined && r.at + (r.durationMs ?? 0) < f.from) return false;
  if (f.to !== undefined && r.at > f.to) return false;
  if (f.verb && r.verb !== f.verb) return false;
  if (f.resource && r.resource !== f.resource) return false;
  if (f.namespace && r.namespace !== f.namespace) return false;
  if (f.client && r.client !== f.client) return false;
  if (f.problems && !(r.status === null || r.status >= 400 || r.rule || r.watchEnded === 'expired' || r.outcome === 'reset' || r.outcome === 'error')) return false;
  if (f.status === 'none') return r.status === null;
  if (f.status && /^[1-5]xx$/.test(f.status)) return r.status !== null && Math.floor(r.status / 100) === Number(f.status[0]);
  if (f.status && /^\d{3}$/.test(f.status)) return r.status === Number(f.status);
  return true;
}

export class ReportSource implements Source {
  readonly live = false;
  private readonly rows: ExchangeRow[];
  constructor(private readonly d: ReportData) {
    const { columns, rows } = d.exchanges;
    this.rows = rows.map((values) => Object.fromEntries(columns.map((c, i) => [c, values[i]])) as unknown as ExchangeRow);
  }
  async summary() { return this.d.summary; }
  async facets() { return this.d.facets; }
  async span() { return { ...this.d.facets.span, exchanges: this.d.exchanges.total, compactions: this.d.facets.span.compactions ?? 0 }; }
  async lanes(by: 'client' | 'resource', _view: { from: number; to: number }, f: Filter) {
    const v = this.d.lanes[by];
    if (!f.resource && !f.client) return v;
    const keep = (key: string) => (by === 'resource' ? !f.resource || key === f.resource : !f.client || key === f.client);
    const lanes = v.lanes.filter((l) => keep(l.key));
    const index = new Map(v.lanes.map((l, i) => [i, lanes.indexOf(l)]));
    const problems = v.problems.map((p) => ({ ...p, lane: index.get(p.lane) ?? -1 })).filter((p) => p.lane >= 0);
    return { ...v, lanes, problems, problemTotal: problems.length, counts: { ...v.counts, lanes: lanes.length, events: lanes.reduce((n, l) => n + l.marks.reduce((m, k) => m + k[2], 0), 0) } };
  }
  async exchanges(f: Filter, offset: number, limit: number) {
    const rows = this.rows.filter((r) => matches(r, f));
    return { total: rows.length, rows: rows.slice(offset, offset + limit) };
  }
  async exchange(id: number) { return this.d.details[id] ?? null; }
  async objectResources() { return this.d.objectResources; }
  async objects(resource: string, ns?: string) { return (this.d.objects[resource] ?? []).filter((o) => ns === undefined || ns === '' || o.namespace === ns); }
  async object(resource: string, ns: string, name: string) {
    const revisions = this.d.histories[`${resource}/${ns || '_'}/${name}`];
    return revisions ? { revisions } : null;
  }
  async state(at: number) { return stateAt(this.d.changes, at); }
}
