/** Reads the reference exchanges in /work/shared/reference/apiserver-transcripts (request line, status, headers, body). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const TRANSCRIPTS_DIR = process.env.KUBETAPE_TRANSCRIPTS ?? '/work/shared/reference/apiserver-transcripts';

export interface Transcript {
  request: string;
  status: number;
  headers: Record<string, string>;
  /** The body as recorded (text transcripts), or the `.body` file when one exists. */
  body: Buffer;
}

export function transcript(name: string): Transcript {
  const text = readFileSync(join(TRANSCRIPTS_DIR, `${name}.txt`), 'utf8');
  const lines = text.split('\n');
  const statusAt = lines.findIndex((l) => l.startsWith('HTTP/'));
  const status = Number(lines[statusAt].split(' ')[1]);
  const headers: Record<string, string> = {};
  let i = statusAt + 1;
  for (; lines[i] && !lines[i].startsWith('###'); i++) {
    const colon = lines[i].indexOf(':');
    headers[lines[i].slice(0, colon).toLowerCase()] = lines[i].slice(colon + 1).trim();
  }
  const marker = /^### ---- response body \((\d+) bytes\) ----$/m.exec(text);
  const bodyFile = join(TRANSCRIPTS_DIR, `${name}.body`);
  let body: Buffer;
  if (existsSync(bodyFile)) body = readFileSync(bodyFile);
  else {
    const start = text.indexOf('\n', text.indexOf('### ---- response body')) + 1;
    body = Buffer.from(text.slice(start)).subarray(0, marker ? Number(marker[1]) : undefined);
  }
  return { request: lines[0], status, headers, body };
}
