/**
 * The tests' raw HTTP client: the bytes as sent (no decompression, no retries), every chunk with
 * its arrival time, and the ways a response can end. One request function (`httpRequest`) with
 * shorthands for the shapes tests use, a JSON watch reader, a watch collector and a raw-socket
 * exchange that keeps the chunk framing.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

export interface HttpResponse {
  /** 0 when no response head arrived (only with `settle`). */
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Header names and values in wire order. */
  rawHeaders: string[];
  /** Header names in wire order. */
  headerNames: string[];
  body: Buffer;
  /** The body as UTF-8. */
  readonly text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  readonly json: any;
  /** Each chunk as it arrived, with ms since the response head (`at`) and since the request was sent (`sinceRequest`). */
  chunks: { at: number; sinceRequest: number; data: Buffer }[];
  /** How the response ended: `end` (complete) or `aborted` (the connection dropped mid-body). */
  ended: 'end' | 'aborted';
  /** ms from sending the request to the end of the body. */
  ms: number;
  /** The connection error (ECONNRESET …), when there was one. */
  error?: string;
}

export interface HttpRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** TLS material for https URLs. */
  ca?: string;
  cert?: string;
  key?: string;
  /** Send `User-Agent: probe/1.0` and `Accept: *\/*` unless `headers` say otherwise (the transcripts' probe). */
  probe?: boolean;
  /** Use Node's global (keep-alive) agent instead of a fresh connection per request. */
  keepAlive?: boolean;
  /** Resolve instead of rejecting when the connection fails before a response: `status` 0 and `error` set. */
  settle?: boolean;
}

/**
 * One request, the whole body read. Rejects when the connection fails before the response head
 * (unless `settle`); a connection dropped mid-body resolves with `ended: 'aborted'` and `error`.
 */
export function httpRequest(url: string | URL, opts: HttpRequestOptions = {}): Promise<HttpResponse> {
  const sent = performance.now();
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const mod = target.protocol === 'https:' ? https : http;
    const headers: Record<string, string> = { ...(opts.probe ? { 'User-Agent': 'probe/1.0', Accept: '*/*' } : {}), ...opts.headers };
    if (opts.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(opts.body));
    const agent = opts.keepAlive ? undefined : false;
    const chunks: HttpResponse['chunks'] = [];
    let status = 0;
    let resHeaders: http.IncomingHttpHeaders = {};
    let rawHeaders: string[] = [];
    let done = false;
    const finish = (ended: 'end' | 'aborted', error?: string) => {
      if (done) return;
      done = true;
      resolve(response({ status, headers: resHeaders, rawHeaders, chunks, ended, ms: performance.now() - sent, error }));
    };
    const req = mod.request(target, { method: opts.method ?? 'GET', headers, ca: opts.ca, cert: opts.cert, key: opts.key, agent }, (res) => {
      const start = performance.now();
      status = res.statusCode ?? 0;
      resHeaders = res.headers;
      rawHeaders = res.rawHeaders;
      res.on('data', (data: Buffer) => chunks.push({ at: performance.now() - start, sinceRequest: performance.now() - sent, data }));
      res.on('end', () => finish('end'));
      res.on('error', (err: NodeJS.ErrnoException) => finish('aborted', err.code ?? err.message));
      res.on('close', () => finish(res.complete ? 'end' : 'aborted'));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (done) return;
      if (opts.settle) finish('aborted', err.code ?? err.message);
      else {
        done = true;
        reject(err);
      }
    });
    req.end(opts.body);
  });
}

function response(r: Omit<HttpResponse, 'body' | 'text' | 'json' | 'headerNames'>): HttpResponse {
  const body = Buffer.concat(r.chunks.map((c) => c.data));
  let json: any;
  let parsed = false;
  return {
    ...r,
    headerNames: r.rawHeaders.filter((_, i) => i % 2 === 0),
    body,
    get text() {
      return body.toString('utf8');
    },
    get json() {
      if (!parsed) {
        parsed = true;
        try {
          json = JSON.parse(body.toString('utf8'));
        } catch {
          json = undefined;
        }
      }
      return json;
    },
  };
}

/** `path` against `base`, on a fresh connection (replay tests). */
export function request(base: string, path: string, opts: Pick<HttpRequestOptions, 'method' | 'headers' | 'body'> = {}): Promise<HttpResponse> {
  return httpRequest(new URL(path, base), opts);
}

/** A GET whose body is JSON. */
export async function json(base: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const r = await request(base, path, { headers });
  return { status: r.status, body: JSON.parse(r.body.toString('utf8')) };
}

/** A probe request as the transcripts sent it (User-Agent probe/1.0, Accept *\/*), on the keep-alive agent (serve tests). */
export function get(url: string, opts: Pick<HttpRequestOptions, 'method' | 'headers' | 'body'> = {}): Promise<HttpResponse> {
  return httpRequest(url, { ...opts, probe: true, keepAlive: true });
}

/** A GET that never throws: a connection error is reported in `error`, with what arrived before (fault tests). */
export function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<HttpResponse> {
  return httpRequest(new URL(path, base), { headers, settle: true });
}

export interface WatchHandle {
  status: Promise<number>;
  headers: Promise<http.IncomingHttpHeaders>;
  /** Lines received so far (JSON watch). */
  lines: string[];
  /** Resolves when `n` lines have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<string[]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<string[]>;
  close(): void;
}

/** Opens a JSON watch as the probe (User-Agent probe/1.0, Accept *\/*) and collects its lines. */
export function watch(url: string, headers: Record<string, string> = {}): WatchHandle {
  const lines: string[] = [];
  const waiters: Array<{ n: number; resolve: (l: string[]) => void }> = [];
  let resolveStatus!: (s: number) => void;
  let resolveHeaders!: (h: http.IncomingHttpHeaders) => void;
  let resolveEnded!: (l: string[]) => void;
  const status = new Promise<number>((r) => (resolveStatus = r));
  const hdrs = new Promise<http.IncomingHttpHeaders>((r) => (resolveHeaders = r));
  const ended = new Promise<string[]>((r) => (resolveEnded = r));
  let partial = '';
  const req = http.request(url, { headers: { 'User-Agent': 'probe/1.0', Accept: '*/*', ...headers } }, (res) => {
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

/** Streams a watch and collects JSON events until `until` says stop (then aborts). */
export function collectWatch(url: string, until: (events: any[]) => boolean, headers: Record<string, string> = {}, timeoutMs = 10_000): Promise<{ events: any[]; status: number; headers: http.IncomingHttpHeaders; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const events: any[] = [];
    let pending = '';
    let done = false;
    const req = http.get(url, { headers, agent: false }, (res) => {
      const finish = (ended: boolean) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        req.destroy();
        resolve({ events, status: res.statusCode ?? 0, headers: res.headers, ended });
      };
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        pending += d;
        let nl: number;
        while ((nl = pending.indexOf('\n')) >= 0) {
          events.push(JSON.parse(pending.slice(0, nl)));
          pending = pending.slice(nl + 1);
        }
        if (until(events)) finish(false);
      });
      res.on('end', () => finish(true));
      if (until(events)) finish(false);
    });
    const timer = setTimeout(() => {
      req.destroy();
      if (!done) reject(new Error(`watch timed out with ${events.length} events: ${JSON.stringify(events).slice(0, 500)}`));
    }, timeoutMs);
    req.on('error', (e) => {
      if (!done) reject(e);
    });
  });
}

/** Reads a whole response over a raw socket, keeping the HTTP/1.1 chunk framing (like `curl --raw`). */
export function rawExchange(url: string, headers: Record<string, string> = {}, onData?: (all: Buffer) => void): Promise<{ head: string; chunks: Buffer[] }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(u.port), u.hostname);
    let buf = Buffer.alloc(0);
    socket.on('connect', () => {
      const lines = [`GET ${u.pathname}${u.search} HTTP/1.1`, `Host: ${u.host}`, 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      onData?.(buf);
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const split = buf.indexOf('\r\n\r\n');
      const head = buf.subarray(0, split).toString('latin1');
      const chunks: Buffer[] = [];
      let off = split + 4;
      while (off < buf.length) {
        const eol = buf.indexOf('\r\n', off);
        const size = parseInt(buf.subarray(off, eol).toString('latin1'), 16);
        if (!size) break;
        chunks.push(buf.subarray(eol + 2, eol + 2 + size));
        off = eol + 2 + size + 2;
      }
      resolve({ head, chunks });
    });
  });
}
