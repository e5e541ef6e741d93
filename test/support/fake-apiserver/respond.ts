/**
 * Writing answers the way kube-apiserver (Go net/http) does: headers sorted, `Cache-Control: no-cache, private`,
 * an `Audit-Id`, priority-and-fairness UIDs; bodies of at most 2048 bytes get a Content-Length, longer ones are
 * chunked; bodies of 128 KiB or more are gzipped when the client accepts it (never watch streams).
 */
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, statusBody, NOT_ACCEPTABLE_MESSAGE } from './status';
import { goJson } from './objects';
import { encodeEnveloped } from './protobuf';

export const FLOWSCHEMA_UID = '0d6d7c30-07bb-4866-adc6-4e2814b1d580';
export const PRIORITYLEVEL_UID = 'a9e93d4c-668c-49b8-89cb-53e2f6aa2c77';
export const GZIP_THRESHOLD = 128 * 1024;
const CONTENT_LENGTH_MAX = 2048;

/** Go's `curl`/`wget` User-Agent rule and `?pretty=true`. */
export function wantsPretty(req: IncomingMessage, query: URLSearchParams): boolean {
  const pretty = query.get('pretty');
  if (pretty !== null) return /^(1|t|true)$/i.test(pretty);
  const ua = req.headers['user-agent'] ?? '';
  return /^(curl|wget)/i.test(ua);
}

function acceptsGzip(req: IncomingMessage): boolean {
  const ae = req.headers['accept-encoding'];
  return typeof ae === 'string' && ae.split(',').some((e) => e.trim().split(';')[0].toLowerCase() === 'gzip');
}

function writeHead(res: ServerResponse, code: number, headers: Record<string, string>, length?: number): void {
  const all: Record<string, string> = {
    'Audit-Id': randomUUID(),
    'Cache-Control': 'no-cache, private',
    'X-Kubernetes-Pf-Flowschema-Uid': FLOWSCHEMA_UID,
    'X-Kubernetes-Pf-Prioritylevel-Uid': PRIORITYLEVEL_UID,
    ...headers,
  };
  for (const name of Object.keys(all).sort()) res.setHeader(name, all[name]);
  res.setHeader('Date', new Date().toUTCString());
  if (length !== undefined) res.setHeader('Content-Length', String(length));
  else res.setHeader('Transfer-Encoding', 'chunked');
  res.writeHead(code);
}

/** A complete (non-streaming) body. */
export function sendBytes(req: IncomingMessage, res: ServerResponse, code: number, body: Buffer, contentType: string, extra: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const headers: Record<string, string> = { 'Content-Type': contentType, ...extra };
  let wire = body;
  if (body.length >= GZIP_THRESHOLD && acceptsGzip(req)) {
    wire = gzipSync(body, { level: 1 });
    wire[9] = 0xff; // Go's gzip writer leaves the OS byte "unknown"
    headers['Content-Encoding'] = 'gzip';
    headers.Vary = 'Accept-Encoding';
  }
  if (req.method === 'HEAD') {
    writeHead(res, code, headers, wire.length);
    res.end();
    return;
  }
  if (wire.length <= CONTENT_LENGTH_MAX) {
    writeHead(res, code, headers, wire.length);
    res.end(wire);
  } else {
    writeHead(res, code, headers);
    res.write(wire);
    res.end();
  }
}

/** JSON as the apiserver's serializer writes it: compact with a trailing newline, or indented without one. */
export function jsonBytes(value: unknown, pretty: boolean): Buffer {
  return Buffer.from(pretty ? goJson(value, true) : `${goJson(value)}\n`);
}

export function sendJson(req: IncomingMessage, res: ServerResponse, code: number, value: unknown, pretty: boolean, extra: Record<string, string> = {}, contentType = 'application/json'): void {
  sendBytes(req, res, code, jsonBytes(value, pretty), contentType, extra);
}

/** A Status in the negotiated form: protobuf for clients that prefer it (client-go), else JSON. */
export function sendError(req: IncomingMessage, res: ServerResponse, err: ApiError, pretty: boolean, protobuf = false): void {
  // The apiserver has no serializer to honour for a 406 and falls back to indented JSON.
  const notAcceptable = err.status.message === NOT_ACCEPTABLE_MESSAGE;
  if (protobuf && !notAcceptable) {
    sendBytes(req, res, err.status.code, encodeEnveloped('v1', 'Status', err.status), 'application/vnd.kubernetes.protobuf', err.headers);
    return;
  }
  sendJson(req, res, err.status.code, err.status, pretty || notAcceptable, err.headers);
}

export function sendInternal(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  sendJson(req, res, 500, statusBody(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ reason: '', message }] } as never), false);
}

/** Starts a chunked stream (watch, log follow): headers now, no gzip. */
export function startStream(res: ServerResponse, contentType: string): void {
  writeHead(res, 200, { 'Content-Type': contentType });
  res.flushHeaders();
}

export function sendText(req: IncomingMessage, res: ServerResponse, code: number, text: string, contentType = 'text/plain; charset=utf-8'): void {
  sendBytes(req, res, code, Buffer.from(text), contentType, { 'X-Content-Type-Options': 'nosniff' });
}
