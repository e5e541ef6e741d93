/**
 * What stands between the HTTP server and a mode's handlers, in every mode: the Host check
 * (host-check.ts), and containment — a handler that throws answers its own request with a 500
 * Status (or closes it, once a response has begun) and is logged; the server keeps going.
 */
import { STATUS_CODES, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { StatusError, statusFor } from '../k8s/status';
import type { Logger } from '../log/logger';
import type { HostCheck } from './host-check';
import { sendStatus, statusResponse } from './respond';

export interface GuardedHandlers {
  request: RequestListener;
  /** Present when the mode takes upgrades (without, Node answers an upgrade request as a plain one). */
  upgrade?(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

export function guardHandlers(
  mode: { request: RequestListener; upgrade?(req: IncomingMessage, socket: Duplex, head: Buffer): void },
  hosts: HostCheck,
  log: Logger,
): GuardedHandlers {
  const upgrade = mode.upgrade?.bind(mode);
  return {
    request(req: IncomingMessage, res: ServerResponse) {
      const refused = hosts.refusal(req);
      if (refused) {
        log.warn({ method: req.method, url: req.url, host: req.headers.host, remote: req.socket.remoteAddress }, 'refused: Host not accepted');
        sendStatus(res, refused);
        return;
      }
      try {
        mode.request(req, res);
      } catch (err) {
        log.error({ err, method: req.method, url: req.url }, 'request failed');
        if (res.headersSent) res.destroy();
        else sendStatus(res, internal(err));
      }
    },
    upgrade: upgrade && ((req: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', (err) => log.debug({ err: err.message, url: req.url }, 'upgrade socket error'));
      const refused = hosts.refusal(req);
      if (refused) {
        log.warn({ method: req.method, url: req.url, host: req.headers.host, remote: req.socket.remoteAddress }, 'refused: Host not accepted');
        endSocket(socket, refused);
        return;
      }
      try {
        upgrade(req, socket, head);
      } catch (err) {
        log.error({ err, method: req.method, url: req.url }, 'upgrade failed');
        endSocket(socket, internal(err));
      }
    }),
  };
}

function internal(err: unknown): StatusError {
  return err instanceof StatusError ? err : statusFor(500, (err as Error)?.message ?? String(err));
}

/** Answers an upgrade request that will not be upgraded with a plain HTTP response, then closes the connection. */
export function endSocket(socket: Duplex, err: StatusError): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { code, rawHeaders, body } = statusResponse(err);
  let head = `HTTP/1.1 ${code} ${STATUS_CODES[code] ?? ''}\r\n`;
  for (let i = 0; i < rawHeaders.length; i += 2) head += `${rawHeaders[i]}: ${rawHeaders[i + 1]}\r\n`;
  socket.end(Buffer.concat([Buffer.from(`${head}Connection: close\r\n\r\n`), body]));
}
