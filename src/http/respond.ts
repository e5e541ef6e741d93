import type { IncomingMessage, ServerResponse } from 'node:http';
import { StatusError, failure, type Status } from '../k8s/status';

/** Sends a Status body with its code and headers (Retry-After …), as the apiserver does. */
export function sendStatus(res: ServerResponse, err: StatusError | Status, extraHeaders: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const { code, rawHeaders, body } = statusResponse(err, extraHeaders);
  res.writeHead(code, rawHeaders);
  res.end(body);
}

/**
 * A Status as the apiserver writes it to a JSON client: compact JSON ending in a newline (Go's
 * json.Encoder); `Cache-Control`, `Content-Type`, the error's own headers (Retry-After), then
 * `Content-Length` — transcripts b1 and d1, byte for byte. The head is a flat [name, value, …]
 * list so record mode can store exactly what it sends.
 */
export function statusResponse(err: StatusError | Status, extraHeaders: Record<string, string> = {}): { code: number; rawHeaders: string[]; body: Buffer } {
  const status = err instanceof StatusError ? err.status : err;
  const body = Buffer.from(`${JSON.stringify(status)}\n`, 'utf8');
  const headers: Record<string, string> = {
    'Cache-Control': 'no-cache, private',
    'Content-Type': 'application/json',
    ...(err instanceof StatusError ? err.headers : {}),
    ...extraHeaders,
  };
  headers['Content-Length'] = String(body.length);
  return { code: status.code, rawHeaders: Object.entries(headers).flat(), body };
}

export function sendJson(res: ServerResponse, code: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // The apiserver's JSON encoder ends every body with a newline; Content-Length counts it.
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(code, {
    'Cache-Control': 'no-cache, private',
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Reads a whole request body. */
export function readBody(req: IncomingMessage, maxBytes = 64 * 1024 * 1024): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(new StatusError(failure(413, 'RequestEntityTooLarge', 'the request body is too large')));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
