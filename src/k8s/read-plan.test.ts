import { continueAfter } from './continue-token';
import { parseListOptions } from './list-options';
import { planGet, planList, planWatch } from './read-plan';
import { StatusError } from './status';

const list = (q: string) => planList(parseListOptions(new URLSearchParams(q), false));
const watch = (q: string) => planWatch(parseListOptions(new URLSearchParams(q), true));
const token = continueAfter(240, 'cm-05');

function failure(f: () => unknown): { code: number; message?: string } {
  try {
    f();
  } catch (err) {
    if (err instanceof StatusError) return { code: err.code, message: err.status.message };
    throw err;
  }
  throw new Error('no error');
}

describe('read plans: the seeds\' resourceVersionMatch × paging table, cell by cell', () => {
  it.each([
    // match unset, limit unset: Most Recent | Any | Not older than (watch cache, waits)
    ['', { read: { kind: 'latest' }, limit: 0 }],
    ['resourceVersion=0', { read: { kind: 'any' }, limit: 0 }],
    ['resourceVersion=5', { read: { kind: 'notOlderThan', rv: 5, wait: true }, limit: 0 }],
    // match unset, limit set: Most Recent | Any (limit ignored) | Exact
    ['limit=5', { read: { kind: 'latest' }, limit: 5 }],
    ['limit=5&resourceVersion=0', { read: { kind: 'any' }, limit: 0 }],
    ['limit=5&resourceVersion=5', { read: { kind: 'exact', rv: 5 }, limit: 5 }],
    // match unset, continue: Continue Token, Exact | RV 0 treated as Continue Token, Exact
    [`limit=5&continue=${token}`, { read: { kind: 'exact', rv: 240 }, limit: 5, start: 'cm-05\u0000', continuing: true }],
    [`limit=5&continue=${token}&resourceVersion=0`, { read: { kind: 'exact', rv: 240 }, limit: 5, start: 'cm-05\u0000', continuing: true }],
    // Exact: only with N
    ['resourceVersion=5&resourceVersionMatch=Exact', { read: { kind: 'exact', rv: 5 }, limit: 0 }],
    ['limit=5&resourceVersion=5&resourceVersionMatch=Exact', { read: { kind: 'exact', rv: 5 }, limit: 5 }],
    // NotOlderThan: 0 → Any, N → not older than (limit: etcd, no wait)
    ['resourceVersion=0&resourceVersionMatch=NotOlderThan', { read: { kind: 'any' }, limit: 0 }],
    ['resourceVersion=5&resourceVersionMatch=NotOlderThan', { read: { kind: 'notOlderThan', rv: 5, wait: true }, limit: 0 }],
    ['limit=5&resourceVersion=0&resourceVersionMatch=NotOlderThan', { read: { kind: 'any' }, limit: 0 }],
    ['limit=5&resourceVersion=5&resourceVersionMatch=NotOlderThan', { read: { kind: 'notOlderThan', rv: 5, wait: false }, limit: 5 }],
  ])('list ?%s', (q, plan) => {
    expect(list(q)).toMatchObject({ continuing: false, ...plan });
  });

  it.each([
    [`limit=5&continue=${token}&resourceVersion=5`, 400, 'specifying resource version is not allowed when using continue'],
    ['resourceVersionMatch=Exact', 422, undefined],
    ['resourceVersion=0&resourceVersionMatch=Exact', 422, undefined],
    ['resourceVersionMatch=NotOlderThan', 422, undefined],
    [`limit=5&continue=${token}&resourceVersionMatch=NotOlderThan`, 422, undefined],
    ['resourceVersion=abc', 500, 'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax'],
    ['resourceVersion=abc&limit=5', 400, 'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax'],
    ['resourceVersion=-1', 500, 'resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax'],
    ['resourceVersion=99999999999999999999', 500, 'resourceVersion: Invalid value: "99999999999999999999": strconv.ParseUint: parsing "99999999999999999999": value out of range'],
    ['limit=5&continue=garbage', 400, "invalid continue token: continue key is not valid: invalid character '\\u0081' looking for beginning of value"],
    ['sendInitialEvents=true', 422, 'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list'],
  ])('list ?%s → %d', (q, code, message) => {
    const f = failure(() => list(q));
    expect(f.code).toBe(code);
    if (message) expect(f.message).toBe(message);
  });

  it('get: unset → most recent, "0" → any, N → not older than N', () => {
    expect(planGet('')).toEqual({ kind: 'latest' });
    expect(planGet('0')).toEqual({ kind: 'any' });
    expect(planGet('7')).toEqual({ kind: 'notOlderThan', rv: 7, wait: true });
    expect(failure(() => planGet('x')).code).toBe(500);
  });

  it('watch: state and start at most recent / any, start at exact, watch-list', () => {
    expect(watch('')).toEqual({ initial: 'synthetic', read: { kind: 'latest' }, from: 0 });
    expect(watch('resourceVersion=0')).toEqual({ initial: 'synthetic', read: { kind: 'any' }, from: 0 });
    expect(watch('resourceVersion=9')).toMatchObject({ initial: 'none', from: 9 });
    expect(watch('sendInitialEvents=true&resourceVersionMatch=NotOlderThan')).toEqual({ initial: 'watch-list', read: { kind: 'latest' }, from: 0 });
    expect(watch('sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=9')).toEqual({
      initial: 'watch-list',
      read: { kind: 'notOlderThan', rv: 9, wait: true },
      from: 0,
    });
    expect(watch('sendInitialEvents=false&resourceVersionMatch=NotOlderThan')).toEqual({ initial: 'none', read: { kind: 'latest' }, from: 0 });
    expect(failure(() => watch('resourceVersion=9&resourceVersionMatch=NotOlderThan')).message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch',
    );
    expect(failure(() => watch('sendInitialEvents=true&resourceVersionMatch=Exact')).message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]',
    );
  });
});
