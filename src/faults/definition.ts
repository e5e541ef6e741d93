/**
 * Fault rules as data: what a rules file (YAML or JSON) or a POST to `/_kubetape/faults` holds.
 * The field names are the contract with users (README.md, "Reproducing hard cases"); behaviour
 * lives in matchers.ts and actions.ts, rebuilt from this data by registry.ts.
 *
 * ```yaml
 * faults:
 *   - name: expire-second-page
 *     match: { verb: list, resource: configmaps, query: { continue: present } }
 *     action: { type: expire-continue }
 *     times: 1
 * ```
 */
import { RESOURCE_VERBS } from '../k8s/request-info';

export const FAULT_MODES = ['record', 'replay', 'serve'] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

/** Verbs a rule can match: the resource verbs plus `connect` (exec, attach, port-forward, proxy). */
export const MATCH_VERBS = [...RESOURCE_VERBS, 'connect'] as const;
export type MatchVerb = (typeof MATCH_VERBS)[number];

export const ACTION_TYPES = [
  'status',
  'delay',
  'expire-continue',
  'watch-gone',
  'watch-close',
  'reset',
  'too-large-rv',
  'stale-read',
  'compact',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** Actions that need serve mode's store: a recording proxy or a replay has no revisions to move. */
export const SERVE_ONLY_ACTIONS: readonly ActionType[] = ['stale-read', 'compact'];

export const MATCH_KEYS = ['verb', 'resource', 'namespace', 'name', 'path', 'query', 'headers', 'userAgent'] as const;
export type MatchKey = (typeof MATCH_KEYS)[number];

/** A glob (`*` any run of characters, `?` one character; in paths `*` stops at `/` and `**` does not) or a regex. */
export type PatternDefinition = string | { glob: string } | { regex: string };

/** A query parameter or header condition: `present`, `absent`, or a value (booleans compare like Go's ParseBool). */
export type ValueCondition = 'present' | 'absent' | string | number | boolean;

export interface MatchDefinition {
  verb?: MatchVerb | MatchVerb[];
  /** `pods`, `deployments.apps`, `pods/log`; without a group, the resource in any group. */
  resource?: string | string[];
  namespace?: PatternDefinition | string[];
  name?: PatternDefinition | string[];
  path?: PatternDefinition;
  query?: Record<string, ValueCondition>;
  headers?: Record<string, ValueCondition>;
  userAgent?: PatternDefinition;
}

/** After N events or T ms of a watch stream; with neither, at once. */
export interface StreamPoint {
  afterEvents?: number;
  afterMs?: number;
}

export type ActionDefinition =
  | { type: 'status'; code: number; message?: string; reason?: string; retryAfterSeconds?: number }
  | { type: 'delay'; ms: number | { min: number; max: number }; between?: 'frames' }
  | { type: 'expire-continue' }
  | ({ type: 'watch-gone'; message?: string } & StreamPoint)
  | ({ type: 'watch-close' } & StreamPoint)
  | ({ type: 'reset' } & StreamPoint)
  | { type: 'too-large-rv'; retryAfterSeconds?: number }
  | { type: 'stale-read'; revisions?: number; ms?: number }
  | { type: 'compact' };

export interface FaultRuleDefinition {
  name: string;
  /** All conditions must hold; an empty or missing match matches every API request. */
  match?: MatchDefinition;
  action: ActionDefinition;
  /** Apply to the first N eligible requests only. */
  times?: number;
  /** Skip the first N eligible requests. */
  after?: number;
  /** Apply with this probability, drawn from the rule's own generator. */
  probability?: number;
  /** Seed of the rule's generator; defaults to a hash of the rule's name, so runs repeat anyway. */
  seed?: number;
}

export interface FaultsFile {
  faults: FaultRuleDefinition[];
}
