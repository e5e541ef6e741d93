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
  return { method, path, requestHeaders, requestBody, status: Number(statusLine.split(' ')[1]), body };
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
