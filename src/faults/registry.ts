/**
 * `type → class`: rebuilds matchers and actions from rule data (a file, a POST body),
 * validating every field on the way. Errors name the field: `action.code: must be …`.
 */
import { CompactAction, DelayAction, ExpireContinueAction, StaleReadAction, StatusAction, TooLargeRvAction, type FaultAction } from './actions';
import { ACTION_TYPES, MATCH_KEYS, MATCH_VERBS, type ActionType, type MatchKey, type StreamPoint, type ValueCondition } from './definition';
import {
  FaultConfigError,
  checkKeys,
  describe,
  expectInteger,
  expectTimerMs,
  expectObject,
  expectOneOf,
  expectStrings,
  isObject,
  optionalInteger,
  optionalString,
  type Fields,
} from './fields';
import {
  HeaderMatcher,
  NameMatcher,
  NamespaceMatcher,
  PathMatcher,
  QueryMatcher,
  ResourceMatcher,
  UserAgentMatcher,
  VerbMatcher,
  type Matcher,
} from './matchers';
import { Pattern } from './pattern';
import { ResetAction, WatchCloseAction, WatchGoneAction } from './stream-actions';

type MatcherFactory = (value: unknown, field: string) => Matcher[];

export const MATCHERS: Record<MatchKey, MatcherFactory> = {
  verb: (v, f) => [new VerbMatcher(expectStrings(v, f).map((s, i) => expectOneOf(s, MATCH_VERBS, Array.isArray(v) ? `${f}[${i}]` : f)))],
  resource: (v, f) => [new ResourceMatcher(expectStrings(v, f).map((s, i) => checkResource(s, Array.isArray(v) ? `${f}[${i}]` : f)))],
  namespace: (v, f) => [new NamespaceMatcher(patterns(v, f))],
  name: (v, f) => [new NameMatcher(patterns(v, f))],
  path: (v, f) => [new PathMatcher(Pattern.parse(v, f, true))],
  query: (v, f) => Object.entries(expectObject(v, f)).map(([k, c]) => new QueryMatcher(k, condition(c, `${f}.${k}`))),
  headers: (v, f) =>
    Object.entries(expectObject(v, f)).map(([k, c]) => {
      const field = `${f}.${k}`;
      if (isObject(c)) return new HeaderMatcher(k, Pattern.parse(c, field));
      const cond = condition(c, field);
      return new HeaderMatcher(k, typeof cond === 'string' && cond !== 'present' && cond !== 'absent' ? Pattern.glob(cond) : cond);
    }),
  userAgent: (v, f) => [new UserAgentMatcher(Pattern.parse(v, f))],
};

type ActionFactory = (fields: Fields, field: string) => FaultAction;

export const ACTIONS: Record<ActionType, ActionFactory> = {
  status: (a, f) => {
    checkKeys(a, ['type', 'code', 'message', 'reason', 'retryAfterSeconds'], f);
    if (a.code === undefined) throw new FaultConfigError(`${f}.code`, 'is required (an HTTP status code, 400–599)');
    return new StatusAction(
      expectInteger(a.code, `${f}.code`, 400, 599),
      optionalString(a.message, `${f}.message`),
      optionalString(a.reason, `${f}.reason`),
      optionalInteger(a.retryAfterSeconds, `${f}.retryAfterSeconds`, 0),
    );
  },
  delay: (a, f) => {
    checkKeys(a, ['type', 'ms', 'between'], f);
    if (a.between !== undefined) expectOneOf(a.between, ['frames'] as const, `${f}.between`);
    return new DelayAction(delayMs(a.ms, `${f}.ms`), a.between === 'frames');
  },
  'expire-continue': (a, f) => {
    checkKeys(a, ['type'], f);
    return new ExpireContinueAction();
  },
  'watch-gone': (a, f) => {
    checkKeys(a, ['type', 'afterEvents', 'afterMs', 'message'], f);
    return new WatchGoneAction(streamPoint(a, f), optionalString(a.message, `${f}.message`));
  },
  'watch-close': (a, f) => {
    checkKeys(a, ['type', 'afterEvents', 'afterMs'], f);
    return new WatchCloseAction(streamPoint(a, f));
  },
  reset: (a, f) => {
    checkKeys(a, ['type', 'afterEvents', 'afterMs'], f);
    return new ResetAction(streamPoint(a, f));
  },
  'too-large-rv': (a, f) => {
    checkKeys(a, ['type', 'retryAfterSeconds'], f);
    return new TooLargeRvAction(optionalInteger(a.retryAfterSeconds, `${f}.retryAfterSeconds`, 0));
  },
  'stale-read': (a, f) => {
    checkKeys(a, ['type', 'revisions', 'ms'], f);
    if ((a.revisions === undefined) === (a.ms === undefined)) throw new FaultConfigError(f, 'give exactly one of revisions or ms');
    if (a.revisions !== undefined) return new StaleReadAction({ revisions: expectInteger(a.revisions, `${f}.revisions`, 1) });
    return new StaleReadAction({ ms: expectInteger(a.ms, `${f}.ms`, 1) });
  },
  compact: (a, f) => {
    checkKeys(a, ['type'], f);
    return new CompactAction();
  },
};

export function buildMatchers(match: unknown, field = 'match'): Matcher[] {
  if (match === undefined) return [];
  const fields = expectObject(match, field);
  checkKeys(fields, MATCH_KEYS, field);
  return MATCH_KEYS.filter((k) => fields[k] !== undefined).flatMap((k) => MATCHERS[k](fields[k], `${field}.${k}`));
}

export function buildAction(action: unknown, field = 'action'): FaultAction {
  if (action === undefined) throw new FaultConfigError(field, `is required (a mapping with a type: ${ACTION_TYPES.join(', ')})`);
  const fields = expectObject(action, field);
  const type = expectOneOf(fields.type, ACTION_TYPES, `${field}.type`);
  return ACTIONS[type](fields, field);
}

function patterns(value: unknown, field: string): Pattern[] {
  if (Array.isArray(value)) return expectStrings(value, field).map((s) => Pattern.glob(s));
  return [Pattern.parse(value, field)];
}

function checkResource(value: string, field: string): string {
  if (!/^[a-z0-9][a-z0-9.-]*(\/[a-z0-9]+)?$/i.test(value)) {
    throw new FaultConfigError(field, `must name a resource like pods, deployments.apps or pods/log, got ${JSON.stringify(value)}`);
  }
  return value;
}

function condition(value: unknown, field: string): ValueCondition {
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw new FaultConfigError(field, `must be present, absent, a string, a number or a boolean, got ${describe(value)}`);
}

function delayMs(value: unknown, field: string): number | { min: number; max: number } {
  if (value === undefined) throw new FaultConfigError(field, 'is required (milliseconds, or { min, max })');
  if (!isObject(value)) return expectTimerMs(value, field);
  checkKeys(value, ['min', 'max'], field);
  const min = expectTimerMs(value.min, `${field}.min`);
  const max = expectTimerMs(value.max, `${field}.max`);
  if (max < min) throw new FaultConfigError(`${field}.max`, `must not be less than min (${min})`);
  return { min, max };
}

function streamPoint(a: Fields, field: string): StreamPoint {
  const point: StreamPoint = {};
  const afterEvents = optionalInteger(a.afterEvents, `${field}.afterEvents`, 0);
  const afterMs = a.afterMs === undefined ? undefined : expectTimerMs(a.afterMs, `${field}.afterMs`);
  if (afterEvents !== undefined) point.afterEvents = afterEvents;
  if (afterMs !== undefined) point.afterMs = afterMs;
  return point;
}
