/** The apiserver's continue token: unpadded base64url of {"v":"meta.k8s.io/v1","rv":N,"start":"<key>\u0000"}. */
import { posix } from 'node:path';
import { badRequest } from './status';
import { goJson } from './objects';

export function encodeContinue(rv: number, lastKey: string): string {
  return Buffer.from(goJson({ v: 'meta.k8s.io/v1', rv, start: `${lastKey}\u0000` })).toString('base64url');
}

/** Go's strconv-style quoting of one byte, as encoding/json's syntax errors print it. */
function quoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  const named: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 0x5c: '\\\\' };
  if (named[c]) return `'${named[c]}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  if ((c >= 0x80 && c <= 0xa0) || c === 0xad) return `'\\u${c.toString(16).padStart(4, '0')}'`;
  return `'${String.fromCharCode(c)}'`;
}

function goJsonError(data: Buffer): string {
  let i = 0;
  while (i < data.length && ' \t\r\n'.includes(String.fromCharCode(data[i]))) i++;
  if (i === data.length) return 'unexpected end of JSON input';
  if (!'{["-0123456789tfn'.includes(String.fromCharCode(data[i]))) return `invalid character ${quoteChar(data[i])} looking for beginning of value`;
  return 'unexpected end of JSON input';
}

function base64Error(token: string): string | undefined {
  const bad = token.search(/[^A-Za-z0-9_-]/);
  if (bad >= 0) return `illegal base64 data at input byte ${bad}`;
  if (token.length % 4 === 1) return `illegal base64 data at input byte ${token.length - 1}`;
  return undefined;
}

const invalid = (detail: string) => badRequest(`invalid continue token: continue key is not valid: ${detail}`);

/** Decodes a token or throws the apiserver's 400. `rv` is -1 for the inconsistent token a 410 hands out. */
export function decodeContinue(token: string): { rv: number; start: string } {
  const b64 = base64Error(token);
  if (b64) throw invalid(b64);
  const data = Buffer.from(token, 'base64url');
  let parsed: { v?: unknown; rv?: unknown; start?: unknown };
  try {
    parsed = JSON.parse(data.toString('utf8'));
  } catch {
    throw invalid(goJsonError(data));
  }
  if (parsed.v !== 'meta.k8s.io/v1') {
    throw badRequest(`invalid continue token: continue key is not valid: server does not recognize this encoded version ${parsed.v ?? ''}`);
  }
  const rv = typeof parsed.rv === 'number' ? parsed.rv : 0;
  if (rv === 0) throw badRequest('invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  const start = typeof parsed.start === 'string' ? parsed.start : '';
  if (!start) throw badRequest('invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)');
  const rooted = start.startsWith('/') ? start : `/${start}`;
  if (posix.normalize(rooted) !== rooted || rooted.includes('/../') || rooted.endsWith('/..')) throw invalid(start);
  return { rv, start };
}
