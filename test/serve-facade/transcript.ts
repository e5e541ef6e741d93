/**
 * Reads the apiserver transcripts copied into test/serve-facade/fixtures (request line and
 * headers, response status and headers, exact body bytes).
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

export interface Transcript {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  status: number;
  responseHeaders: Record<string, string>;
  body: Buffer;
}

export const FIXTURES = path.join(__dirname, 'fixtures');

export function readTranscript(name: string): Transcript {
  const raw = readFileSync(path.join(FIXTURES, name));
  const bodyMark = /### ---- response body \((\d+) bytes\) ----\n/.exec(raw.toString('latin1'));
  if (!bodyMark) throw new Error(`${name}: no response body marker`);
  const length = Number(bodyMark[1]);
  const body = raw.subarray(bodyMark.index + bodyMark[0].length, bodyMark.index + bodyMark[0].length + length);
  const head = raw.subarray(0, bodyMark.index).toString('utf8');
  const split = head.indexOf('\n### ');
  const requestPart = split < 0 ? head : head.slice(0, split);
  const rest = split < 0 ? '' : head.slice(split);
  const requestLines = requestPart.split('\n').filter((l) => l.trim() !== '');
  const [method = '', url = ''] = requestLines[0]!.split(' ');
  const responsePart = rest.split('### ---- response headers ----\n')[1] ?? '';
  const responseLines = responsePart.split('\n').filter((l) => l.trim() !== '');
  const status = Number(/^HTTP\/1\.1 (\d+)/.exec(responseLines[0] ?? '')?.[1]);
  return {
    method,
    url,
    requestHeaders: headerMap(requestLines.slice(1)),
    status,
    responseHeaders: headerMap(responseLines.slice(1)),
    body,
  };
}

function headerMap(lines: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(': ');
    if (colon > 0) out[line.slice(0, colon).toLowerCase()] = line.slice(colon + 2);
  }
  return out;
}

export function transcriptJson<T = any>(name: string): T {
  return JSON.parse(readTranscript(name).body.toString('utf8')) as T;
}
