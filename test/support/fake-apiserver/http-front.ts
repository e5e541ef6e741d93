/** The HTTP(S) side of the fake: authentication, the request log, dispatch to discovery / OpenAPI / REST / upgrades. */
import http from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';
import type { FakeStore } from './store';
import type { ObjectWriter } from './writes';
import type { Ctx, Settings } from './context';
import type { TestCA } from './certs';
import { route } from './route';
import { serveDiscovery } from './discovery';
import { serveOpenApi } from './openapi';
import { serveResource } from './rest';
import { handleUpgrade } from './upgrade';
import { sendError, sendInternal, sendText, wantsPretty } from './respond';
import { ApiError, pathNotFound, unauthorized } from './status';
import { negotiate } from './negotiate';

function prefersProtobuf(accept: string | undefined): boolean {
  try {
    return negotiate(accept, { protobuf: true, watch: false }).kind === 'protobuf';
  } catch {
    return false;
  }
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** Client certificate subject CN when one was presented. */
  clientCN?: string;
  at: number;
}

/** A test's own answer to a request (a cut body, a TokenRequest): true when it took the request. */
export type Intercept = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;

export interface FrontOptions {
  store: FakeStore;
  writer: ObjectWriter;
  settings: Settings;
  requests: RecordedRequest[];
  tokens: string[];
  /** TLS: the CA that signs the serving (and accepted client) certificates. */
  pki?: TestCA;
  clientCA: boolean;
  intercepts: Intercept[];
}

export class HttpFront {
  readonly server: http.Server;
  private readonly sockets = new Set<Duplex>();

  constructor(private readonly o: FrontOptions) {
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => void this.handle(req, res);
    if (o.pki) {
      const serving = o.pki.issue('server', 'kube-apiserver', { server: true });
      this.server = https.createServer({ cert: serving.cert, key: serving.key, ca: o.pki.ca.cert, requestCert: o.clientCA, rejectUnauthorized: false }, handler);
    } else {
      this.server = http.createServer(handler);
    }
    this.server.on('upgrade', (req, socket, head) => this.upgrade(req, socket, head));
    this.server.on(o.pki ? 'secureConnection' : 'connection', (socket: Duplex) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  /** Closes the listener and every open connection (watches, upgraded exec sockets). */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private record(req: http.IncomingMessage): void {
    const cert = (req.socket as TLSSocket).getPeerCertificate?.();
    const cn = ([] as string[]).concat(cert?.subject?.CN ?? [])[0];
    this.o.requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, clientCN: cn, at: Date.now() });
  }

  /** Bearer token or a CA-verified client certificate, when either is configured. */
  private authenticated(req: http.IncomingMessage): boolean {
    if (!this.o.tokens.length && !this.o.clientCA) return true;
    const auth = req.headers.authorization ?? '';
    if (auth.startsWith('Bearer ') && this.o.tokens.includes(auth.slice(7).trim())) return true;
    const socket = req.socket as TLSSocket;
    return this.o.clientCA && socket.authorized === true && !!socket.getPeerCertificate?.()?.subject;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    this.record(req);
    if (/%(?![0-9A-Fa-f]{2})/.test((req.url ?? '/').split('?')[0]!)) {
      // Go's server refuses a path it cannot unescape before any handler runs.
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close', 'Content-Length': 15 });
      return void res.end('400 Bad Request');
    }
    const url = requestUrl(req.url ?? '/');
    const ctx: Ctx = { req, res, url, query: url.searchParams, pretty: wantsPretty(req, url.searchParams), store: this.o.store, settings: this.o.settings };
    let protobufErrors = false;
    if (this.o.intercepts.some((intercept) => intercept(req, res))) return;
    try {
      if (['/healthz', '/livez', '/readyz'].includes(url.pathname)) return sendText(req, res, 200, 'ok');
      if (url.pathname !== '/version' && !this.authenticated(req)) throw unauthorized();
      if (serveDiscovery(ctx) || serveOpenApi(ctx)) return;
      const routed = route(url.pathname);
      if (!routed) {
        if (url.pathname.startsWith('/api')) throw pathNotFound();
        return sendText(req, res, 404, '404 page not found\n');
      }
      if (routed.watchPath) url.searchParams.set('watch', 'true');
      protobufErrors = routed.def.protobuf && prefersProtobuf(req.headers.accept);
      await serveResource(ctx, routed, this.o.writer);
    } catch (e) {
      if (e instanceof ApiError) sendError(req, res, e, ctx.pretty, protobufErrors);
      else sendInternal(req, res, e);
    }
  }

  private upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    this.record(req);
    const url = requestUrl(req.url ?? '/');
    let routed: ReturnType<typeof route>;
    try {
      routed = route(url.pathname);
    } catch {
      routed = undefined;
    }
    if (!this.authenticated(req)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const sub = routed?.subresource;
    const pod = routed && this.o.store.current('pods', routed.namespace ?? '', routed.name ?? '');
    if (!routed || !sub || !['exec', 'attach', 'portforward'].includes(sub) || !pod) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    handleUpgrade(req, socket, head, url);
  }
}

/** The request-target as Go's server reads it: a path even when it begins with `//`; one no URL parser takes is the path `/`-less junk it is. */
function requestUrl(target: string): URL {
  try {
    return target.startsWith('/') ? new URL(`http://fake${target}`) : new URL(target, 'http://fake');
  } catch {
    return new URL('http://fake/.invalid-request-target');
  }
}
