import type { FaultsOption } from '../faults';
import type { ServerOptions } from '../http/mode-server';
import type { ReplayHooks } from './hooks';

/** What replay does with a request no recorded exchange matches. */
export const ON_MISS = ['error', 'proxy'] as const;
export type OnMiss = (typeof ON_MISS)[number];

/**
 * Query parameters left out of matching by default.
 * - `timeoutSeconds`: client-go picks 5–10 min at random for every watch.
 * - `resourceVersion`: only for a watch, and only when it equals the resourceVersion the previous
 *   list of the same collection returned in this replay (an informer's list-then-watch).
 */
export const DEFAULT_IGNORED_PARAMS: readonly string[] = ['timeoutSeconds', 'resourceVersion'];

export interface ReplayOptions extends ServerOptions {
  /** The recording to answer from. */
  db: string;
  /** `HOST:PORT`; default `127.0.0.1:0` for the library (any free port). */
  listen?: ServerOptions['listen'];
  /**
   * Multiplies the recorded frame offsets of streamed responses: 1 (default) plays a watch at the
   * recorded pace, 0.5 twice as fast, 2 twice as slow, 0 as fast as the client reads.
   */
  speed?: number;
  /** `error` (default): 404 Status explaining the miss. `proxy`: forward to the upstream and record. */
  onMiss?: OnMiss;
  /** Upstream for `onMiss: 'proxy'`: a URL, or a kubeconfig (and context). */
  upstream?: string;
  kubeconfig?: string;
  context?: string;
  /** Query parameters not matched; replaces DEFAULT_IGNORED_PARAMS. */
  ignoreParams?: readonly string[];
  /** Request headers matched in addition to the representation (Accept). */
  matchHeaders?: readonly string[];
  /** Hooks for fault injection: at the top of request handling and before every streamed frame. */
  hooks?: ReplayHooks;
  /** Fault rules: a rules file (YAML/JSON), rule data, or a FaultInjector; also managed at /_kubetape/faults. */
  faults?: FaultsOption;
  /** How many journal entries are kept (the most recent); default 100,000. */
  journalLimit?: number;
  /** How many bytes of journal entries are kept (the most recent; a miss's entry holds its explanation); default 8 MiB. */
  journalBytes?: number;
}
