/**
 * Reads the real apiserver's exchanges kept in test/fixtures/transcripts: `<name>.txt` holds the
 * request (line and headers), the response headers and a text body; a binary body sits beside it
 * as `<name>.body`. Names are given with or without `.txt`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const TRANSCRIPTS_DIR = join(__dirname, '..', 'fixtures', 'transcripts');

export interface Transcript {
  /** The request line, e.g. `GET /api/v1/namespaces/tx/configmaps?limit=5 HTTP/1.1`. */
  request: string;
  method: string;
  /** Path and query of the request. */
  path: string;
  /** Request headers (names lowercased). */
  requestHeaders: Record<string, string>;
  status: number;
  /** Response headers (names lowercased). */
  headers: Record<string, string>;
  /** The response body: the `.body` file when there is one, else the bytes after the body marker of `.txt`. */
  body: Buffer;
  /** The body parsed as JSON (undefined when it is not JSON). */
  readonly json: any;
}

const BODY_MARKER = /### ---- response body \((\d+) bytes\) ----\n/;
const HEADERS_MARKER = '### ---- response headers ----\n';

/** The path of a file in the transcripts folder. */
export function transcriptPath(file: string): string {
  return join(TRANSCRIPTS_DIR, file);
}

export function transcript(name: string): Transcript {
  const base = name.endsWith('.txt') ? name.slice(0, -'.txt'.length) : name;
  const raw = readFileSync(transcriptPath(`${base}.txt`));
  const latin1 = raw.toString('latin1');
  const marker = BODY_MARKER.exec(latin1);
  if (!marker) throw new Error(`${base}.txt has no response body marker`);
  const bodyFile = transcriptPath(`${base}.body`);
  const bodyStart = marker.index + marker[0].length;
  const body = existsSync(bodyFile) ? readFileSync(bodyFile) : raw.subarray(bodyStart, bodyStart + Number(marker[1]));

  const head = raw.subarray(0, marker.index).toString('utf8');
  const split = head.indexOf('\n### ');
  const requestLines = (split < 0 ? head : head.slice(0, split)).split('\n').filter((l) => l.trim() !== '');
  const request = requestLines[0] ?? '';
  const [method = '', path = ''] = request.split(' ');
  const headersAt = head.indexOf(HEADERS_MARKER);
  const responseLines = headersAt < 0 ? [] : head.slice(headersAt + HEADERS_MARKER.length).split('\n').filter((l) => l.trim() !== '');
  const status = Number(/^HTTP\/[\d.]+ (\d+)/.exec(responseLines[0] ?? '')?.[1]);

  let json: any;
  let parsed = false;
  return {
    request,
    method,
    path,
    requestHeaders: headerMap(requestLines.slice(1)),
    status,
    headers: headerMap(responseLines.slice(1)),
    body,
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

/** The response body of a transcript (see Transcript.body). */
export function transcriptBody(name: string): Buffer {
  return transcript(name).body;
}

/** The response headers of a transcript (names lowercased). */
export function transcriptHeaders(name: string): Record<string, string> {
  return transcript(name).headers;
}

/** The response body parsed as JSON. */
export function transcriptJson<T = any>(name: string): T {
  return JSON.parse(transcript(name).body.toString('utf8')) as T;
}

/** The JSON lines of a watch transcript's body. */
export function watchLines(t: Transcript): string[] {
  return t.body.toString('utf8').split('\n').filter((l) => l.length > 0);
}

function headerMap(lines: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) out[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return out;
}
