import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json: any;
  /** ms from request to end of body. */
  ms: number;
}

/** One HTTP request, the whole body read. */
export function get(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: { 'User-Agent': 'probe/1.0', Accept: '*/*', ...options.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        let json: any;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text, json, ms: Date.now() - started });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

export interface WatchHandle {
  status: Promise<number>;
  headers: Promise<IncomingHttpHeaders>;
  /** Lines received so far (JSON watch). */
  lines: string[];
  /** Resolves when `n` lines have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<string[]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<string[]>;
  close(): void;
}

/** Opens a JSON watch and collects its lines. */
export function watch(url: string, headers: Record<string, string> = {}): WatchHandle {
  const lines: string[] = [];
  const waiters: Array<{ n: number; resolve: (l: string[]) => void }> = [];
  let resolveStatus!: (s: number) => void;
  let resolveHeaders!: (h: IncomingHttpHeaders) => void;
  let resolveEnded!: (l: string[]) => void;
  const status = new Promise<number>((r) => (resolveStatus = r));
  const hdrs = new Promise<IncomingHttpHeaders>((r) => (resolveHeaders = r));
  const ended = new Promise<string[]>((r) => (resolveEnded = r));
  let partial = '';
  const req = httpRequest(url, { headers: { 'User-Agent': 'probe/1.0', Accept: '*/*', ...headers } }, (res) => {
    resolveStatus(res.statusCode ?? 0);
    resolveHeaders(res.headers);
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      partial += chunk;
      let nl: number;
      while ((nl = partial.indexOf('\n')) >= 0) {
        lines.push(partial.slice(0, nl));
        partial = partial.slice(nl + 1);
      }
      for (const w of waiters.slice()) {
        if (lines.length >= w.n) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(lines.slice());
        }
      }
    });
    res.on('end', () => resolveEnded(lines.slice()));
    res.on('close', () => resolveEnded(lines.slice()));
  });
  req.on('error', () => resolveEnded(lines.slice()));
  req.end();
  return {
    status,
    headers: hdrs,
    lines,
    waitFor: (n, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        if (lines.length >= n) return resolve(lines.slice());
        const timer = setTimeout(() => reject(new Error(`only ${lines.length} of ${n} watch lines after ${timeoutMs} ms: ${lines.join('\n')}`)), timeoutMs);
        waiters.push({ n, resolve: (l) => (clearTimeout(timer), resolve(l)) });
      }),
    ended,
    close: () => req.destroy(),
  };
}
