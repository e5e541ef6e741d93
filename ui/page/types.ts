/** The shapes the API answers with (src/ui/*-view.ts, recording-views.ts), as the page reads them. */
export interface ExchangeRow {
  id: number; at: number; durationMs: number | null; method: string; url: string; verb: string; resource: string; namespace: string;
  client: string; status: number | null; outcome: string; rule: string | null; watchEnded: string | null; rv: string | null;
}
export interface Filter {
  from?: number; to?: number; verb?: string; resource?: string; namespace?: string; status?: string; client?: string; problems?: boolean;
}
export interface Lane {
  key: string; exchanges: number;
  ticks: Array<[number, number, number, number]>;
  bars: Array<[number, number, number, string | null, number | null]>;
  marks: Array<[number, number, number]>;
}
export interface Problem { id: number; at: number; lane: number; kind: string; status: number | null; rule: string | null; label: string }
export interface LanesView {
  by: 'client' | 'resource'; from: number; to: number; width: number; bucketMs: number; lanes: Lane[]; problems: Problem[]; problemTotal: number;
  counts: { lanes: number; exchanges: number; ticks: number; bars: number; events: number };
  rv: { points: Array<[number, number, number, number]>; floors: Array<[number, number]>; min: number | null; max: number | null };
}
export interface BodyView { contentType: string | null; bytes: number; gzip: boolean; kind: string; text: string; truncated: boolean }
export interface WatchEventRow { seq: number; offsetMs: number; type: string; namespace: string; name: string; rv: string; text: string }
export interface ExchangeDetail {
  exchange: ExchangeRow;
  request: { headers: Array<[string, string]>; body: BodyView };
  response: { headers: Array<[string, string]>; body: BodyView | null };
  error: string | null; decodeError: string | null;
  watch: { encoding: string | null; startRv: string | null; events: number | null; rows: WatchEventRow[]; frameOffset: number; nextFrameOffset: number | null } | null;
}
export interface Span { from: number; to: number; exchanges: number; compactions: number }
export interface Facets { verbs: string[]; resources: string[]; namespaces: string[]; clients: string[]; span: { from: number; to: number; exchanges?: number; compactions?: number } }
export interface ObservedObject { namespace: string; name: string; revisions: number; lastRv: string | null; deleted: boolean }
export interface RevisionView { rv: string | null; deleted: boolean; firstAt: number; seenAs: string[]; exchanges: number[]; form: string; text: string }
