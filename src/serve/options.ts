import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultsOption } from '../faults';
import type { RequestInfo } from '../k8s/request-info';
import type { Logger } from '../log/logger';
import type { Clock } from '../store/clock';

/** How the served state moves through the recorded timeline. */
export const CLOCK_MODES = ['end', 'realtime', 'manual'] as const;
export type ClockMode = (typeof CLOCK_MODES)[number];

export interface ServeOptions {
  /** The recording file; without one, an empty v1.26 cluster. */
  db?: string;
  /** `HOST:PORT` (port 0: any free port). Default `127.0.0.1:0` for the library, `127.0.0.1:8001` for the CLI. */
  listen?: string;
  /** Write a kubeconfig pointing at the server here (default: a temporary file, removed on close). */
  writeKubeconfig?: string;
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
  logger?: Logger;
  /** Extension points for fault injection. */
  hooks?: ServeHooks;
  /** Fault rules: a rules file (YAML/JSON), rule data, or a FaultInjector; also managed at /_kubetape/faults. */
  faults?: FaultsOption;
}

/** A watch frame writer: the one place watch frames go out (faults wrap it). */
export interface FrameSink {
  /** Writes one frame; false once the stream has ended. `rv`: the event's resourceVersion. */
  write(frame: Buffer, rv?: string): boolean;
  /** Ends the stream cleanly (zero-length chunk). */
  end(): void;
  readonly ended: boolean;
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
  /** The writer a watch response's frames go through; undefined (or no hook): straight to the response. */
  watchSink?(ctx: ServeRequestContext, contentType: string): FrameSink | undefined;
  /** Stale reads: the revision an "any" read (RV "0") of this request is served at instead of the head. */
  anyRevision?(ctx: ServeRequestContext, head: number): number;
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
