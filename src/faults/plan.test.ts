import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { transcriptBody, transcriptHeaders } from '../../test/support/transcripts';
import { FaultInjector } from './injector';
import { applyPlan, injectedBy } from './plan';
import type { FaultRuleDefinition } from './definition';

/** A server that answers 200 "real answer" unless a fault plan replaces it. */
async function serverWith(rules: unknown[], mode: 'record' | 'serve' = 'serve', currentRv?: string) {
  const faults = new FaultInjector({ mode });
  faults.add(rules);
  let upstreamCalls = 0;
  const server = http.createServer(async (req, res) => {
    const plan = faults.plan(req, { currentRv: currentRv ? () => currentRv : undefined });
    if (await applyPlan(res, plan)) return;
    upstreamCalls++;
    res.end('real answer');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    faults,
    get: (path: string, headers: Record<string, string> = {}) => fetchRaw(`${base}${path}`, headers),
    upstreamCalls: () => upstreamCalls,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  error?: NodeJS.ErrnoException;
}

function fetchRaw(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', (error) => resolve({ status: 0, headers: {}, body: Buffer.alloc(0), error }));
  });
}

const list = '/api/v1/namespaces/tx/configmaps';
let srv: Awaited<ReturnType<typeof serverWith>>;
afterEach(() => srv?.close());

describe('actions that replace the answer', () => {
  it('expire-continue: the 410 body the apiserver sends, byte for byte (b1)', async () => {
    srv = await serverWith([{ name: 'expire', match: { verb: 'list', query: { continue: 'present' } }, action: { type: 'expire-continue' } }]);
    const token = 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MjMzLCJzdGFydCI6ImNtLTA1XHUwMDAwIn0';
    const res = await srv.get(`${list}?limit=5&continue=${token}`);
    expect(res.status).toBe(410);
    expect(res.body.toString()).toBe(transcriptBody('b1-continue-after-compaction-410').toString());
    expect(res.headers['content-type']).toBe(transcriptHeaders('b1-continue-after-compaction-410')['content-type']);
    expect(res.headers['content-length']).toBe('612');
    expect(srv.upstreamCalls()).toBe(0);
    // the first page (no continue) is left alone
    expect((await srv.get(`${list}?limit=5`)).body.toString()).toBe('real answer');
  });

  it('too-large-rv: 504 with Retry-After, byte for byte (d1)', async () => {
    srv = await serverWith([{ name: 'ahead', match: { verb: 'get' }, action: { type: 'too-large-rv' } }], 'serve', '236');
    const res = await srv.get(`${list}/cm-01?resourceVersion=99999999`);
    expect(res.status).toBe(504);
    expect(res.headers['retry-after']).toBe(transcriptHeaders('d1-get-rv-future')['retry-after']);
    expect(res.body.toString()).toBe(transcriptBody('d1-get-rv-future').toString());
  });

  it('too-large-rv without a known head still quotes two consistent numbers', async () => {
    srv = await serverWith([{ name: 'ahead', match: { verb: 'list' }, action: { type: 'too-large-rv', retryAfterSeconds: 3 } }], 'record');
    const res = await srv.get(`${list}?resourceVersion=500`);
    const status = JSON.parse(res.body.toString());
    expect(res.headers['retry-after']).toBe('3');
    expect(status).toMatchObject({ code: 504, reason: 'Timeout', message: 'Timeout: Too large resource version: 500, current: 499' });
    expect(status.details).toEqual({ causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 3 });
  });

  it('status 429 with retryAfterSeconds: Retry-After header and details, as the apiserver throttles', async () => {
    srv = await serverWith([{ name: 'throttle-once', match: { verb: 'get', name: 'cm-04' }, action: { type: 'status', code: 429, retryAfterSeconds: 1 }, times: 1 }]);
    const res = await srv.get(`${list}/cm-04`);
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body.toString()).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Too many requests, please try again later.","reason":"TooManyRequests","details":{"retryAfterSeconds":1},"code":429}\n',
    );
    expect((await srv.get(`${list}/cm-04`)).body.toString()).toBe('real answer');
    expect(srv.upstreamCalls()).toBe(1);
  });

  it.each([
    [500, 'InternalError', 'Internal error occurred: injected fault'],
    [503, 'ServiceUnavailable', 'The server is currently unable to handle the request'],
    [403, 'Forbidden', 'the server responded with status 403'],
    [418, undefined, 'the server responded with status 418'],
  ])('status %i: reason %s by code', async (code, reason, message) => {
    srv = await serverWith([{ name: 's', action: { type: 'status', code } }]);
    const res = await srv.get(list);
    expect(res.status).toBe(code);
    const body = JSON.parse(res.body.toString());
    const details = code === 500 ? { details: { causes: [{ message: 'injected fault' }] } } : {};
    expect(body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, ...(reason ? { reason } : {}), ...details, code });
  });

  it('status with a custom message and reason', async () => {
    srv = await serverWith([{ name: 's', action: { type: 'status', code: 503, message: 'etcd is sad', reason: 'ServiceUnavailable', retryAfterSeconds: 2 } }]);
    const res = await srv.get(list);
    expect(res.headers['retry-after']).toBe('2');
    expect(JSON.parse(res.body.toString())).toMatchObject({ message: 'etcd is sad', reason: 'ServiceUnavailable', details: { retryAfterSeconds: 2 }, code: 503 });
  });

  it('reset: the client sees ECONNRESET and no answer', async () => {
    srv = await serverWith([{ name: 'rst', match: { verb: 'get' }, action: { type: 'reset' } }]);
    const res = await srv.get(`${list}/cm-01`);
    expect(res.error?.code).toBe('ECONNRESET');
    expect(srv.upstreamCalls()).toBe(0);
  });

  it('delay: fixed, then the real answer', async () => {
    srv = await serverWith([{ name: 'slow', match: { verb: 'list' }, action: { type: 'delay', ms: 150 } }]);
    const t0 = performance.now();
    const res = await srv.get(list);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    expect(res.body.toString()).toBe('real answer');
  });
});

describe('plan()', () => {
  it('uniform delays are drawn from the rule’s seed: the same on every run, within bounds', () => {
    const draw = () => {
      const faults = new FaultInjector({ mode: 'replay' });
      faults.add({ name: 'jitter', action: { type: 'delay', ms: { min: 10, max: 50 } }, seed: 3 });
      return Array.from({ length: 20 }, () => faults.plan({ method: 'GET', url: list, headers: {} }).delayMs);
    };
    const a = draw();
    expect(draw()).toEqual(a);
    expect(Math.min(...a)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...a)).toBeLessThanOrEqual(50);
    expect(new Set(a).size).toBeGreaterThan(5);
  });

  it('rules apply in order; delays add up; the first replacing rule wins and later rules are not tried', () => {
    const faults = new FaultInjector({ mode: 'serve' });
    const rules: FaultRuleDefinition[] = [
      { name: 'slow', action: { type: 'delay', ms: 20 } },
      { name: 'fail', match: { verb: 'get' }, action: { type: 'status', code: 500 } },
      { name: 'throttle', action: { type: 'status', code: 429 } },
    ];
    faults.add({ faults: rules });
    const plan = faults.plan({ method: 'GET', url: `${list}/a`, headers: {} });
    expect(plan.rules).toEqual(['slow', 'fail']);
    expect(plan.delayMs).toBe(20);
    expect(plan.respond?.code).toBe(500);
    expect(injectedBy(plan)).toBe('slow,fail');
    expect(faults.list().map((r) => [r.name, r.matched, r.applied])).toEqual([
      ['slow', 1, 1],
      ['fail', 1, 1],
      ['throttle', 0, 0],
    ]);
    const listPlan = faults.plan({ method: 'GET', url: list, headers: {} });
    expect(listPlan.rules).toEqual(['slow', 'throttle']);
  });

  it('every applied fault is in the journal with its rule, request and effect', () => {
    const faults = new FaultInjector({ mode: 'serve', now: () => Date.UTC(2026, 10, 21) });
    faults.add({ name: 'throttle', match: { name: 'cm-04' }, action: { type: 'status', code: 429, retryAfterSeconds: 1 }, times: 1 });
    faults.plan({ method: 'GET', url: `${list}/cm-04`, headers: {} });
    faults.plan({ method: 'GET', url: `${list}/cm-04`, headers: {} });
    expect(faults.journal()).toEqual([
      {
        seq: 1,
        time: '2026-11-21T00:00:00.000Z',
        rule: 'throttle',
        action: 'status',
        method: 'GET',
        url: `${list}/cm-04`,
        verb: 'get',
        resource: 'configmaps',
        namespace: 'tx',
        name: 'cm-04',
        effect: 'answered 429 TooManyRequests',
      },
    ]);
  });

  it('stale-read and compact are planned for serve to carry out', () => {
    const faults = new FaultInjector({ mode: 'serve' });
    faults.add([
      { name: 'lag', match: { resource: 'configmaps' }, action: { type: 'stale-read', revisions: 3 } },
      { name: 'squash', match: { verb: 'list', query: { continue: 'present' } }, action: { type: 'compact' } },
    ]);
    const fresh = faults.plan({ method: 'GET', url: list, headers: {} });
    expect(fresh.staleRead).toBeUndefined(); // a consistent read cannot be stale
    const cached = faults.plan({ method: 'GET', url: `${list}?resourceVersion=0`, headers: {} });
    expect(cached.staleRead).toEqual({ rule: 'lag', revisions: 3 });
    const notOlder = faults.plan({ method: 'GET', url: `${list}?resourceVersion=0&resourceVersionMatch=NotOlderThan`, headers: {} });
    expect(notOlder.staleRead).toEqual({ rule: 'lag', revisions: 3 });
    const atLeast5 = faults.plan({ method: 'GET', url: `${list}/a?resourceVersion=5`, headers: {} });
    expect(atLeast5.staleRead).toBeUndefined(); // the cache waits until it has 5: never older than asked
    const page2 = faults.plan({ method: 'GET', url: `${list}?limit=2&continue=x`, headers: {} });
    expect(page2.compact).toEqual({ rule: 'squash' });
  });
});
