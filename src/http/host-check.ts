/**
 * Which `Host` a mode answers, as `kubectl proxy --accept-hosts` decides it: a web page that made
 * its own domain name resolve to 127.0.0.1 (DNS rebinding) sends that name as `Host`, and is
 * refused before the request reaches the mode (in record mode, before any cluster credential is
 * added to it). Accepted by default: the loopback names (`localhost`, `127.x.x.x`, `[::1]`) and the
 * listen address (a wildcard listen address: this machine's interface addresses), any port.
 */
import type { IncomingMessage } from 'node:http';
import { networkInterfaces } from 'node:os';
import { UsageError } from '../errors/usage-error';
import { StatusError, failure } from '../k8s/status';

/** `kubectl proxy`'s default `--accept-hosts`: what is accepted without the flag (and more: the listen address). */
export const KUBECTL_PROXY_ACCEPT_HOSTS = '^localhost$,^127\\.0\\.0\\.1$,^\\[::1\\]$';

const WILDCARD_HOSTS = new Set(['', '0.0.0.0', '::', '[::]']);

/** How many accepted Host values HostCheck remembers before it starts again. */
const ACCEPTED_SEEN = 64;

export class HostCheck {
  private readonly exact: Set<string>;

  /**
   * @param listenHost the host the server listens on (`127.0.0.1`, `::1`, `0.0.0.0` …)
   * @param acceptHosts regular expressions a Host (without its port) may match besides the defaults
   */
  constructor(listenHost: string, private readonly acceptHosts: readonly RegExp[] = []) {
    const listen = listenHost.replace(/^\[(.*)\]$/, '$1').toLowerCase();
    const hosts = WILDCARD_HOSTS.has(listen) ? interfaceAddresses() : [listen];
    this.exact = new Set(['localhost', '::1', ...hosts]);
  }

  /** Host header values accepted so far (a client sends the same one with every request); at most ACCEPTED_SEEN. */
  private readonly accepted = new Set<string>();

  /** Whether a request with this `Host` header is answered. No header (HTTP/1.0) is: no browser sends one. */
  accepts(hostHeader: string | undefined): boolean {
    if (hostHeader === undefined || this.accepted.has(hostHeader)) return true;
    if (!this.decide(hostHeader)) return false;
    if (this.accepted.size >= ACCEPTED_SEEN) this.accepted.clear();
    this.accepted.add(hostHeader);
    return true;
  }

  private decide(hostHeader: string): boolean {
    const host = hostWithoutPort(hostHeader.trim().toLowerCase());
    if (host === undefined) return false;
    const bare = host.replace(/^\[(.*)\]$/, '$1');
    if (this.exact.has(bare) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare)) return true;
    return this.acceptHosts.some((re) => re.test(host) || re.test(bare));
  }

  /** The 403 for a request whose Host is not accepted, or undefined when it is. */
  refusal(req: IncomingMessage): StatusError | undefined {
    const host = req.headers.host;
    if (this.accepts(host)) return undefined;
    return new StatusError(
      failure(403, 'Forbidden', `kubetape: Host ${JSON.stringify(host)} is not accepted: only the listen address and loopback names are (widen with --accept-hosts REGEX)`),
    );
  }
}

/**
 * `--accept-hosts`: comma-separated regular expressions, as `kubectl proxy` takes them, matched
 * against the Host without its port. A bad expression is a UsageError.
 */
export function parseAcceptHosts(value: string | readonly string[] | undefined): RegExp[] {
  if (value === undefined) return [];
  const patterns = (typeof value === 'string' ? [value] : value).flatMap((v) => v.split(',')).map((p) => p.trim()).filter(Boolean);
  return patterns.map((pattern) => {
    try {
      return new RegExp(pattern, 'i');
    } catch (err) {
      throw new UsageError(`--accept-hosts: ${(err as Error).message}`);
    }
  });
}

/**
 * Why a cross-site request is refused, or undefined: an `Origin` header, when a browser sent
 * one, must be this server's own (`http://` + the Host the request was sent to).
 */
export function foreignOrigin(req: IncomingMessage): StatusError | undefined {
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  const own = req.headers.host ? `http://${req.headers.host.toLowerCase()}` : undefined;
  if (own !== undefined && origin.toLowerCase() === own) return undefined;
  return new StatusError(failure(403, 'Forbidden', `kubetape: the admin API refuses requests from another origin (Origin ${JSON.stringify(origin)})`));
}

/** `localhost:8001` → `localhost`, `[::1]:8001` → `[::1]`, `localhost` → `localhost`; undefined when it is not a host. */
function hostWithoutPort(value: string): string | undefined {
  const m = /^(\[[0-9a-f:.%a-z]+\]|[^:[\]]*)(?::(\d*))?$/.exec(value);
  return m && m[1] !== '' ? m[1] : undefined;
}

function interfaceAddresses(): string[] {
  const out: string[] = [];
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) out.push(a.address.toLowerCase());
  return out;
}
