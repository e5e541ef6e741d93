/** Small HTTP helpers for tests that need the bytes as sent: no decompression, raw chunk framing. */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Header names in wire order. */
  headerNames: string[];
  body: Buffer;
}

export function httpRequest(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer; ca?: string; cert?: string; key?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const mod = url.startsWith('https') ? https : http;
    const headers = { ...opts.headers };
    if (opts.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(opts.body));
    const req = mod.request(url, { method: opts.method ?? 'GET', headers, ca: opts.ca, cert: opts.cert, key: opts.key, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          headerNames: res.rawHeaders.filter((_, i) => i % 2 === 0),
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
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
