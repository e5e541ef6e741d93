import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Upstream } from './upstream';

/**
 * Sends one plain (not upgrade) request on to the upstream, as the client sent it: the same
 * method, the path as received (after the server URL's own path prefix, if any), the request's
 * raw header lines in their order and spelling, with `Host` naming the upstream and, in
 * kubeconfig mode, the kubeconfig's credentials instead of the client's. The body is streamed;
 * when the client goes away first, the upstream request is destroyed (a watch never outlives its
 * client).
 *
 * This is what http-proxy-3's `web()` does for a request, without its per-request option merging,
 * URL re-parsing and header object copies. Upgrades go through http-proxy-3's `ws()`.
 */
export function forwardRequest(
  req: IncomingMessage,
  res: ServerResponse,
  upstream: Upstream,
  onResponse: (upstreamRes: IncomingMessage) => void,
  onError: (err: Error) => void,
): void {
  const target = upstream.target;
  const headers = outgoingHeaders(req, upstream);
  const options: http.RequestOptions = {
    hostname: target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname,
    port: target.port || (target.protocol === 'https:' ? 443 : 80),
    method: req.method,
    path: upstreamPath(target, req.url ?? '/'),
    headers,
    agent: upstream.agent,
  };
  let upstreamReq: http.ClientRequest;
  try {
    upstreamReq = target.protocol === 'https:' ? https.request(options) : http.request(options);
  } catch (err) {
    // Node refuses to send it (a path with characters no request may carry): nothing went upstream.
    onError(Object.assign(err as Error, { notSent: true }));
    return;
  }
  upstreamReq.on('response', onResponse);
  const failed = (err: Error) => {
    upstreamReq.destroy();
    // The client's own connection reset: nobody is left to answer.
    if (req.socket?.destroyed && (err as NodeJS.ErrnoException).code === 'ECONNRESET') return;
    onError(err);
  };
  upstreamReq.on('error', failed);
  req.on('error', failed);
  res.on('close', () => {
    if (!res.writableFinished) upstreamReq.destroy();
  });
  req.pipe(upstreamReq);
}

/**
 * Header lines not passed on (lower case): Host (the upstream's is sent instead), Trailer and
 * Proxy-Connection. Connection and Keep-Alive are passed on, as http-proxy-3 passes them (the agent honours
 * a client's `Connection: close`).
 */
const NOT_FORWARDED = new Set(['host', 'trailer', 'proxy-connection']);

/**
 * Discovery documents (`/api`, `/api/v1`, `/apis`, `/apis/G`, `/apis/G/V`) are asked for whole:
 * a client's conditional headers (kubectl's discovery cache sends If-None-Match) would get a 304
 * and leave the recording without the document serve rebuilds discovery from. The client then
 * gets a 200 with the document instead of its 304.
 */
const CONDITIONAL = new Set(['if-none-match', 'if-modified-since']);
const DISCOVERY_PATH = /^\/(api(\/[^/?#]+)?|apis(\/[^/?#]+){0,2})\/?([?#]|$)/;

function isDiscoveryRequest(method: string | undefined, url: string): boolean {
  return (method === 'GET' || method === 'HEAD') && DISCOVERY_PATH.test(url);
}

/**
 * The client's header lines in order (`rawHeaders`: repeated headers such as `Impersonate-Group`
 * stay separate lines), `Host` set to the upstream's, no conditional headers on discovery; a DELETE or OPTIONS with no body framing
 * gets `Content-Length: 0`, as http-proxy-3 sends.
 */
function outgoingHeaders(req: IncomingMessage, upstream: Upstream): string[] {
  const raw = req.rawHeaders;
  const credentials = upstream.replacesCredentials ? upstream.authHeaders() : undefined;
  const out: string[] = ['Host', upstream.target.host];
  const discovery = isDiscoveryRequest(req.method, req.url ?? '/');
  let framed = false;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (NOT_FORWARDED.has(lower) || (discovery && CONDITIONAL.has(lower))) continue;
    if (credentials && (lower === 'authorization' || hasName(credentials, lower))) continue;
    if (lower === 'content-length' || lower === 'transfer-encoding') framed = true;
    out.push(name, raw[i + 1]!);
  }
  if (credentials) for (const name in credentials) out.push(name, credentials[name]!);
  if (!framed && (req.method === 'DELETE' || req.method === 'OPTIONS')) out.push('Content-Length', '0');
  return out;
}

function hasName(headers: Record<string, string>, lower: string): boolean {
  for (const name in headers) if (name.toLowerCase() === lower) return true;
  return false;
}

/** The request's path after the server URL's path prefix (`https://host/k8s/clusters/c-1` + `/api/v1/pods`). */
export function upstreamPath(target: URL, url: string): string {
  const prefix = target.pathname;
  if (prefix === '/' || prefix === '') return url;
  return prefix.endsWith('/') && url.startsWith('/') ? prefix + url.slice(1) : prefix + url;
}
