/**
 * The one place a serve request is dispatched: health, admin, discovery, then resource requests
 * (get / list / watch, and writes: src/serve/writes). Errors become the apiserver's Status bodies.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestInfo, requestTargetError } from '../k8s/request-info';
import { StatusError, resourceNotFound, statusFor } from '../k8s/status';
import type { Logger } from '../log/logger';
import type { AdminApi } from '../http/admin';
import { answerHealth } from '../http/health';
import type { StoredObject } from '../reconstruct';
import type { Store } from '../store/store';
import type { Discovery } from './discovery';
import type { ServeHooks } from './options';
import type { ReadContext } from './resolve-read';
import type { ResourceRequest } from './resource-request';
import { handleGet, handleList } from './resource-handlers';
import type { ServedResources } from './served-resources';
import { handleWatch } from './watch-handler';
import { sendStatusBody } from './response-body';
import { serveChange } from './serve-change';
import { handleCustomScale, handleScale, handleWrite, hasScale, hasStatusSubresource, podSubresourceHandler, type WriteDeps } from './writes';
import { answerAccessReview, isAccessReview } from './access-review';
import { answerSubjectAccessReview, isSubjectAccessReview } from './subject-access-review';
import { answerTokenRequest, isTokenRequest } from './token-request';
import { answerTokenReview, isTokenReview } from './token-review';
import { TokenSigner } from './token-signer';
import { handlePodLog } from './pod-log';

export interface DispatchDeps {
  store: Store<StoredObject>;
  resources: ServedResources;
  discovery: Discovery;
  admin: AdminApi;
  hooks: ServeHooks;
  log: Logger;
  tooLargeWaitMs: number;
  bookmarkIntervalMs: number;
  watchTimeoutMs: number;
  writes: WriteDeps;
  /** The key service account tokens are signed with (one per serve; made on the first TokenRequest). */
  signer?: TokenSigner;
}

/** Subresources answered like the object itself (`finalize`: a Namespace's, PUT only). */
const OBJECT_SUBRESOURCES = new Set(['', 'status', 'finalize']);

export function createDispatcher(deps: DispatchDeps): (req: IncomingMessage, res: ServerResponse) => void {
  // The key service account tokens are signed with, made on the first TokenRequest.
  const signer = deps.signer ?? new TokenSigner();
  return (req, res) => {
    if (refuseRequestTarget(req, res)) return;
    if (answerHealth(req, res)) return;
    if (deps.admin.handle(req, res)) return;
    dispatch(deps, signer, req, res).catch((err: unknown) => fail(deps, req, res, err));
  };
}

async function dispatch(deps: DispatchDeps, signer: TokenSigner, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const info = requestInfo(method, req.url ?? '/');
  if (deps.hooks.onRequest && (await deps.hooks.onRequest({ req, res, info }))) return;
  if (!info.isResourceRequest) {
    if (deps.discovery.handle(req, res)) return;
    throw resourceNotFound();
  }
  if (isAccessReview(info)) return answerAccessReview(req, res, info);
  if (isSubjectAccessReview(info)) return answerSubjectAccessReview(req, res, info);
  if (isTokenReview(info)) return answerTokenReview(req, res, deps.writes, signer);
  if (isTokenRequest(info)) return answerTokenRequest(req, res, info, deps.writes, signer);
  const resource = deps.resources.find(info.apiGroup, info.apiVersion, info.resource);
  if (!resource) {
    // Outside the built-in and recorded APIs the apiextensions handler answers: a resource no CRD serves gets the plain NotFound page.
    if (info.apiGroup && !deps.discovery.servesGroupVersion(info.apiGroup, info.apiVersion)) return sendPageNotFound(res);
    throw resourceNotFound();
  }
  // A namespaced resource is not served outside a namespace by name, a cluster-scoped one not inside one.
  if ((resource.namespaced && info.name && !info.namespace) || (!resource.namespaced && info.namespace)) throw resourceNotFound();
  const scale = info.subresource === 'scale' && hasScale(resource);
  const customScale = info.subresource === 'scale' && resource.custom?.scale !== undefined;
  const podSubresource = podSubresourceHandler(resource, info.subresource) ?? podLogHandler(resource, info);
  if ((!OBJECT_SUBRESOURCES.has(info.subresource) && !scale && !customScale && !podSubresource) || (info.subresource === 'finalize' && info.verb !== 'update')) throw resourceNotFound();
  if (info.subresource === 'status' && (resource.custom ? !resource.custom.status : !hasStatusSubresource(info.apiGroup, info.resource, !resource.info.unstructured))) throw resourceNotFound();
  const ctx: ResourceRequest = {
    req,
    res,
    info,
    resource,
    bookmarkIntervalMs: deps.bookmarkIntervalMs,
    watchTimeoutMs: deps.watchTimeoutMs,
    read: (continueStart?: string): ReadContext<StoredObject> => ({
      store: deps.store,
      resource: resource.store,
      waitMs: deps.tooLargeWaitMs,
      continueStart,
      anyRevision: deps.hooks.anyRevision ? (head) => deps.hooks.anyRevision!({ req, res, info }, head) : undefined,
      latestRevision: deps.hooks.latestRevision ? (head) => deps.hooks.latestRevision!({ req, res, info }, head) : undefined,
    }),
    watchGuard: (contentType) => deps.hooks.watchGuard?.({ req, res, info }, contentType),
    watchEvent: (change) => !deps.hooks.watchEvent || deps.hooks.watchEvent({ req, res, info }, serveChange(resource, change)),
  };
  if (customScale) return handleCustomScale(ctx, deps.writes);
  if (scale) return handleScale(ctx, deps.writes);
  if (podSubresource) return podSubresource(ctx, deps.writes);
  switch (info.verb) {
    case 'get':
      return handleGet(ctx);
    case 'list':
      return handleList(ctx);
    case 'watch':
      return handleWatch(ctx);
    default:
      return handleWrite(ctx, deps.writes);
  }
}

/** GET pods/NAME/log (serve's pods have no container to log, see pod-log.ts). */
function podLogHandler(resource: { info: { group: string; resource: string; unstructured?: boolean } }, info: { subresource: string; verb: string }) {
  if (resource.info.group !== '' || resource.info.resource !== 'pods' || resource.info.unstructured || info.subresource !== 'log') return undefined;
  return info.verb === 'get' ? handlePodLog : undefined;
}

function sendPageNotFound(res: ServerResponse): void {
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  res.end('404 page not found\n');
}

/**
 * A path Go's server cannot parse (a bad `%` escape, a control character) is answered before any
 * handler, as kube-apiserver's net/http does: `400 Bad Request` in plain text, connection closed.
 */
function refuseRequestTarget(req: IncomingMessage, res: ServerResponse): boolean {
  if (requestTargetError(req.url ?? '/') === undefined) return false;
  const body = '400 Bad Request';
  res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close', 'Content-Length': body.length });
  res.end(body);
  return true;
}

function fail(deps: DispatchDeps, req: IncomingMessage, res: ServerResponse, err: unknown): void {
  if (!(err instanceof StatusError)) deps.log.error({ err, url: req.url }, 'request failed');
  const status = err instanceof StatusError ? err : statusFor(500, `Internal error occurred: ${(err as Error).message}`);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendStatusBody(req, res, status);
}
