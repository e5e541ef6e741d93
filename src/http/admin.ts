import type { IncomingMessage, ServerResponse } from 'node:http';
import { StatusError, badRequest, failure } from '../k8s/status';
import { foreignOrigin } from './host-check';
import { readBody, sendJson, sendStatus } from './respond';

export const ADMIN_PREFIX = '/_kubetape/';

/** Methods whose body the admin API reads: JSON only, so that a cross-site form or `text/plain` POST is refused. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export type AdminHandler = (body: any, req: IncomingMessage) => unknown | Promise<unknown>;

/**
 * The admin API under `/_kubetape/`, answered only to loopback clients, never to a request from a
 * web page of another origin (`Origin`), and taking bodies as `application/json` only (a browser
 * sends no such request cross-site without asking first). Each mode adds its routes
 * (`status`, `advance`, `compact`, `journal`, `faults` …); a handler returns the JSON to send or
 * throws a StatusError.
 */
export class AdminApi {
  private readonly routes = new Map<string, AdminHandler>();

  /** `path` is relative to the prefix: `add('GET', 'status', …)` serves `GET /_kubetape/status`. */
  add(method: string, path: string, handler: AdminHandler): this {
    this.routes.set(`${method.toUpperCase()} ${path}`, handler);
    return this;
  }

  /** Answers the request if it is an admin request; returns whether it was one. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '';
    if (!url.startsWith(ADMIN_PREFIX)) return false; // every proxied request passes here: nothing allocated
    const path = url.split('?')[0]!;
    void this.dispatch(req, res, path.slice(ADMIN_PREFIX.length));
    return true;
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    try {
      if (!isLoopback(req.socket.remoteAddress)) {
        throw new StatusError(failure(403, 'Forbidden', 'the kubetape admin API answers loopback clients only'));
      }
      const foreign = foreignOrigin(req);
      if (foreign) throw foreign;
      const method = (req.method ?? 'GET').toUpperCase();
      if (BODY_METHODS.has(method) && !isJson(req.headers['content-type'])) {
        const given = req.headers['content-type'] === undefined ? 'none' : JSON.stringify(req.headers['content-type']);
        throw new StatusError(failure(415, 'UnsupportedMediaType', `the kubetape admin API takes ${method} bodies as application/json only (Content-Type: ${given})`));
      }
      const handler = this.routes.get(`${method} ${path}`) ?? this.prefixRoute(method, path);
      if (!handler) {
        const known = [...this.routes.keys()].some((k) => k.split(' ')[1] === path);
        throw known
          ? new StatusError(failure(405, 'MethodNotAllowed', `${method} is not allowed on ${ADMIN_PREFIX}${path}`))
          : new StatusError(failure(404, 'NotFound', `no admin endpoint ${ADMIN_PREFIX}${path}`));
      }
      const raw = await readBody(req);
      let body: unknown = {};
      if (raw.length > 0) {
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch (err) {
          throw badRequest(`request body is not JSON: ${(err as Error).message}`);
        }
      }
      const result = await handler(body, req);
      sendJson(res, 200, result ?? { ok: true });
    } catch (err) {
      if (err instanceof StatusError) sendStatus(res, err);
      else sendStatus(res, badRequest((err as Error).message));
    }
  }

  /** Routes registered as `name/*` take any sub-path (e.g. `DELETE faults/NAME`). */
  private prefixRoute(method: string, path: string): AdminHandler | undefined {
    const slash = path.indexOf('/');
    if (slash < 0) return undefined;
    return this.routes.get(`${method} ${path.slice(0, slash)}/*`);
  }
}

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}
