/**
 * One POST of a review (an AdmissionReview, a ConversionReview) to a webhook, as the apiserver's webhook client makes it: the
 * configured `url`, or a `service` reached through its Endpoints (the apiserver's endpoint
 * routing; the TLS name is `NAME.NAMESPACE.svc`), the `caBundle` as the only trusted roots when
 * given, `?timeout=Ns` on the path, the call cancelled after `timeoutSeconds`. Errors carry the
 * text Go's HTTP client would put after `failed to call webhook: `.
 */
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { FIND_KIND_TYPE, reviewDecodeError } from '../../k8s/admission-review';
import { goJsonSyntaxError } from '../../k8s/go-json';

type Obj = Record<string, any>;

/** Where a webhook is called: the URL printed in errors and what to dial. */
export interface WebhookTarget {
  url: string;
  host: string;
  port: number;
  path: string;
  tls: boolean;
  /** TLS server name (the URL's host, or the service's DNS name). */
  servername: string;
}

/** Where a call failed, as the apiserver words it before the cause. */
export type CallStage = 'could not create admission objects' | 'could not get REST client' | 'failed to call webhook';

/** A failed call: `${stage}: ${reason}` follows `failed calling webhook "NAME": `. */
export class WebhookCallError extends Error {
  constructor(readonly reason: string, readonly stage: CallStage = 'failed to call webhook') {
    super(`${stage}: ${reason}`);
  }
}

/** Reads a Service and its Endpoints (namespace, name) for a `service` client config. */
export type ServiceLookup = (kind: 'services' | 'endpoints', namespace: string, name: string) => Obj | undefined;

/** The target of a webhook's clientConfig, with `?timeout=` for `timeoutSeconds`. */
export function webhookTarget(clientConfig: Obj, timeoutSeconds: number, lookup: ServiceLookup): WebhookTarget {
  const query = `?timeout=${timeoutSeconds}s`;
  if (typeof clientConfig?.url === 'string') {
    let parsed: URL;
    try {
      parsed = new URL(clientConfig.url);
    } catch {
      throw new WebhookCallError(`parse ${JSON.stringify(clientConfig.url)}: invalid URL`, 'could not get REST client');
    }
    const tls = parsed.protocol === 'https:';
    const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
    const path = `${parsed.pathname || '/'}${query}`;
    return { url: `${parsed.protocol}//${parsed.host}${path}`, host, port: Number(parsed.port) || (tls ? 443 : 80), path, tls, servername: host };
  }
  const service = clientConfig?.service ?? {};
  const namespace = String(service.namespace ?? '');
  const name = String(service.name ?? '');
  const port = typeof service.port === 'number' ? service.port : 443;
  const svc = lookup('services', namespace, name);
  if (!svc) throw new WebhookCallError(`service "${name}" not found`, 'could not get REST client');
  const type = svc.spec?.type ?? 'ClusterIP';
  if (type !== 'ClusterIP' && type !== 'LoadBalancer' && type !== 'NodePort') throw new WebhookCallError(`unsupported service type ${JSON.stringify(type)}`, 'could not get REST client');
  const svcPort = (Array.isArray(svc.spec?.ports) ? svc.spec.ports : []).find((p: Obj) => p?.port === port);
  if (!svcPort) throw new WebhookCallError(`no service port ${port} found for service ${JSON.stringify(name)}`, 'could not get REST client');
  const endpoints = lookup('endpoints', namespace, name);
  if (!endpoints) throw new WebhookCallError(`endpoints "${name}" not found`, 'could not get REST client');
  const portName = svcPort.name ?? '';
  for (const subset of Array.isArray(endpoints.subsets) ? endpoints.subsets : []) {
    const address = Array.isArray(subset?.addresses) ? subset.addresses[0] : undefined;
    if (!address?.ip) continue;
    const epPort = (Array.isArray(subset.ports) ? subset.ports : []).find((p: Obj) => (p?.name ?? '') === portName);
    if (!epPort) continue;
    const servicePath = typeof service.path === 'string' && service.path ? service.path : '/';
    const dnsName = `${name}.${namespace}.svc`;
    return { url: `https://${dnsName}:${port}${servicePath}${query}`, host: address.ip, port: epPort.port, path: `${servicePath}${query}`, tls: true, servername: dnsName };
  }
  throw new WebhookCallError(`no endpoints available for service ${JSON.stringify(name)}`, 'could not get REST client');
}

/**
 * POSTs `body` and resolves with the decoded JSON answer of a 2xx response. Connections are kept
 * alive between calls, as the apiserver's webhook clients keep theirs; a kept connection the
 * webhook closed meanwhile is replaced once. `decodeError`: why the answer's JSON does not decode
 * into the review type (AdmissionReview unless told).
 */
export async function callWebhook(target: WebhookTarget, body: string, caBundle: string | undefined, timeoutMs: number, decodeError: (answer: unknown) => string | undefined = reviewDecodeError): Promise<unknown> {
  if (caBundle && target.tls) checkRootCertificates(caBundle);
  const answer = await postOnce(target, body, caBundle, timeoutMs, true, decodeError);
  return answer === STALE_CONNECTION ? postOnce(target, body, caBundle, timeoutMs, false, decodeError) : answer;
}

/**
 * client-go's check of the CA data (rootCertPool): PEM with at least one CERTIFICATE block, else
 * its error, which the webhook client reports as `could not get REST client: …`.
 */
function checkRootCertificates(caBundle: string): void {
  const pem = Buffer.from(caBundle, 'base64').toString('utf8');
  const fail = (reason: string) => new WebhookCallError(`unable to load root certificates: ${reason}`, 'could not get REST client');
  if (!/-----BEGIN [^-]+-----/.test(pem)) throw fail('unable to parse bytes as PEM block');
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw fail('no valid certificate authority data seen');
}

/** Idle sockets of these agents do not keep the process alive (Node unrefs them). */
const KEPT_HTTPS = new https.Agent({ keepAlive: true, maxSockets: 32 });
const KEPT_HTTP = new http.Agent({ keepAlive: true, maxSockets: 32 });
const STALE_CONNECTION = Symbol('stale kept-alive connection');

function postOnce(target: WebhookTarget, body: string, caBundle: string | undefined, timeoutMs: number, reuse: boolean, decodeError: (answer: unknown) => string | undefined): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const post = `Post ${JSON.stringify(target.url)}`;
    const options: https.RequestOptions = {
      host: target.host,
      port: target.port,
      path: target.path,
      method: 'POST',
      agent: reuse ? (target.tls ? KEPT_HTTPS : KEPT_HTTP) : false,
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, */*',
        'User-Agent': 'kube-apiserver-admission',
        'Content-Length': Buffer.byteLength(body),
      },
    };
    if (target.tls) {
      options.servername = isIp(target.servername) ? undefined : target.servername;
      options.checkServerIdentity = (_host, cert) => tls.checkServerIdentity(target.servername, cert);
      if (caBundle) options.ca = Buffer.from(caBundle, 'base64').toString('utf8');
    }
    let settled = false;
    const done = (err: Error | undefined, value?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(value);
    };
    let answered = false;
    const req = (target.tls ? https : http).request(options, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_RESPONSE_BYTES) chunks.push(c);
        else {
          done(new WebhookCallError(`${post}: the webhook's response is larger than ${MAX_RESPONSE_BYTES} bytes`));
          req.destroy();
        }
      });
      // client-go's text when the body cannot be read to its end (Go's io.ErrUnexpectedEOF for a closed connection).
      const unreadable = () => done(new WebhookCallError('Unexpected error when reading response body. Please retry. Original error: unexpected EOF'));
      res.on('error', unreadable);
      res.on('aborted', unreadable);
      res.on('end', () => {
        const code = res.statusCode ?? 0;
        const contentType = String(res.headers['content-type'] ?? '');
        const data = Buffer.concat(chunks);
        if (code < 200 || code > 299) return done(new WebhookCallError(unsuccessful(code, data.toString('utf8'), contentType)));
        if (data.length === 0) return done(new WebhookCallError(`0-length response with status code: ${code} and content type: ${contentType}`));
        let answer: unknown;
        try {
          answer = JSON.parse(data.toString('utf8'));
        } catch {
          return done(new WebhookCallError(`couldn't get version/kind; json parse error: ${undecodable(data)}`));
        }
        const undecoded = decodeError(answer);
        if (undecoded !== undefined) done(new WebhookCallError(undecoded));
        else done(undefined, answer);
      });
    });
    const timer = setTimeout(() => {
      done(new WebhookCallError(`${post}: context deadline exceeded`));
      req.destroy();
    }, timeoutMs);
    req.on('error', (err) => {
      const code = (err as NodeJS.ErrnoException).code;
      if (reuse && req.reusedSocket && !answered && (code === 'ECONNRESET' || code === 'EPIPE')) return done(undefined, STALE_CONNECTION);
      done(new WebhookCallError(`${post}: ${goNetError(err as NodeJS.ErrnoException, target)}`));
    });
    req.end(body);
  });
}

/** The most of an answer read (client-go reads any size; serve stops here rather than run out of memory). */
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/**
 * Why the apiserver's decoder refuses an answer that JSON.parse refused: Go's syntax error for a
 * body that starts with `{` (the JSON serializer), else what the YAML serializer's JSON leaves
 * for the apiVersion/kind probe (a YAML scalar or list is no object).
 */
function undecodable(data: Buffer): string {
  const text = data.toString('utf8');
  if (text.trimStart().startsWith('{')) return goJsonSyntaxError(data) ?? 'unexpected end of JSON input';
  const kind = text.trimStart().startsWith('[') || text.trimStart().startsWith('- ') ? 'array' : 'string';
  return `json: cannot unmarshal ${kind} into Go value of type ${FIND_KIND_TYPE}`;
}

const isIp = (host: string): boolean => /^[\d.]+$/.test(host) || host.includes(':');

/** Go's net/http and crypto/x509 texts for the common failures. */
function goNetError(err: NodeJS.ErrnoException & { cert?: { subjectaltname?: string } }, target: WebhookTarget): string {
  const addr = target.host.includes(':') ? `[${target.host}]:${target.port}` : `${target.host}:${target.port}`;
  switch (err.code) {
    case 'ECONNREFUSED': return `dial tcp ${addr}: connect: connection refused`;
    case 'ECONNRESET': return 'EOF';
    case 'ENOTFOUND':
    case 'EAI_AGAIN': return `dial tcp: lookup ${target.host}: no such host`;
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'UNABLE_TO_GET_ISSUER_CERT': return 'x509: certificate signed by unknown authority';
    case 'CERT_HAS_EXPIRED':
    case 'CERT_NOT_YET_VALID': return 'x509: certificate has expired or is not yet valid';
    case 'ERR_TLS_CERT_ALTNAME_INVALID': {
      const names = (err.cert?.subjectaltname ?? '').split(', ').map((n) => n.replace(/^(DNS|IP Address):/, '')).filter(Boolean);
      return names.length > 0 ? `x509: certificate is valid for ${names.join(', ')}, not ${target.servername}` : `x509: certificate is not valid for any names, but wanted to match ${target.servername}`;
    }
    default: return err.message;
  }
}

/** client-go's error for a non-2xx answer: a failure Status's message, else the generic text per code. */
function unsuccessful(code: number, text: string, contentType: string): string {
  try {
    const status = JSON.parse(text);
    if (status && status.kind === 'Status' && status.status === 'Failure' && typeof status.message === 'string') return status.message;
  } catch {
    // not a Status
  }
  const body = text.length > 2048 ? text.slice(0, 2048) : text;
  const serverMessage = contentType.startsWith('text/') ? body.trim() : 'unknown';
  switch (code) {
    case 400: return 'the server rejected our request for an unknown reason';
    case 401: return 'Unauthorized';
    case 403: return serverMessage;
    case 404: return 'the server could not find the requested resource';
    case 405: return 'the server does not allow this method on the requested resource';
    case 429: return 'the server has received too many requests and has asked us to try again later';
    case 503: return 'the server is currently unable to handle the request';
    case 504: return 'the server was unable to return a response in the time allotted, but may still be processing the request';
  }
  if (code >= 500) return `an error on the server (${JSON.stringify(serverMessage)}) has prevented the request from succeeding`;
  return `the server responded with the status code ${code} but did not return more information`;
}
