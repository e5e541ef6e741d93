import { STATUS_CODES, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex, Readable } from 'node:stream';
import { createProxyServer, type ProxyServer, type ServerOptions } from 'http-proxy-3';
import { stream as wsStream } from 'http-proxy-3/dist/lib/http-proxy/passes/ws-incoming';
import { requestInfo, type RequestInfo } from '../k8s/request-info';
import { statusResponse } from '../http/respond';
import { badRequest, serviceUnavailable, type StatusError } from '../k8s/status';
import type { Logger } from '../log/logger';
import type { RecordingQueue } from '../recording/writer/recording-queue';
import { ExchangeTap } from './exchange-tap';
import { forwardRequest } from './forward';
import { isStreamedResponse } from './streamed';
import type { Upstream } from './upstream';

/** Response headers that belong to one hop; Node sets its own. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'te', 'trailer', 'upgrade']);

/** A fault adapter as the passthrough calls it (record mode's: src/record/record-faults.ts). */
export interface PassthroughFaults {
  /** The faults acting on one request; undefined when none do. */
  forRequest(req: IncomingMessage, info: RequestInfo): ExchangeFaults | undefined;
}

/** The faults acting on one request. */
export interface ExchangeFaults {
  /** Before forwarding: true when the faults took the request over (answered it, or call `forward()` later). */
  takeOver(req: IncomingMessage, res: ServerResponse, tap: ExchangeTap, forward: () => void): boolean;
  /** The body to relay for a streamed response: the upstream's, or its frames as the faults let them through. */
  body(upstreamRes: IncomingMessage, res: ServerResponse, tap: ExchangeTap): Readable;
}

/** One plain request's recording, request info and faults. */
interface Exchange {
  tap: ExchangeTap;
  info: RequestInfo;
  faults?: ExchangeFaults;
}

/** On a client connection: how many of its responses are open. */
const OPEN = Symbol('kubetape.openResponses');
type TrackedSocket = Socket & { [OPEN]?: number };

const CLIENT_BLOCKED = 1;
const RECORDER_BLOCKED = 2;

/**
 * Passes every request through to the upstream, unchanged except for Host and the credentials
 * (plain requests: `forwardRequest`; upgrades — exec, attach, port-forward over WebSocket and
 * SPDY — with http-proxy-3), and tees it into the recording: request body, response head and
 * body (written to the client chunk by chunk as it arrives), upgrades noted without their payload.
 */
export class Passthrough {
  private readonly proxy: ProxyServer;
  /** Upgrades in progress, for http-proxy-3's `proxyReqWs` event, which names only the request. */
  private readonly upgrades = new WeakMap<IncomingMessage, { tap: ExchangeTap; socket: Duplex }>();
  /** Upgraded connections leave the HTTP server's bookkeeping; closing the proxy ends them here. */
  private readonly upgraded = new Set<Duplex>();
  private closing = false;
  /**
   * Client connections that have carried a request; each counts its responses not yet closed
   * (`OPEN`), so that shutting down can end them. Kept per connection, not per response: a
   * long-lived collection that every request enters and leaves keeps each request's objects alive
   * long enough for V8 to promote them to the old generation.
   */
  private readonly connections = new Set<TrackedSocket>();
  private open = 0;
  private drained: (() => void) | undefined;

  constructor(private readonly upstream: Upstream, private readonly queue: RecordingQueue, private readonly log: Logger, private readonly faults?: PassthroughFaults) {
    this.proxy = createProxyServer({ changeOrigin: true, xfwd: false });
    this.proxy.on('proxyReqWs', (proxyReq, req) => this.watchUpgrade(proxyReq, req));
    // Client sockets that fail during an upgrade land here; the tap records the outcome on close.
    this.proxy.on('error', (err, req) => this.log.debug({ err: err.message, url: req?.url }, 'proxy socket error'));
    // http-proxy-3 only upgrades `GET … Upgrade: websocket`; kubectl's exec/port-forward also use `POST … Upgrade: SPDY/3.1`.
    this.proxy.before('ws', 'checkMethodAndHeader', (req, socket, options, head, server, cb) => {
      wsStream(req, socket, options, head, server, cb);
      return true;
    });
  }

  web(req: IncomingMessage, res: ServerResponse): void {
    const info = requestInfo(req.method ?? 'GET', req.url ?? '/');
    const tap = new ExchangeTap(this.queue, req);
    const faults = this.faults?.forRequest(req, info);
    const exchange: Exchange = { tap, info, faults };
    if (faults && faults.takeOver(req, res, tap, () => this.forward(req, res, exchange))) return;
    this.forward(req, res, exchange);
  }

  private forward(req: IncomingMessage, res: ServerResponse, exchange: Exchange): void {
    const { tap } = exchange;
    const relay = (upstreamRes: IncomingMessage) => this.relay(upstreamRes, res, exchange);
    forwardRequest(req, res, this.upstream, relay, (err) => this.failed(err, req, res, tap));
    req.on('data', (chunk: Buffer) => tap.requestData(chunk));
    const connection = this.opened(res.socket ?? req.socket);
    res.on('close', () => {
      if (res.writableFinished) tap.finish('complete');
      else tap.finish('aborted', this.closing ? 'the recorder shut down' : 'client disconnected');
      if (connection) connection[OPEN]!--;
      if (--this.open === 0) this.drained?.();
    });
  }

  /** Counts a response open on `socket`; the first time the connection is seen, it is tracked until it closes. */
  private opened(socket: Socket | null): TrackedSocket | null {
    this.open++;
    if (!socket) return null;
    const connection = socket as TrackedSocket;
    if (connection[OPEN] === undefined) {
      connection[OPEN] = 0;
      this.connections.add(connection);
      connection.once('close', () => this.connections.delete(connection));
    }
    connection[OPEN]++;
    return connection;
  }

  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const tap = new ExchangeTap(this.queue, req);
    this.upgrades.set(req, { tap, socket });
    this.upgraded.add(socket);
    socket.on('close', () => {
      this.upgraded.delete(socket);
      if (this.closing) tap.finish('aborted', 'the recorder shut down');
      else tap.finish('complete');
    });
    // Clients do not half-close exec/attach/port-forward streams: their FIN ends the session, both ways
    // (the HTTP server's sockets allow half-open connections, which would otherwise linger).
    socket.on('end', () => socket.destroy());
    try {
      this.proxy.ws(req, socket, head, this.upgradeOptions(req), (err) => this.refuseUpgrade(socket, tap, this.unavailable(err)));
    } catch (err) {
      // http-proxy-3 cannot make an upstream request of it (a target no URL parser takes): nothing went upstream.
      this.refuseUpgrade(socket, tap, badRequest(`kubetape cannot forward this request: ${(err as Error).message}`));
      socket.end();
    }
  }

  /** Answers an upgrade that did not reach the upstream with a Status, recorded as its response. */
  private refuseUpgrade(socket: Duplex, tap: ExchangeTap, status: StatusError): void {
    tap.fail('error', status.message);
    if (tap.responded || !(socket as { writable?: boolean }).writable) return;
    const { rawHeaders, body } = statusResponse(status);
    tap.response(status.code, rawHeaders, { streamed: false });
    tap.responseData(body);
    let head = `HTTP/1.1 ${status.code} ${STATUS_CODES[status.code]}\r\n`;
    for (let i = 0; i < rawHeaders.length; i += 2) head += `${rawHeaders[i]}: ${rawHeaders[i + 1]}\r\n`;
    socket.write(`${head}Connection: close\r\n\r\n`);
    socket.write(body);
  }

  /** Shutting down: exchanges still open (watches, upgrades) end as aborted by the recorder; resolves once each has recorded its end. */
  shutdown(): Promise<void> {
    this.closing = true;
    for (const socket of this.upgraded) socket.destroy();
    const done = this.open === 0 ? Promise.resolve() : new Promise<void>((resolve) => (this.drained = resolve));
    for (const connection of this.connections) if (connection[OPEN]! > 0) connection.destroy(); // its responses close with it
    return done;
  }

  /** For an upgrade: the kubeconfig's credentials replace the client's on the request's own headers, which http-proxy-3 sends. */
  private upgradeOptions(req: IncomingMessage): ServerOptions {
    if (this.upstream.replacesCredentials) {
      delete req.headers.authorization; // replaced, never forwarded
      for (const [name, value] of Object.entries(this.upstream.authHeaders())) req.headers[name.toLowerCase()] = value;
    }
    return { target: this.upstream.target, agent: this.upstream.upgradeAgent };
  }

  private relay(proxyRes: IncomingMessage, res: ServerResponse, { tap, info, faults }: Exchange): void {
    const status = proxyRes.statusCode ?? 502;
    const streamed = isStreamedResponse(info, status, proxyRes.headers);
    tap.response(status, proxyRes.rawHeaders, { streamed });
    if (res.destroyed) {
      proxyRes.destroy();
      return;
    }
    res.writeHead(status, proxyRes.statusMessage, endToEndHeaders(proxyRes.rawHeaders));
    if (streamed) res.flushHeaders(); // a watch client waits for the head before any event arrives

    const body = streamed && faults ? faults.body(proxyRes, res, tap) : proxyRes;
    let blocked = 0;
    const unblock = (bit: number) => () => {
      blocked &= ~bit;
      if (blocked === 0 && !proxyRes.destroyed) body.resume();
    };
    const clientBehind = () => {
      if (blocked & CLIENT_BLOCKED) return;
      blocked |= CLIENT_BLOCKED;
      res.once('drain', unblock(CLIENT_BLOCKED));
      body.pause();
    };
    let reading = false;
    body.on('data', (chunk: Buffer) => {
      tap.responseData(chunk);
      if (streamed) {
        // The chunks one socket read delivers (an apiserver sends each watch event as a chunk of its
        // own) come synchronously: once the read is handled they are one frame in the recording and
        // one write to the client, each still a chunk of its own.
        if (!reading) {
          reading = true;
          res.cork();
          queueMicrotask(() => {
            reading = false;
            tap.arrived();
            res.uncork();
            if (res.writableNeedDrain) clientBehind();
          });
        }
        res.write(chunk);
      } else if (!res.write(chunk)) {
        clientBehind();
      }
      if (this.queue.full && !(blocked & RECORDER_BLOCKED)) {
        blocked |= RECORDER_BLOCKED;
        this.queue.whenDrained(unblock(RECORDER_BLOCKED));
        body.pause();
      }
    });
    body.on('end', () => res.end());
    proxyRes.on('error', (err) => tap.fail('reset', `upstream: ${err.message}`));
    proxyRes.on('close', () => {
      if (!proxyRes.complete) {
        tap.fail('reset', 'upstream closed the response before it was complete');
        res.destroy();
      }
    });
  }

  /** Records the response head of an upgrade (101), or the plain response the upstream sent instead. */
  private watchUpgrade(proxyReq: ClientRequest, req: IncomingMessage): void {
    const entry = this.upgrades.get(req);
    if (!entry) return;
    const { tap } = entry;
    proxyReq.on('upgrade', (proxyRes: IncomingMessage, proxySocket: Duplex) => {
      tap.response(proxyRes.statusCode ?? 101, proxyRes.rawHeaders, { streamed: false, upgrade: true });
      proxySocket.on('end', () => proxySocket.destroy()); // the upstream's FIN ends the session too
      const client = entry.socket as Socket | undefined;
      client?.once('close', () => proxySocket.destroy());
      // Once the upstream is gone, the client's side ends when what was relayed is flushed (unpiped,
      // the client socket would otherwise stop reading and never see the client's own FIN).
      proxySocket.once('close', () => client?.destroySoon());
    });
    proxyReq.on('response', (proxyRes: IncomingMessage) => {
      tap.response(proxyRes.statusCode ?? 502, proxyRes.rawHeaders, { streamed: false });
      proxyRes.on('data', (chunk: Buffer) => tap.responseData(chunk));
    });
  }

  /** The upstream could not be reached (refused, DNS, TLS): 503 with a Status naming the cause. */
  private failed(err: Error, req: IncomingMessage, res: ServerResponse, tap: ExchangeTap): void {
    const status = (err as { notSent?: boolean }).notSent ? badRequest(`kubetape cannot forward this request: ${err.message}`) : this.unavailable(err);
    tap.fail('error', status.message);
    if (res.headersSent || res.destroyed) {
      res.destroy();
      return;
    }
    const { rawHeaders, body } = statusResponse(status);
    tap.response(status.code, rawHeaders, { streamed: false });
    tap.responseData(body);
    res.writeHead(status.code, rawHeaders);
    res.end(body);
    this.log.warn({ method: req.method, url: req.url, err: status.message }, status.code === 503 ? 'upstream unavailable' : 'not forwarded');
  }

  private unavailable(err: Error) {
    const code = (err as NodeJS.ErrnoException).code;
    const cause = code && !err.message.includes(code) ? `${err.message} (${code})` : err.message;
    return serviceUnavailable(`kubetape: the upstream ${this.upstream.target.origin} is unavailable: ${cause}`);
  }
}

function endToEndHeaders(raw: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (!HOP_BY_HOP.has(raw[i]!.toLowerCase())) out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}
