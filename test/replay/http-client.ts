import http from 'node:http';

export interface Received {
  status: number;
  rawHeaders: string[];
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Each chunk as it arrived, with ms since the response head (`at`) and since the request was sent (`sinceRequest`). */
  chunks: { at: number; sinceRequest: number; data: Buffer }[];
  /** How the response ended: `end` (complete) or `error`/`aborted` (connection dropped). */
  ended: 'end' | 'aborted';
}

/** A raw HTTP request: no decompression, every chunk with its arrival time. */
export function request(base: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Received> {
  const sent = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, base), { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const start = performance.now();
      const chunks: Received['chunks'] = [];
      let done = false;
      const finish = (ended: 'end' | 'aborted') => {
        if (done) return;
        done = true;
        resolve({ status: res.statusCode!, rawHeaders: res.rawHeaders, headers: res.headers, body: Buffer.concat(chunks.map((c) => c.data)), chunks, ended });
      };
      res.on('data', (data: Buffer) => chunks.push({ at: performance.now() - start, sinceRequest: performance.now() - sent, data }));
      res.on('end', () => finish('end'));
      res.on('aborted', () => finish('aborted'));
      res.on('error', () => finish('aborted'));
      res.on('close', () => finish(res.complete ? 'end' : 'aborted'));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

export async function json(base: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const r = await request(base, path, { headers });
  return { status: r.status, body: JSON.parse(r.body.toString('utf8')) };
}
