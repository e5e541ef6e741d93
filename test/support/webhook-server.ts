/**
 * An admission webhook server for tests: HTTPS on 127.0.0.1:0 with the certificate in
 * test/fixtures/webhook-tls (valid for 127.0.0.1, localhost, webhook.default.svc and
 * webhook.system.svc, signed by ca.crt). Each path answers with its handler's AdmissionReview
 * response (an AdmissionReview or ConversionReview, as asked); every review received is kept,
 * with the request's path and headers.
 */
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

type Obj = Record<string, any>;

const TLS = join(__dirname, '..', 'fixtures', 'webhook-tls');

/**
 * What a handler returns: the `response` (uid filled in when absent), a raw HTTP answer, or
 * `socket`: the handler drives the HTTP response itself (to hang, or close the connection).
 */
export type WebhookAnswer = Obj | { raw: { status: number; body: string; contentType?: string } } | { socket: (res: http.ServerResponse) => void };
export type WebhookHandler = (review: Obj) => WebhookAnswer | Promise<WebhookAnswer>;

export interface ReceivedReview {
  path: string;
  /** The request target, query included. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  review: Obj;
}

export interface WebhookServer {
  port: number;
  /** `https://127.0.0.1:PORT/path`. */
  url(path: string): string;
  /** ca.crt in base64, as a clientConfig's caBundle. */
  caBundle: string;
  received: ReceivedReview[];
  /** The reviews received on one path. */
  reviews(path: string): Obj[];
  handle(path: string, handler: WebhookHandler): void;
  close(): Promise<void>;
}

export const allow = (extra: Obj = {}): Obj => ({ allowed: true, ...extra });
export const deny = (status: Obj, extra: Obj = {}): Obj => ({ allowed: false, status, ...extra });
/** A JSON patch answer (base64, patchType JSONPatch). */
export const patchWith = (ops: Obj[], extra: Obj = {}): Obj => ({ allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64'), ...extra });

export async function startWebhookServer(): Promise<WebhookServer> {
  const handlers = new Map<string, WebhookHandler>();
  const received: ReceivedReview[] = [];
  const server = https.createServer({ cert: readFileSync(join(TLS, 'server.crt')), key: readFileSync(join(TLS, 'server.key')) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '/').split('?')[0]!;
      let review: Obj = {};
      try {
        review = JSON.parse(body);
      } catch {
        // kept as {}: the test looks at `body`
      }
      received.push({ path, url: req.url ?? '/', headers: { ...req.headers }, body, review });
      const handler = handlers.get(path);
      const answer = handler ? await handler(review) : { allowed: true };
      if ('socket' in answer && typeof answer.socket === 'function') {
        answer.socket(res);
        return;
      }
      if ('raw' in answer) {
        res.writeHead(answer.raw.status, { 'Content-Type': answer.raw.contentType ?? 'application/json' });
        res.end(answer.raw.body);
        return;
      }
      const response = { uid: review.request?.uid, ...answer };
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: review.apiVersion ?? 'admission.k8s.io/v1', kind: review.kind ?? 'AdmissionReview', response }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path) => `https://127.0.0.1:${port}${path}`,
    caBundle: readFileSync(join(TLS, 'ca.crt')).toString('base64'),
    received,
    reviews: (path) => received.filter((r) => r.path === path).map((r) => r.review),
    handle: (path, handler) => handlers.set(path, handler),
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** A webhook of a configuration calling `server` at `path`: ConfigMap creates, updates and deletes unless `extra` says otherwise. */
export function webhookFor(server: WebhookServer, name: string, path: string, extra: Obj = {}): Obj {
  return {
    name,
    clientConfig: { url: server.url(path), caBundle: server.caBundle },
    rules: [{ operations: ['CREATE', 'UPDATE', 'DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...extra,
  };
}

/** The body of a Validating- or MutatingWebhookConfiguration `name` with `webhooks`, and the path to POST it to. */
export function webhookConfiguration(kind: 'Validating' | 'Mutating', name: string, webhooks: Obj[]): { path: string; body: Obj } {
  return {
    path: `/apis/admissionregistration.k8s.io/v1/${kind.toLowerCase()}webhookconfigurations`,
    body: { apiVersion: 'admissionregistration.k8s.io/v1', kind: `${kind}WebhookConfiguration`, metadata: { name }, webhooks },
  };
}
