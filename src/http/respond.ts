import type { IncomingMessage, ServerResponse } from 'node:http';
import { StatusError, failure, type Status } from '../k8s/status';

/** Sends a Status body with its code and headers (Retry-After …), as the apiserver does. */
export function sendStatus(res: ServerResponse, err: StatusError | Status, extraHeaders: Record<string, string> = {}): void {
  const status = err instanceof StatusError ? err.status : err;
  const headers = err instanceof StatusError ? err.headers : {};
  sendJson(res, status.code, status, { ...headers, ...extraHeaders });
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
