/** Raw requests over net.Socket, a seeded generator of malformed ones, and modes run as child processes of the built CLI. */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { join } from 'node:path';
import { mulberry32 } from '../../src/faults/random';

export const BIN = join(__dirname, '..', '..', 'bin', 'kubetape.js');

export interface RawAnswer {
  /** What the server sent (latin1), possibly nothing. */
  text: string;
  /** The status code of the first response line, or 0. */
  status: number;
  /** The server closed the connection (rather than the wait ending). */
  closedByServer: boolean;
}

/**
 * Writes `bytes` to a fresh connection and collects what comes back until the server closes, the
 * first response is complete enough to read (`settleMs` after its first bytes), or `timeoutMs`.
 */
export function sendRaw(url: string, bytes: Buffer | string, opts: { timeoutMs?: number; settleMs?: number; endAfterWrite?: boolean } = {}): Promise<RawAnswer> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(u.port), u.hostname);
    let got = '';
    let done = false;
    let settle: NodeJS.Timeout | undefined;
    const finish = (closedByServer = false) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(settle);
      socket.destroy();
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(got);
      resolve({ text: got, status: m ? Number(m[1]) : 0, closedByServer });
    };
    const timer = setTimeout(() => finish(), opts.timeoutMs ?? 1500);
    socket.on('connect', () => {
      socket.write(bytes);
      if (opts.endAfterWrite) socket.end();
    });
    socket.on('data', (d: Buffer) => {
      got += d.toString('latin1');
      settle ??= setTimeout(() => finish(), opts.settleMs ?? 30);
    });
    socket.on('error', () => finish(true));
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
  });
}

/** `GET path` with a Host the modes accept, as curl sends it. */
export function plainGet(path: string, extra = ''): string {
  return `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: curl/8.5.0\r\nAccept: */*\r\n${extra}Connection: close\r\n\r\n`;
}

/** The request-targets of the issue, and their kin. */
export const MALFORMED_TARGETS = [
  '//a^b/api',
  '//[',
  '//[x/api/v1/namespaces/tx/pods/p/exec',
  '//evil.example/api/v1/namespaces/tx/configmaps',
  '//',
  '/%',
  '/api/v1/namespaces/%zz/configmaps',
  '/api/v1/namespaces/tx/configmaps/%E0%A4%A',
  '/api/v1/namespaces/tx/configmaps?labelSelector=%zz&limit=%',
  '/api/v1/namespaces/tx/configmaps?watch=%ZZ&resourceVersion=-1',
  '/api/v1/namespaces/../../../etc/passwd',
  '/api/v1/namespaces/tx/configmaps/%2e%2e/%2e%2e/secrets',
  '/apis/%00/v1/x',
  '/api/v1/namespaces/tx/configmaps?limit=99999999999999999999999&continue=!!!',
  '/api/v1/namespaces/tx/configmaps?fieldSelector=metadata.name%3D%3D%3D&labelSelector=a+in+(',
  '/apis/apps/v1/namespaces/tx/deployments?watch=1&timeoutSeconds=-5',
  '*',
  'http://[/api',
  'http://127.0.0.1/api/v1/namespaces',
  '/#frag?x=1',
  '/api/v1/namespaces/tx/pods/p/exec?command=ls&stdout=1',
  '/_kubetape/../_kubetape/status',
  '/_kubetape/%',
  '/_kubetape/faults/%zz',
];

const METHODS = ['GET', 'GET', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'FOO', 'get'];
const CHARS = 'abz09/%?&=#[]^{}|\\`"<>.~!$\'()*+,;:@-_ \t\x7f\x80\xff';

/** A seeded stream of malformed raw requests: odd targets, bad escapes, huge headers, bad upgrades, truncated or bad bodies. */
export function malformedRequests(seed: number): () => { bytes: string; endAfterWrite: boolean } {
  const random = mulberry32(seed);
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
  const junk = (n: number) => Array.from({ length: n }, () => pick(CHARS.split(''))).join('').replace(/[ \t]/g, '');
  const target = () => {
    switch (int(4)) {
      case 0:
        return pick(MALFORMED_TARGETS);
      case 1:
        return `/${junk(1 + int(40))}`;
      case 2:
        return `//${junk(1 + int(20))}/api/v1/namespaces/tx/configmaps`;
      default:
        return `${pick(MALFORMED_TARGETS)}${junk(int(10))}`;
    }
  };
  return () => {
    const method = pick(METHODS);
    const t = target();
    const head = (extra: string) => `${method} ${t} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}`;
    switch (int(8)) {
      case 0: // huge header
        return { bytes: head(`X-Big: ${'x'.repeat(20_000 + int(80_000))}\r\n\r\n`), endAfterWrite: false };
      case 1: // many headers
        return { bytes: head(Array.from({ length: 200 + int(2000) }, (_, i) => `X-H${i}: ${junk(5)}\r\n`).join('') + '\r\n'), endAfterWrite: false };
      case 2: // a bad upgrade
        return {
          bytes: head(pick([
            'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
            'Connection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
            'Connection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\nContent-Length: 0\r\n\r\n',
            'Connection: Upgrade\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n',
            `Connection: Upgrade\r\nUpgrade: ${junk(8)}\r\n\r\n`,
          ])),
          endAfterWrite: random() < 0.5,
        };
      case 3: // a body shorter than its Content-Length, then the client goes away
        return { bytes: head(`Content-Type: application/json\r\nContent-Length: ${50 + int(5000)}\r\n\r\n{"kind":"Con`), endAfterWrite: true };
      case 4: // bad chunked framing
        return { bytes: head(`Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${pick(['zz\r\n', '5\r\nabc', 'ffffffffffff\r\nx', '3\r\nabc\r\n'])}`), endAfterWrite: true };
      case 5: // a body that is not what it says
        return { bytes: head(`Content-Type: ${pick(['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf', 'application/merge-patch+json', 'application/json-patch+json', 'text/plain'])}\r\nContent-Length: 7\r\n\r\n${junk(7).padEnd(7, 'x').slice(0, 7)}`), endAfterWrite: false };
      case 6: // a request line no server takes
        return { bytes: pick([`${method} ${t}\r\n\r\n`, `${junk(30)}\r\n\r\n`, `GET ${t} HTTP/9.9\r\n\r\n`, `GET  HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, '\r\n\r\n', `GET ${t} HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n`]), endAfterWrite: random() < 0.5 };
      default:
        return { bytes: head('Accept: application/json\r\nConnection: close\r\n\r\n'), endAfterWrite: false };
    }
  };
}

export interface ModeProcess {
  child: ChildProcess;
  url: string;
  stderr(): string;
  /** The exit code once it exited, else undefined. */
  exited(): number | null | undefined;
}

/** Starts `kubetape MODE …` from the built CLI (`npm run build` first); resolves with its URL once it prints the banner. */
export function spawnMode(mode: 'record' | 'replay' | 'serve', args: string[]): Promise<ModeProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, mode, '--listen', '127.0.0.1:0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let code: number | null | undefined;
    child.stderr!.on('data', (d) => (err += d));
    child.on('exit', (c) => {
      code = c;
      reject(new Error(`kubetape ${mode} exited ${c}: ${err}`));
    });
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)$/m.exec(out);
      if (m) resolve({ child, url: m[1]!, stderr: () => err, exited: () => code });
    });
  });
}

/** Runs `tasks` with at most `width` at a time. */
export async function inParallel<T>(count: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) {
      const i = next++;
      out[i] = await task(i);
    }
  }));
  return out;
}
