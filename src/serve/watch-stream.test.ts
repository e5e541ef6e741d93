import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FaultInjector } from '../faults/injector';
import { applyPlan } from '../faults/plan';
import { WatchStreamGuard } from '../faults/watch-stream-guard';
import { decodeWatchFrame, framerFor, PROTOBUF_WATCH_TYPE } from '../wire';
import { WatchStream } from './watch-stream';

const JSON_TYPE = 'application/json';

interface WatchResult {
  frames: Buffer[];
  /** ms after the response head when each frame arrived. */
  at: number[];
  error?: string;
}

/**
 * A watch server writing through serve's WatchStream, with the faults' guard when the request's
 * plan has stream faults: it sends `events` MODIFIED events (rv 101, 102, …) every `everyMs`,
 * then ends.
 */
async function watchOnce(rules: unknown[], contentType: string, events = 6, everyMs = 20, url = '/api/v1/namespaces/tx/configmaps?watch=1&resourceVersion=100') {
  const faults = new FaultInjector({ mode: 'serve' });
  faults.add(rules);
  let producerStopped = false;
  const server = http.createServer(async (req, res) => {
    const plan = faults.plan(req);
    if (await applyPlan(res, plan)) return;
    res.writeHead(200, { 'Content-Type': contentType });
    res.flushHeaders();
    const guard = plan.stream.length > 0 ? new WatchStreamGuard(plan, contentType) : undefined;
    const out = new WatchStream(res, { contentType, timeoutMs: 60_000, guard, onClose: () => {} });
    let rv = 100;
    const tick = setInterval(() => {
      if (rv - 100 === events) {
        clearInterval(tick);
        out.end();
        return;
      }
      rv++;
      out.write(frameFor(contentType, rv), String(rv));
      if (out.ended) {
        clearInterval(tick);
        producerStopped = true;
      }
    }, everyMs);
    res.on('close', () => clearInterval(tick));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  try {
    const result = await new Promise<WatchResult>((resolve) => {
      const framer = framerFor(contentType);
      const out: WatchResult = { frames: [], at: [] };
      const req = http.get({ host: '127.0.0.1', port, path: url, agent: false }, (res) => {
        const t0 = performance.now();
        res.on('data', (chunk: Buffer) => {
          for (const f of framer.push(chunk)) {
            out.frames.push(f);
            out.at.push(performance.now() - t0);
          }
        });
        res.on('end', () => resolve(out));
        res.on('error', (err: NodeJS.ErrnoException) => resolve({ ...out, error: err.code ?? err.message }));
      });
      req.on('error', (err: NodeJS.ErrnoException) => resolve({ ...out, error: err.code ?? err.message }));
    });
    return { ...result, faults, producerStopped: () => producerStopped };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}

function frameFor(contentType: string, rv: number): Buffer {
  const obj = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'cm-01', namespace: 'tx', resourceVersion: String(rv) } };
  return Buffer.from(`${JSON.stringify({ type: 'MODIFIED', object: obj })}\n`);
}

const types = (r: WatchResult, ct = JSON_TYPE) => r.frames.map((f) => decodeWatchFrame(ct, f).type);

describe('stream faults on a watch', () => {
  const watchCm = { verb: 'watch', resource: 'configmaps' };

  it('no rule: every event, then the normal end', async () => {
    const r = await watchOnce([], JSON_TYPE, 4);
    expect(types(r)).toEqual(['MODIFIED', 'MODIFIED', 'MODIFIED', 'MODIFIED']);
  });

  it('watch-gone afterEvents: N events, then ERROR 410 "too old resource version", then the end', async () => {
    const r = await watchOnce([{ name: 'break', match: watchCm, action: { type: 'watch-gone', afterEvents: 3 } }], JSON_TYPE);
    expect(types(r)).toEqual(['MODIFIED', 'MODIFIED', 'MODIFIED', 'ERROR']);
    expect(r.frames[3]!.toString()).toBe(
      '{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 103 (104)","reason":"Expired","code":410}}\n',
    );
    expect(r.error).toBeUndefined();
    expect(r.producerStopped()).toBe(true);
    expect(r.faults.journal().map((e) => e.effect)).toEqual([
      'armed watch-gone after 3 events',
      'watch ended with ERROR 410 "too old resource version: 103 (104)" after 3 events',
    ]);
  });

  it('watch-gone at once: only the ERROR event, quoting the requested resourceVersion', async () => {
    const r = await watchOnce([{ name: 'gone', match: watchCm, action: { type: 'watch-gone' } }], JSON_TYPE);
    expect(types(r)).toEqual(['ERROR']);
    expect(decodeWatchFrame(JSON_TYPE, r.frames[0]!).status?.message).toBe('too old resource version: 100 (101)');
  });

  it('watch-gone in a protobuf stream: the ERROR event is protobuf', async () => {
    const r = await watchOnce([{ name: 'gone', match: watchCm, action: { type: 'watch-gone', message: 'compacted' } }], PROTOBUF_WATCH_TYPE, 0);
    expect(r.frames).toHaveLength(1);
    expect(decodeWatchFrame(PROTOBUF_WATCH_TYPE, r.frames[0]!)).toMatchObject({ type: 'ERROR', status: { code: 410, reason: 'Expired', message: 'compacted' } });
  });

  it('watch-gone afterMs: the events sent in that time, then ERROR', async () => {
    const r = await watchOnce([{ name: 'timed', match: watchCm, action: { type: 'watch-gone', afterMs: 110 } }], JSON_TYPE, 20, 40);
    const t = types(r);
    expect(t[t.length - 1]).toBe('ERROR');
    expect(t.length - 1).toBeGreaterThanOrEqual(1);
    expect(t.length - 1).toBeLessThanOrEqual(3);
  });

  it('watch-close: N events, then a clean end with no ERROR', async () => {
    const r = await watchOnce([{ name: 'close', match: watchCm, action: { type: 'watch-close', afterEvents: 2 } }], JSON_TYPE);
    expect(types(r)).toEqual(['MODIFIED', 'MODIFIED']);
    expect(r.error).toBeUndefined();
  });

  it('reset: N events, then the connection is reset', async () => {
    const r = await watchOnce([{ name: 'rst', match: watchCm, action: { type: 'reset', afterEvents: 2 } }], JSON_TYPE);
    expect(types(r)).toEqual(['MODIFIED', 'MODIFIED']);
    expect(r.error).toBe('ECONNRESET');
  });

  it('delay between frames: every event arrives, each held back, in order', async () => {
    const r = await watchOnce([{ name: 'slow', match: watchCm, action: { type: 'delay', ms: 60, between: 'frames' } }], JSON_TYPE, 4, 5);
    expect(r.frames.map((f) => decodeWatchFrame(JSON_TYPE, f).object?.resourceVersion)).toEqual(['101', '102', '103', '104']);
    // produced every 5 ms, delivered 60 ms apart: the last one no earlier than 4 × 60 ms
    expect(r.at[3]!).toBeGreaterThanOrEqual(230);
    expect(r.at[1]! - r.at[0]!).toBeGreaterThanOrEqual(50);
  });

  it('times: only the first watch breaks', async () => {
    const rules = [{ name: 'once', match: watchCm, action: { type: 'watch-gone', afterEvents: 1 }, times: 1 }];
    const faults = new FaultInjector({ mode: 'serve' });
    faults.add(rules);
    const url = '/api/v1/namespaces/tx/configmaps?watch=1';
    expect(faults.plan({ method: 'GET', url, headers: {} }).stream).toHaveLength(1);
    expect(faults.plan({ method: 'GET', url, headers: {} }).stream).toHaveLength(0);
  });
});
