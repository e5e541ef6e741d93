/**
 * Writing a whole (non-watch) response body the way kube-apiserver does
 * (responsewriters.SerializeObject / WriteRawJSON):
 *
 * - `Cache-Control: no-cache, private`, `Content-Type`, `Content-Length`.
 * - gzip when the request's Accept-Encoding lists `gzip` and the body is larger than 128 KiB
 *   (`len(p) > defaultGzipThresholdBytes`), with `Content-Encoding: gzip` and
 *   `Vary: Accept-Encoding`; level 1 (BestSpeed), as v1.26 writes it (its gzip header says so).
 * - Compact JSON ends with a newline (Go's json.Encoder); JSON for "human" clients (`User-Agent`
 *   curl / Wget / Mozilla/5.0, or `?pretty=true`) is indented by 2 spaces with no trailing
 *   newline (json.MarshalIndent), byte for byte as transcript a0 shows.
 * - Error Statuses are negotiated again with no transform allowed; when nothing fits (an Accept
 *   of only `…;as=Table…`), the Status goes out indented whatever the client (f6).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as zlib from 'node:zlib';
import { parseBool } from '../k8s/request-info';
import { StatusError, type Status } from '../k8s/status';
import { hasHtmlUnsafe } from '../wire/json-spans';
import { encodeEnvelope, encodeStatus } from '../wire/protobuf';
import { JSON_CONTENT_TYPE, PROTOBUF_CONTENT_TYPE, negotiateStatus } from './negotiate';

/** Bodies strictly larger than this are gzipped when the client accepts gzip. */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;
/** zlib level: 1 (BestSpeed) like kube-apiserver v1.26+ (`defaultGzipContentEncodingLevel = 1`). */
export const GZIP_LEVEL = 1;
const GO_GZIP_OS_UNKNOWN = 0xff;

/** Sends a whole body. `body` for JSON is the compact encoding (a trailing newline is added when missing). */
export function writeBody(
  req: IncomingMessage,
  res: ServerResponse,
  code: number,
  body: Buffer | string,
  contentType: string,
  extraHeaders: Record<string, string> = NO_HEADERS,
): void {
  let payload = body;
  if (isJsonType(contentType)) {
    payload = isPrettyPrint(req) ? indentJson(typeof body === 'string' ? body : body.toString('utf8')) : withTrailingNewline(body);
  }
  // A string of n UTF-16 units is at most 3n bytes: most bodies need no byte count to be under the threshold.
  const large = typeof payload === 'string' ? payload.length * 3 > GZIP_THRESHOLD_BYTES && Buffer.byteLength(payload) > GZIP_THRESHOLD_BYTES : payload.length > GZIP_THRESHOLD_BYTES;
  if (large && acceptsGzip(req)) {
    const gz = zlib.gzipSync(payload, { level: GZIP_LEVEL });
    gz[9] = GO_GZIP_OS_UNKNOWN; // Go's compress/gzip writes OS=255; zlib writes 3.
    const { Vary: vary, ...others } = extraHeaders;
    // Go adds its Vary line to the handler's (aggregated discovery sets `Vary: Accept`).
    send(res, code, gz, { 'Content-Encoding': 'gzip', 'Content-Type': contentType, ...others, Vary: vary ? [vary, 'Accept-Encoding'] : 'Accept-Encoding' });
    return;
  }
  if (extraHeaders === NO_HEADERS) sendTyped(res, code, payload, contentType);
  else send(res, code, payload, { 'Content-Type': contentType, ...extraHeaders });
}

const NO_HEADERS: Record<string, string> = {};

/**
 * Sends a status with no body (Go's bare `w.WriteHeader(code)`): no Content-Type, `Content-Length: 0`
 * except on a 304 (Go writes none where a body is not allowed).
 */
export function writeEmptyBody(res: ServerResponse, code: number, headers: Record<string, string | string[]>): void {
  if (code !== 304) return send(res, code, '', headers);
  if (res.headersSent) return void res.destroy();
  const raw: Array<string | string[]> = ['Cache-Control', headers['Cache-Control'] ?? 'no-cache, private'];
  for (const name of Object.keys(headers).sort()) if (name !== 'Cache-Control') raw.push(name, headers[name]!);
  res.writeHead(code, raw);
  res.end();
}

/** Sends bytes as they are (no re-indent, newline or gzip): WriteRawJSON bodies and recorded answers. */
export function writeRawBody(res: ServerResponse, code: number, body: Buffer | string, contentType: string, extraHeaders: Record<string, string | string[]> = {}): void {
  send(res, code, body, { 'Content-Type': contentType, ...extraHeaders });
}

export interface StatusBodyOptions {
  /** Whether a protobuf client may get the Status as protobuf (default true: Status is a built-in type). */
  protobuf?: boolean;
}

/**
 * Sends an error Status as the apiserver's ErrorNegotiated does: JSON, or protobuf for a client
 * that prefers it (client-go's `protobuf, json`), Retry-After from the error or its details.
 */
export function sendStatusBody(
  req: IncomingMessage,
  res: ServerResponse,
  err: StatusError | Status,
  extraHeaders: Record<string, string> = {},
  options: StatusBodyOptions = {},
): void {
  const status = err instanceof StatusError ? err.status : err;
  const headers: Record<string, string> = { ...(err instanceof StatusError ? err.headers : {}), ...extraHeaders };
  const retryAfter = status.details?.retryAfterSeconds;
  if (retryAfter !== undefined && retryAfter > 0 && !hasHeader(headers, 'retry-after')) headers['Retry-After'] = String(retryAfter);
  const rep = negotiateStatus(header(req, 'accept'), options.protobuf ?? true);
  if (!rep) {
    send(res, status.code, indentJson(encodeJson(status)), { 'Content-Type': JSON_CONTENT_TYPE, ...headers });
  } else if (rep.format === 'protobuf') {
    writeBody(req, res, status.code, encodeEnvelope({ apiVersion: 'v1', kind: 'Status' }, encodeStatus(status)), PROTOBUF_CONTENT_TYPE, headers);
  } else {
    writeBody(req, res, status.code, encodeJson(status), rep.contentType, headers);
  }
}

/** negotiation.isPrettyPrint: `?pretty=<bool>` decides when present, else a "human" User-Agent. */
export function isPrettyPrint(req: IncomingMessage): boolean {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  if (q >= 0 && url.includes('pretty', q)) {
    const pretty = new URLSearchParams(url.slice(q + 1)).get('pretty');
    if (pretty) return parseBool(pretty);
  }
  const ua = header(req, 'user-agent') ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
}

/** negotiateContentEncoding: a comma-separated token that is exactly `gzip` (parameters make it not match, as in Go). */
export function acceptsGzip(req: IncomingMessage): boolean {
  const value = header(req, 'accept-encoding');
  if (!value) return false;
  return value.split(',').some((token) => token.trim() === 'gzip');
}

/**
 * A value as Go's encoding/json Encoder writes it: compact, `<` `>` `&` U+2028 U+2029 escaped,
 * then a newline. (Only strings can hold those characters, so escaping the text is safe.)
 */
export function encodeJson(value: unknown): string {
  return escapeHtml(JSON.stringify(value)) + '\n';
}

const HTML_UNSAFE_ALL = /[<>&\u2028\u2029]/g;
const HTML_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

function escapeHtml(json: string): string {
  return hasHtmlUnsafe(json) ? json.replace(HTML_UNSAFE_ALL, (c) => HTML_ESCAPES[c]!) : json;
}

/**
 * Go's json.Indent(dst, src, "", "  ") over JSON text, minus trailing whitespace (MarshalIndent):
 * string contents are copied untouched, `{}` and `[]` stay compact, `": "` after keys.
 */
export function indentJson(src: string): string {
  const out: string[] = [];
  let depth = 0;
  let needIndent = false;
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i]!;
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') {
      i++;
      continue;
    }
    if (needIndent && c !== '}' && c !== ']') {
      needIndent = false;
      depth++;
      out.push(newline(depth));
    }
    switch (c) {
      case '"': {
        const end = stringEnd(src, i);
        out.push(src.slice(i, end));
        i = end;
        continue;
      }
      case '{':
      case '[':
        needIndent = true;
        out.push(c);
        break;
      case ',':
        out.push(',', newline(depth));
        break;
      case ':':
        out.push(': ');
        break;
      case '}':
      case ']':
        if (needIndent) needIndent = false;
        else out.push(newline(--depth));
        out.push(c);
        break;
      default: {
        let end = i + 1;
        while (end < n && !'{}[],:" \n\r\t'.includes(src[end]!)) end++;
        out.push(src.slice(i, end));
        i = end;
        continue;
      }
    }
    i++;
  }
  return out.join('');
}

const NEWLINES: string[] = [];
function newline(depth: number): string {
  return (NEWLINES[depth] ??= '\n' + '  '.repeat(depth));
}

/** Index just past the closing quote of the string starting at `start`. */
function stringEnd(src: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const quote = src.indexOf('"', i);
    if (quote < 0) return src.length;
    let backslashes = 0;
    for (let j = quote - 1; src[j] === '\\'; j--) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    i = quote + 1;
  }
}

function withTrailingNewline(body: Buffer | string): Buffer | string {
  if (typeof body === 'string') return body.endsWith('\n') ? body : body + '\n';
  return body.length > 0 && body[body.length - 1] === 0x0a ? body : Buffer.concat([body, NEWLINE]);
}
const NEWLINE = Buffer.from('\n');

function send(res: ServerResponse, code: number, payload: Buffer | string, headers: Record<string, string | string[]>): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // Go writes header names sorted; Content-Length comes last. A raw [name, value, …] list: no header object per answer.
  const names = Object.keys(headers);
  if (names.length > 1) names.sort();
  const raw: Array<string | string[]> = ['Cache-Control', headers['Cache-Control'] ?? 'no-cache, private'];
  for (const name of names) if (name !== 'Cache-Control' && name !== 'Content-Length') raw.push(name, headers[name]!);
  raw.push('Content-Length', String(typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length));
  res.writeHead(code, raw);
  res.end(payload);
}

/** send() with only a Content-Type (most answers). */
function sendTyped(res: ServerResponse, code: number, payload: Buffer | string, contentType: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const length = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
  res.writeHead(code, ['Cache-Control', 'no-cache, private', 'Content-Type', contentType, 'Content-Length', String(length)]);
  res.end(payload);
}

function isJsonType(contentType: string): boolean {
  return contentType === JSON_CONTENT_TYPE || contentType.startsWith(JSON_CONTENT_TYPE + ';');
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function hasHeader(headers: Record<string, string>, lowerName: string): boolean {
  return Object.keys(headers).some((k) => k.toLowerCase() === lowerName);
}
