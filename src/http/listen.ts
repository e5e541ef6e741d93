import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../errors/usage-error';

export interface ListenAddress {
  host: string;
  port: number;
}

export const DEFAULT_LISTEN = '127.0.0.1:8001';

/** Parses `HOST:PORT`, `:PORT`, `PORT` or `[::1]:PORT`; port 0 picks a free port. A bad value is a UsageError (one line, exit 2). */
export function parseListen(value: string = DEFAULT_LISTEN): ListenAddress {
  const m = /^(?:\[([^\]]+)\]|([^:]*))?:?(\d+)$/.exec(value.trim());
  if (!m) throw new UsageError(`--listen: expected HOST:PORT, got "${value}"`);
  const port = Number(m[3]);
  if (port > 65535) throw new UsageError(`--listen: port ${port} is out of range`);
  return { host: m[1] ?? (m[2] || '127.0.0.1'), port };
}

/** Starts `server` on the address and resolves with the URL clients should use. */
export function listen(server: Server, address: ListenAddress): Promise<string> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(address.port, address.host, () => {
      server.off('error', onError);
      resolve(serverUrl(server));
    });
  });
}

export function serverUrl(server: Server): string {
  const a = server.address() as AddressInfo;
  const host = a.family === 'IPv6' || a.address.includes(':') ? `[${a.address}]` : a.address;
  return `http://${host}:${a.port}`;
}

/** Closes the server and every open connection (watches included). */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections?.();
  });
}
