import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultsOption } from '../faults';
import type { ServerOptions } from '../http/mode-server';
import type { RequestInfo } from '../k8s/request-info';
import type { Clock } from '../store/clock';

/** How the served state moves through the recorded timeline. */
export const CLOCK_MODES = ['end', 'realtime', 'manual'] as const;
export type ClockMode = (typeof CLOCK_MODES)[number];

export interface ServeOptions extends ServerOptions {
  /** The recording file; without one, an empty v1.26 cluster. */
  db?: string;
  /** `HOST:PORT` (port 0: any free port). Default `127.0.0.1:0` for the library, `127.0.0.1:8001` for the CLI. */
  listen?: ServerOptions['listen'];
  /** `end` (default): the final recorded state; `realtime`: replay recorded changes at their pace; `manual`: admin only. */
  clock?: ClockMode;
  /** Pace multiplier for `realtime` (2 = twice as fast). */
  speed?: number;
  /** Compact history older than this (server time), like etcd's periodic compactor. */
  compactionWindowMs?: number;
  /** Keep only this many revisions below the head. */
  keepRevisions?: number;
  /** Interval between watch bookmarks (default 60 s, like the apiserver). */
  bookmarkIntervalMs?: number;
  /** How long a watch without timeoutSeconds lasts (default 30 min, the apiserver's --min-request-timeout). */
  watchTimeoutMs?: number;
  /** How long a get/list for a revision ahead of the head waits before the 504 (default 3 s). */
  tooLargeWaitMs?: number;
  /** Most changes each resource's watch history keeps (default: all since the floor). */
  watchCacheSize?: number;
  /** Server time for the store (age-based compaction); default the system clock. */
  storeClock?: Clock;
  /** Extension points for fault injection. */
  hooks?: ServeHooks;
  /** CustomResourceDefinition files or folders (YAML/JSON) installed at start, like envtest's CRDDirectoryPaths. */
  crds?: readonly string[];
  /** Seed of the generator of uids and generated names (default: random): the same seed and requests give the same names. */
  seed?: number;
  /** Patch appliers by Content-Type (default: merge and JSON patch); strategic merge and apply plug in here. */
  patchers?: import('./writes/patchers').Patchers;
  /**
   * The in-process controllers to run (`namespace`, `gc`, `serviceaccount`, `root-ca`): a list,
   * a comma-separated string, or `none`; default all of them.
   */
  controllers?: string | readonly string[];
  /** Hears how far rebuilding the store from the recording got: observations read, of how many. */
  onProgress?: (done: number, total: number) => void;
  /** Fault rules: a rules file (YAML/JSON), rule data, or a FaultInjector; also managed at /_kubetape/faults. */
  faults?: FaultsOption;
  /**
   * A new recording (the file must not exist) of every exchange served, writes included, in the
   * format `record` writes: it can be inspected, replayed, or served again.
   */
  out?: string;
  /** With `out`: keep Secret `data`/`stringData` in it (redacted by default). */
  keepSecrets?: boolean;
}

/** How a stream fault ends a watch: `gone` writes `frame` (an ERROR event) then ends; `close` ends; `reset` resets. */
export interface WatchStreamEnd {
  how: 'gone' | 'close' | 'reset';
  rule: string;
  frame?: Buffer;
}

/**
 * What stream faults do to one watch's frames (src/faults' WatchStreamGuard): the watch asks
 * before each frame how long to hold it, and after it whether the stream ends there.
 */
export interface WatchFrameGuard {
  /** Arms the timers (`onTimer` ends the stream when one fires); returns an end due at once. */
  start(onTimer: (end: WatchStreamEnd) => void): WatchStreamEnd | undefined;
  beforeFrame(): 'continue' | { delayMs: number };
  /** `rv`: the frame's resourceVersion, when known. */
  afterFrame(rv?: string): WatchStreamEnd | undefined;
  /** The stream ended for any reason. */
  stop(): void;
}

export interface ServeRequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  info: RequestInfo;
}

/** Where src/faults plugs into serve. */
export interface ServeHooks {
  /** Called first for every API request (not admin or health); true when the hook answered it. */
  onRequest?(ctx: ServeRequestContext): boolean | Promise<boolean>;
  /** The stream faults acting on a watch response's frames; undefined (or no hook): none. */
  watchGuard?(ctx: ServeRequestContext, contentType: string): WatchFrameGuard | undefined;
  /** Stale reads: the revision an "any" read (RV "0") of this request is served at instead of the head. */
  anyRevision?(ctx: ServeRequestContext, head: number): number;
  /** Time travel: the revision a consistent read (get or list without resourceVersion) of this request is served at instead of the head. */
  latestRevision?(ctx: ServeRequestContext, head: number): number;
  /** Each change a watch is about to deliver (not its initial state); false withholds it from this watch. */
  watchEvent?(ctx: ServeRequestContext, change: ServeChange): boolean;
  /** Every change committed to the store (writes, in-process controllers, recorded changes the clock applies), after its watchers heard it. */
  onChange?(change: ServeChange): void;
}

/** One committed change of one object, as the hooks see it. */
export interface ServeChange {
  /** The plural resource name, with its group when it has one (`configmaps`, `deployments.apps`). */
  resource: string;
  namespace: string;
  name: string;
  rev: number;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** How many changes this object's key has had up to and including this one (a deletion and a re-creation count). */
  index: number;
  /** The object as of this change (for a deletion: as it was deleted), as parsed JSON. */
  object(): Record<string, any>;
}

export interface AdvanceRequest {
  events?: number;
  resourceVersion?: string | number;
  toEnd?: boolean;
}

export interface AdvanceResult {
  applied: number;
  headResourceVersion: string;
  atEnd: boolean;
}

export interface ServeStatus {
  headResourceVersion: string;
  /** Lowest revision any resource can still be read at. */
  floor: string;
  clock: ClockMode;
  speed: number;
  endResourceVersion: string;
  pendingChanges: number;
  atEnd: boolean;
  watchers: number;
  resources: Array<{ resource: string; group: string; version: string; floor: string; objects: number; watchers: number }>;
}
