/**
 * The real apiserver's write exchanges (reference/apiserver-transcripts/w*, copied to
 * test/fixtures/transcripts): the request (method, path, headers, body) and the response, and a
 * masked form of JSON bodies (uid, timestamps, resourceVersion) for comparing with serve's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = join(__dirname, '..', 'fixtures', 'transcripts');

export interface WriteExchange {
  method: string;
  path: string;
  requestHeaders: Record<string, string>;
  requestBody: Buffer;
  status: number;
  body: string;
  /** The response's Warning header values, in order. */
  warnings: string[];
}

export function writeExchange(name: string): WriteExchange {
  const text = readFileSync(join(DIR, `${name}.txt`), 'utf8');
  const lines = text.split('\n');
  const [method = '', path = ''] = lines[0]!.split(' ');
  const requestHeaders: Record<string, string> = {};
  let i = 1;
  for (; lines[i] && !lines[i]!.startsWith('###'); i++) {
    const colon = lines[i]!.indexOf(':');
    requestHeaders[lines[i]!.slice(0, colon)] = lines[i]!.slice(colon + 1).trim();
  }
  let requestBody = Buffer.alloc(0);
  const reqMarker = /^### ---- request body \((\d+) bytes\) ----\n/m.exec(text);
  if (reqMarker) requestBody = Buffer.from(text.slice(reqMarker.index + reqMarker[0].length)).subarray(0, Number(reqMarker[1]));
  const statusLine = lines.find((l) => l.startsWith('HTTP/1.1 '))!;
  const marker = /^### ---- response body \((\d+) bytes\) ----\n/m.exec(text)!;
  const body = Buffer.from(text.slice(marker.index + marker[0].length)).subarray(0, Number(marker[1])).toString('utf8');
  const headerText = text.slice(text.indexOf('### ---- response headers ----'), marker.index);
  const warnings = [...headerText.matchAll(/^Warning: (.*)$/gm)].map((m) => m[1]!);
  return { method, path, requestHeaders, requestBody, status: Number(statusLine.split(' ')[1]), body, warnings };
}

/** JSON text with what differs between servers masked: uids, timestamps, resourceVersions, generated name suffixes. */
export function masked(body: string): string {
  return body
    .replace(/"uid":"[^"]*"/g, '"uid":"<uid>"')
    .replace(/"(creationTimestamp|deletionTimestamp|time)":"[^"]*"/g, '"$1":"<ts>"')
    .replace(/"resourceVersion":"\d+"/g, '"resourceVersion":"<rv>"')
    .replace(/UID in record \([^)]*\)/g, 'UID in record (<uid>)')
    .replace(/UID in object meta: [0-9a-f-]+/g, 'UID in object meta: <uid>')
    .replace(/ResourceVersion in record \(\d+\)/g, 'ResourceVersion in record (<rv>)');
}

/** When the exchange was made (the transcript's curl line), for replaying several in their order. */
export function startedAt(name: string): string {
  const text = readFileSync(join(DIR, `${name}.txt`), 'utf8');
  return /started (\S+)/.exec(text)?.[1] ?? '';
}

import { request as httpRequest } from 'node:http';

export interface RawReply {
  status: number;
  body: string;
  /** The Warning header lines, in order. */
  warnings: string[];
}

/** One request with exactly the given headers (no User-Agent unless given). */
export function send(url: string, method: string, headers: Record<string, string>, body?: Buffer | string): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const length = body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) };
    const req = httpRequest(url, { method, headers: { ...headers, ...length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      const warning = res.headers.warning;
      const warnings = warning === undefined ? [] : (Array.isArray(warning) ? warning : [warning]).flatMap((w) => w.split(/, (?=299 )/));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), warnings }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Replays write exchanges against a server in their recorded order. The real server's
 * resourceVersions and uids in later requests are translated to the ones this server gave for
 * the same objects, generated name suffixes are masked. Returns, per exchange, what the real
 * apiserver answered and what this server answered (masked).
 */
export async function replayExchanges(
  baseUrl: string,
  names: string[],
  bodies: Record<string, Buffer> = {},
  setup: Array<{ path: string; body: string }> = [],
  /** Called before each exchange is sent (a test's clock can follow the recorded times). */
  beforeEach?: (name: string) => void,
): Promise<ReplayResult[]> {
  const translate = new Map<string, string>();
  const out: ReplayResult[] = [];
  for (const s of setup) {
    const reply = await send(baseUrl + s.path, 'POST', { 'Content-Type': 'application/json', 'User-Agent': 'probe/1.0' }, s.body);
    if (reply.status !== 201) throw new Error(`setup ${s.path}: ${reply.status} ${reply.body}`);
  }
  for (const name of [...names].sort((a, b) => startedAt(a).localeCompare(startedAt(b)))) {
    const ex = writeExchange(name);
    beforeEach?.(name);
    const headers: Record<string, string> = { Accept: '*/*' };
    for (const h of ['User-Agent', 'Content-Type', 'Accept']) if (ex.requestHeaders[h] !== undefined) headers[h] = ex.requestHeaders[h]!;
    let body = bodies[name] ?? ex.requestBody;
    let path = ex.path;
    for (const [real, ours] of translate) {
      body = Buffer.from(body.toString('utf8').split(`"${real}"`).join(`"${ours}"`));
      path = path.split(`=${real}`).join(`=${ours}`);
    }
    const reply = await send(baseUrl + path, ex.method, headers, body.length ? body : undefined);
    learn(ex.body, reply.body, translate);
    const generate = /"generateName":"([^"]*)"/.exec(ex.requestBody.toString('utf8'))?.[1];
    const maskGen = (s: string) => (generate === undefined ? s : s.replace(new RegExp(`${escapeRegExp(generate)}[bcdfghjklmnpqrstvwxz2456789]{5}`, 'g'), `${generate}<gen>`));
    out.push({
      name,
      expected: `${ex.status} ${maskGen(masked(ex.body))}`,
      actual: `${reply.status} ${maskGen(masked(reply.body.replace(/\n$/, ex.body.endsWith('\n') ? '\n' : '')))}`,
      expectedWarnings: ex.warnings,
      actualWarnings: reply.warnings,
    });
  }
  return out;
}

export interface ReplayResult {
  name: string;
  /** Status and masked body, the real apiserver's and this server's. */
  expected: string;
  actual: string;
  expectedWarnings: string[];
  actualWarnings: string[];
}

/** Pairs the real server's uid and resourceVersion of an object with ours. */
function learn(expected: string, actual: string, translate: Map<string, string>): void {
  for (const pattern of ['"uid":"([^"]+)"', '"resourceVersion":"([^"]+)"', 'UID in record \\(([^)]+)\\)', 'ResourceVersion in record \\(([^)]+)\\)']) {
    const re = new RegExp(pattern, 'g');
    const a = [...expected.matchAll(re)].map((m) => m[1]!);
    const b = [...actual.matchAll(re)].map((m) => m[1]!);
    if (a.length === b.length) a.forEach((v, i) => translate.set(v, b[i]!));
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
