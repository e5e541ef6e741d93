import type { IncomingMessage, ServerResponse } from 'node:http';

const HEALTH_PATHS = new Set(['/healthz', '/readyz', '/livez']);

/** Answers `/healthz`, `/readyz`, `/livez` (and their `?verbose` forms) with `ok`, as the apiserver does. Returns whether it answered. */
export function answerHealth(req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (!HEALTH_PATHS.has(path)) return false;
  res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  res.end('ok');
  return true;
}
