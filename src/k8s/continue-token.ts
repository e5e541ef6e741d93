/**
 * List continue tokens, byte-compatible with kube-apiserver's (apiserver storage/continue.go):
 * unpadded URL-safe base64 of `{"v":"meta.k8s.io/v1","rv":232,"start":"cm-05\u0000"}` where
 * `start` is the last returned key (`name`, or `namespace/name` across namespaces) plus NUL, and
 * `rv` is the list's revision, or -1 for an "inconsistent continue" at the latest revision.
 * Decoding errors carry Go's exact wording; the caller prefixes `invalid continue token: `.
 * Pure.
 */
import { goJson } from '../wire/json-spans';
import { goJsonKind, goJsonSyntaxError } from './go-json';

export const CONTINUE_TOKEN_VERSION = 'meta.k8s.io/v1';
/** The rv of a token that continues at the latest revision (handed out with a 410). */
export const INCONSISTENT_CONTINUE_RV = -1;

export interface ContinueToken {
  rv: number;
  /** Key to start from (inclusive): the previous page's last key plus NUL. */
  start: string;
}

/** A token the apiserver would reject with 400 `invalid continue token: <message>`. */
export class ContinueTokenError extends Error {
  override name = 'ContinueTokenError';
}

const GENERIC = 'continue key is not valid';

export function encodeContinueToken(rv: number, start: string): string {
  // Go's json.Marshal escapes NUL as \u0000 and <, >, & as \u003c…; JSON.stringify writes
  // \u0000 the same way, the HTML characters need the extra step.
  const json = `{"v":"${CONTINUE_TOKEN_VERSION}","rv":${rv},"start":${goJson(start)}}`;
  return Buffer.from(json, 'utf8').toString('base64url');
}

/** The token for the page after `lastKey` (the last key returned). */
export function continueAfter(rv: number, lastKey: string): string {
  return encodeContinueToken(rv, `${lastKey}\u0000`);
}

export function decodeContinueToken(token: string): ContinueToken {
  const data = decodeRawUrlBase64(token);
  const syntax = goJsonSyntaxError(data);
  if (syntax) throw new ContinueTokenError(`${GENERIC}: ${syntax}`);
  const parsed = JSON.parse(Buffer.from(data).toString('utf8')) as unknown;
  const fields = unmarshalToken(parsed);
  if (fields.v !== CONTINUE_TOKEN_VERSION) {
    throw new ContinueTokenError(`server does not recognize this encoded version ${fields.v}`);
  }
  if (fields.rv === 0) {
    throw new ContinueTokenError(`${GENERIC}: incorrect encoded start resourceVersion (version ${CONTINUE_TOKEN_VERSION})`);
  }
  if (fields.start.length === 0) {
    throw new ContinueTokenError(`${GENERIC}: encoded start key empty (version ${CONTINUE_TOKEN_VERSION})`);
  }
  // The apiserver refuses keys that path.Clean would change (no climbing out of the prefix).
  const key = fields.start.startsWith('/') ? fields.start : `/${fields.start}`;
  const cleaned = goPathClean(key);
  if (cleaned !== key) throw new ContinueTokenError(`${GENERIC}: ${fields.start}`);
  return { rv: fields.rv, start: cleaned.slice(1) };
}

/** json.Unmarshal into struct {v string; rv int64; start string}: first type error wins, null skips. */
function unmarshalToken(value: unknown): { v: string; rv: number; start: string } {
  const out = { v: '', rv: 0, start: '' };
  if (value === null) return out;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ContinueTokenError(`${GENERIC}: json: cannot unmarshal ${goJsonKind(value)} into Go value of type storage.continueToken`);
  }
  let firstError: string | undefined;
  const typeError = (what: string, field: string, goType: string) => {
    firstError ??= `${GENERIC}: json: cannot unmarshal ${what} into Go struct field continueToken.${field} of type ${goType}`;
  };
  for (const [rawKey, v] of Object.entries(value as Record<string, unknown>)) {
    const key = rawKey.toLowerCase(); // Go matches field names case-insensitively
    if (v === null) continue;
    if (key === 'v' || key === 'start') {
      if (typeof v === 'string') out[key] = v;
      else typeError(goJsonKind(v), key, 'string');
    } else if (key === 'rv') {
      if (typeof v !== 'number') typeError(goJsonKind(v), 'rv', 'int64');
      else if (!Number.isSafeInteger(v) || !/^-?\d+$/.test(String(v))) typeError(`number ${String(v)}`, 'rv', 'int64');
      else out.rv = v;
    }
  }
  if (firstError) throw new ContinueTokenError(firstError);
  return out;
}

/** base64.RawURLEncoding.DecodeString: no padding, `\r`/`\n` skipped, errors at the offending byte. */
function decodeRawUrlBase64(token: string): Uint8Array {
  const bytes = Buffer.from(token, 'latin1');
  const values: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 0x0a || c === 0x0d) continue;
    const v = BASE64URL.indexOf(String.fromCharCode(c));
    if (v < 0) throw new ContinueTokenError(`${GENERIC}: illegal base64 data at input byte ${i}`);
    values.push(v);
  }
  if (values.length % 4 === 1) {
    throw new ContinueTokenError(`${GENERIC}: illegal base64 data at input byte ${lastDataIndex(bytes)}`);
  }
  const out: number[] = [];
  for (let i = 0; i < values.length; i += 4) {
    const chunk = values.slice(i, i + 4);
    const n = chunk.reduce((acc, v, k) => acc | (v << (18 - 6 * k)), 0);
    out.push((n >> 16) & 0xff);
    if (chunk.length > 2) out.push((n >> 8) & 0xff);
    if (chunk.length > 3) out.push(n & 0xff);
  }
  return Uint8Array.from(out);
}

function lastDataIndex(bytes: Buffer): number {
  for (let i = bytes.length - 1; i >= 0; i--) if (bytes[i] !== 0x0a && bytes[i] !== 0x0d) return i;
  return 0;
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Go's path.Clean for a rooted path. */
export function goPathClean(p: string): string {
  if (p === '') return '.';
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
      continue;
    }
    out.push(part);
  }
  const joined = out.join('/');
  if (rooted) return `/${joined}`;
  return joined === '' ? '.' : joined;
}
