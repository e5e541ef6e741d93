/**
 * The one place a serve request is dispatched: health, admin, discovery, then resource requests
 * (get / list / watch, and writes: src/serve/writes). Errors become the apiserver's Status bodies.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestInfo } from '../k8s/request-info';
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
import { handleWrite, type WriteDeps } from './writes';
import { answerAccessReview, isAccessReview } from './access-review';

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
}

/** Subresources answered like the object itself. */
const OBJECT_SUBRESOURCES = new Set(['', 'status']);

export function createDispatcher(deps: DispatchDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (answerHealth(req, res)) return;
    if (deps.admin.handle(req, res)) return;
    dispatch(deps, req, res).catch((err: unknown) => fail(deps, req, res, err));
  };
}

async function dispatch(deps: DispatchDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const info = requestInfo(method, req.url ?? '/');
  if (deps.hooks.onRequest && (await deps.hooks.onRequest({ req, res, info }))) return;
  if (!info.isResourceRequest) {
    if (deps.discovery.handle(req, res)) return;
    throw resourceNotFound();
  }
  if (isAccessReview(info)) return answerAccessReview(req, res, info);
  const resource = deps.resources.find(info.apiGroup, info.apiVersion, info.resource);
  if (!resource) throw resourceNotFound();
  // A namespaced resource is not served outside a namespace by name, a cluster-scoped one not inside one.
  if ((resource.namespaced && info.name && !info.namespace) || (!resource.namespaced && info.namespace)) throw resourceNotFound();
  if (!OBJECT_SUBRESOURCES.has(info.subresource)) throw resourceNotFound();
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
    }),
    watchGuard: (contentType) => deps.hooks.watchGuard?.({ req, res, info }, contentType),
  };
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

function fail(deps: DispatchDeps, req: IncomingMessage, res: ServerResponse, err: unknown): void {
  if (!(err instanceof StatusError)) deps.log.error({ err, url: req.url }, 'request failed');
  const status = err instanceof StatusError ? err : statusFor(500, `Internal error occurred: ${(err as Error).message}`);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendStatusBody(req, res, status);
}
