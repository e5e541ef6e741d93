/** What every handler gets: the exchange, the parsed URL, the store and the server's settings. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeStore } from './store';
import type { ResourceDef } from './resources';

export interface FirehoseConfig {
  /** Events to stream to each watch of configmaps in the firehose namespace, then the stream ends. */
  events: number;
  /** Approximate size of each JSON event line. */
  sizeBytes: number;
  /** Events per write() call; 1 mirrors the apiserver (one chunk per event). */
  eventsPerWrite: number;
}

export interface Settings {
  gitVersion: string;
  tooLargeWaitMs: number;
  bookmarkIntervalMs: number;
  logIntervalMs: number;
  now: () => Date;
  firehoses: Map<string, FirehoseConfig>;
  /** Stops of the open watch streams (api.endWatches ends them all). */
  watches: Set<() => void>;
}

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  query: URLSearchParams;
  pretty: boolean;
  store: FakeStore;
  settings: Settings;
}

/** A resolved resource request: `/api/v1/namespaces/tx/configmaps/cm-1/status`. */
export interface ResourceRequest {
  def: ResourceDef;
  namespace?: string;
  name?: string;
  subresource?: string;
}
