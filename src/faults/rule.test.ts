import { FaultRule } from './rule';
import { faultRequest } from './fault-request';
import { FaultInjector } from './injector';

const get = (url: string, headers: Record<string, string> = {}) => faultRequest({ method: 'GET', url, headers });

function ruleError(raw: unknown, mode: 'record' | 'replay' | 'serve' = 'serve'): string {
  try {
    FaultRule.fromDefinition(raw, mode, 'rule-1');
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('no error');
}

describe('rule validation names the rule and the field', () => {
  const base = { name: 'flaky-get', match: { verb: 'get' }, action: { type: 'status', code: 500 } };

  it.each([
    [{ ...base, probability: 1.5 }, 'rule "flaky-get": probability: must be between 0 and 1'],
    [{ ...base, probability: 'often' }, 'rule "flaky-get": probability: must be a number, got "often"'],
    [{ ...base, times: 0 }, 'rule "flaky-get": times: must be at least 1'],
    [{ ...base, after: -1 }, 'rule "flaky-get": after: must be at least 0'],
    [{ ...base, seed: 1.5 }, 'rule "flaky-get": seed: must be an integer, got 1.5'],
    [{ ...base, action: { type: 'status', code: 200 } }, 'rule "flaky-get": action.code: must be between 400 and 599'],
    [{ ...base, action: { type: 'status' } }, 'rule "flaky-get": action.code: is required (an HTTP status code, 400–599)'],
    [{ ...base, action: { type: 'explode' } }, 'rule "flaky-get": action.type: must be one of status, delay, expire-continue, watch-gone, watch-close, reset, too-large-rv, stale-read, compact, got "explode"'],
    [{ ...base, action: undefined }, 'rule "flaky-get": action: is required (a mapping with a type: status, delay, expire-continue, watch-gone, watch-close, reset, too-large-rv, stale-read, compact)'],
    [{ ...base, match: { verb: 'fetch' } }, 'rule "flaky-get": match.verb: must be one of get, list, watch, create, update, patch, delete, deletecollection, connect, got "fetch"'],
    [{ ...base, match: { verb: ['get', 'fetch'] } }, 'rule "flaky-get": match.verb[1]: must be one of get, list, watch, create, update, patch, delete, deletecollection, connect, got "fetch"'],
    [{ ...base, match: { verbs: 'get' } }, 'rule "flaky-get": match.verbs: unknown field (expected one of: verb, resource, namespace, name, path, query, headers, userAgent)'],
    [{ ...base, match: { query: { continue: null } } }, 'rule "flaky-get": match.query.continue: must be present, absent, a string, a number or a boolean, got null'],
    [{ ...base, match: { path: { regex: '(' } } }, 'rule "flaky-get": match.path.regex: not a valid regular expression: Invalid regular expression: /(/: Unterminated group'],
    [{ ...base, match: { resource: 'Deployments apps' } }, 'rule "flaky-get": match.resource: must name a resource like pods, deployments.apps or pods/log, got "Deployments apps"'],
    [{ ...base, action: { type: 'delay', ms: { min: 5, max: 1 } } }, 'rule "flaky-get": action.ms.max: must not be less than min (5)'],
    [{ ...base, action: { type: 'delay', ms: 10, between: 'events' } }, 'rule "flaky-get": action.between: must be one of frames, got "events"'],
    [{ ...base, action: { type: 'watch-gone', afterEvents: -1 } }, 'rule "flaky-get": action.afterEvents: must be at least 0'],
    [{ ...base, action: { type: 'delay', ms: 2147483648 } }, 'rule "flaky-get": action.ms: must be at most 2147483647 ms (about 24.8 days, the longest a timer waits), got 2147483648'],
    [{ ...base, action: { type: 'delay', ms: 1e308 } }, 'rule "flaky-get": action.ms: must be at most 2147483647 ms (about 24.8 days, the longest a timer waits), got 1e+308'],
    [{ ...base, action: { type: 'delay', ms: { min: 0, max: 2 ** 31 } } }, 'rule "flaky-get": action.ms.max: must be at most 2147483647 ms (about 24.8 days, the longest a timer waits), got 2147483648'],
    [{ ...base, action: { type: 'watch-close', afterMs: 2 ** 40 } }, 'rule "flaky-get": action.afterMs: must be at most 2147483647 ms (about 24.8 days, the longest a timer waits), got 1099511627776'],
    [{ ...base, after: 1e308 }, 'rule "flaky-get": after: must be at most 9007199254740991'],
    [{ ...base, action: { type: 'stale-read' } }, 'rule "flaky-get": action: give exactly one of revisions or ms'],
    [{ ...base, action: { type: 'expire-continue', code: 410 } }, 'rule "flaky-get": action.code: unknown field (expected one of: type)'],
    [{ ...base, extra: 1 }, 'rule "flaky-get": extra: unknown field (expected one of: name, match, action, times, after, probability, seed)'],
    [{ action: { type: 'status', code: 'x' } }, 'rule "rule-1": action.code: must be an integer, got "x"'],
    ['just a string', 'rule "rule-1": must be a mapping, got "just a string"'],
  ])('%j', (raw, message) => {
    expect(ruleError(raw)).toBe(message);
  });

  it('refuses serve-only actions in record and replay', () => {
    expect(ruleError({ name: 'lag', action: { type: 'stale-read', revisions: 2 } }, 'record')).toBe(
      'rule "lag": action.type: stale-read works in serve mode only (this is record mode)',
    );
    expect(ruleError({ name: 'c', action: { type: 'compact' } }, 'replay')).toBe('rule "c": action.type: compact works in serve mode only (this is replay mode)');
    expect(() => FaultRule.fromDefinition({ name: 'c', action: { type: 'compact' } }, 'serve', 'x')).not.toThrow();
  });
});

describe('how often a rule fires', () => {
  const matchCm = { verb: 'get', resource: 'configmaps' };
  const cmGet = (i: number) => get(`/api/v1/namespaces/tx/configmaps/cm-${String(i).padStart(2, '0')}`);

  it('times: the first N matches only', () => {
    const rule = FaultRule.fromDefinition({ name: 'r', match: matchCm, action: { type: 'status', code: 500 }, times: 2 }, 'serve', 'x');
    const fired = Array.from({ length: 5 }, (_, i) => rule.fires(cmGet(i)));
    expect(fired).toEqual([true, true, false, false, false]);
    expect(rule.status()).toMatchObject({ matched: 5, applied: 2 });
  });

  it('after: skips the first N matches; with times, N then M', () => {
    const rule = FaultRule.fromDefinition({ name: 'r', match: matchCm, action: { type: 'status', code: 500 }, after: 2, times: 1 }, 'serve', 'x');
    expect(Array.from({ length: 5 }, (_, i) => rule.fires(cmGet(i)))).toEqual([false, false, true, false, false]);
  });

  it('requests that do not match are not counted', () => {
    const rule = FaultRule.fromDefinition({ name: 'r', match: matchCm, action: { type: 'status', code: 500 }, after: 1 }, 'serve', 'x');
    expect(rule.fires(get('/api/v1/namespaces/tx/secrets/s'))).toBe(false);
    expect(rule.fires(cmGet(1))).toBe(false);
    expect(rule.fires(cmGet(2))).toBe(true);
    expect(rule.status()).toMatchObject({ matched: 2, applied: 1 });
  });

  it('requests the action cannot act on do not count towards after/times', () => {
    const rule = FaultRule.fromDefinition(
      { name: 'r', match: { resource: 'configmaps' }, action: { type: 'expire-continue' }, times: 1 },
      'serve',
      'x',
    );
    expect(rule.fires(get('/api/v1/namespaces/tx/configmaps?limit=2'))).toBe(false);
    expect(rule.fires(get('/api/v1/namespaces/tx/configmaps?limit=2&continue=abc'))).toBe(true);
    expect(rule.fires(get('/api/v1/namespaces/tx/configmaps?limit=2&continue=def'))).toBe(false);
  });

  it('probability with a seed: the same requests fail on every run, a different seed picks others', () => {
    const run = (seed: number) => {
      const rule = FaultRule.fromDefinition({ name: 'flaky', match: matchCm, action: { type: 'status', code: 500 }, probability: 0.3, seed }, 'serve', 'x');
      return Array.from({ length: 200 }, (_, i) => rule.fires(cmGet(i)));
    };
    const first = run(7);
    expect(run(7)).toEqual(first);
    const hits = first.filter(Boolean).length;
    expect(hits).toBeGreaterThan(40); // 0.3 × 200 = 60, give or take
    expect(hits).toBeLessThan(80);
    expect(run(8)).not.toEqual(first);
  });

  it('probability without a seed is still repeatable (seeded from the name)', () => {
    const run = () => {
      const rule = FaultRule.fromDefinition({ name: 'flaky', match: matchCm, action: { type: 'status', code: 500 }, probability: 0.5 }, 'serve', 'x');
      return Array.from({ length: 50 }, (_, i) => rule.fires(cmGet(i)));
    };
    expect(run()).toEqual(run());
  });

  it('probability 0 never fires, 1 always does', () => {
    const never = FaultRule.fromDefinition({ name: 'n', action: { type: 'status', code: 500 }, probability: 0 }, 'serve', 'x');
    const always = FaultRule.fromDefinition({ name: 'a', action: { type: 'status', code: 500 }, probability: 1 }, 'serve', 'x');
    expect(Array.from({ length: 20 }, (_, i) => never.fires(cmGet(i))).some(Boolean)).toBe(false);
    expect(Array.from({ length: 20 }, (_, i) => always.fires(cmGet(i))).every(Boolean)).toBe(true);
  });
});

describe('explain()', () => {
  it('says what the rule does in one sentence', () => {
    const faults = new FaultInjector({ mode: 'serve' });
    faults.add({
      faults: [
        { name: 'expire-second-page', match: { verb: 'list', resource: 'configmaps', query: { continue: 'present' } }, action: { type: 'expire-continue' }, times: 1 },
        { name: 'break-watch', match: { verb: 'watch', resource: 'configmaps' }, action: { type: 'watch-gone', afterEvents: 3 } },
        { name: 'flaky-get', match: { verb: 'get', resource: 'configmaps', name: 'cm-02' }, action: { type: 'status', code: 500 }, probability: 0.3, seed: 7 },
        { name: 'throttle-once', match: { verb: 'get', name: 'cm-04' }, action: { type: 'status', code: 429, retryAfterSeconds: 1 }, times: 1 },
      ],
    });
    expect(faults.list().map((r) => r.explain)).toEqual([
      'When the verb is list and the resource is configmaps and query parameter continue is present: answer 410 Expired "The provided continue parameter is too old …" with the inconsistent-continue token, for lists carrying continue (at most 1 time).',
      'When the verb is watch and the resource is configmaps: end the watch after 3 events with an ERROR event carrying 410 Expired "too old resource version: N (M)".',
      'When the verb is get and the resource is configmaps and the name is "cm-02": answer 500 InternalError "Internal error occurred: injected fault" (with probability 0.3, seed 7).',
      'When the verb is get and the name is "cm-04": answer 429 TooManyRequests "Too many requests, please try again later." and Retry-After: 1 (at most 1 time).',
    ]);
  });
});
