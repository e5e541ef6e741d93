/**
 * The serve hooks of one explore run: tell the controller's requests from the workload's (by
 * User-Agent), log requests, changes and the notifications the controller's watches deliver,
 * tap the controller's successful writes (the object in the answer; the moment to crash it), and
 * let the run's perturbation (perturber.ts) act on reads, watches and writes.
 */
import type { ServerResponse } from 'node:http';
import type { ServeChange, ServeHooks, ServeRequestContext, WatchFrameGuard } from '../serve';
import type { Perturber } from './perturber';
import type { RunLog, Who } from './run-log';
import { WORKLOAD_USER_AGENT } from './workload-client';

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

export interface Activity {
  /** When the controller last wrote (ms, run time), or started. */
  lastControllerWrite: number;
  controllerWatches: number;
  lastControllerRequest: number;
  /** When the workload last sent a write (ms, run time): the controller's reaction to it is still due. */
  lastWorkloadWrite: number;
}

export function whoSent(ctx: ServeRequestContext): Who {
  return String(ctx.req.headers['user-agent'] ?? '').startsWith(WORKLOAD_USER_AGENT) ? 'workload' : 'controller';
}

export function resourceOf(ctx: ServeRequestContext): string {
  return ctx.info.apiGroup ? `${ctx.info.resource}.${ctx.info.apiGroup}` : ctx.info.resource;
}

export function runHooks(log: RunLog, perturber: Perturber, activity: Activity): ServeHooks {
  return {
    onRequest(ctx) {
      if (!ctx.info.isResourceRequest) return false;
      const who = whoSent(ctx);
      const entry = log.add({ kind: 'request', who, verb: ctx.info.verb, resource: resourceOf(ctx), namespace: ctx.info.namespace ?? '', name: ctx.info.name ?? '' });
      ctx.res.once('finish', () => ((entry as { status?: number }).status = ctx.res.statusCode));
      if (who !== 'controller') {
        if (WRITE_VERBS.has(ctx.info.verb)) {
          activity.lastWorkloadWrite = log.now();
          tapAnswer(ctx, (obj) => obj?.metadata?.resourceVersion && log.workloadRevs.add(Number(obj.metadata.resourceVersion)));
        }
        return false;
      }
      activity.lastControllerRequest = log.now();
      if (ctx.info.verb === 'watch') activity.controllerWatches++;
      if (WRITE_VERBS.has(ctx.info.verb)) {
        activity.lastControllerWrite = log.now();
        tapWrite(ctx, log, perturber, activity);
      }
      return false;
    },
    // Time travel answers the controller's lists (its relist); its gets stay consistent reads, as a quorum read is.
    latestRevision: (ctx, head) => (whoSent(ctx) === 'controller' && ctx.info.verb === 'list' ? perturber.readRevision(resourceOf(ctx), head) : head),
    anyRevision: (ctx, head) => (whoSent(ctx) === 'controller' && ctx.info.verb === 'list' ? perturber.readRevision(resourceOf(ctx), head) : head),
    watchGuard(ctx, contentType): WatchFrameGuard | undefined {
      if (whoSent(ctx) !== 'controller') return undefined;
      return perturber.watchGuard(ctx.req, resourceOf(ctx), contentType);
    },
    watchEvent(ctx, change: ServeChange) {
      if (whoSent(ctx) !== 'controller') return true;
      const deliver = perturber.deliver(ctx.req, change);
      log.add({ kind: 'notification', resource: change.resource, namespace: change.namespace, name: change.name, type: change.type, index: change.index, rev: change.rev, ...(deliver ? {} : { withheld: true }) });
      return deliver;
    },
    onChange(change) {
      log.change(change);
      perturber.changed(change);
    },
  };
}

/** Once a controller write succeeded: logs it and lets the perturber act, before the answer goes out. */
function tapWrite(ctx: ServeRequestContext, log: RunLog, perturber: Perturber, activity: Activity): void {
  tapAnswer(ctx, (obj) => {
    activity.lastControllerWrite = log.now();
    const meta = obj?.kind === 'Status' ? {} : (obj?.metadata ?? {});
    const n = log.writes.length + 1;
    log.writes.push({
      t: log.now(),
      n,
      verb: ctx.info.verb,
      resource: resourceOf(ctx),
      namespace: meta.namespace ?? ctx.info.namespace ?? '',
      name: meta.name ?? ctx.info.name ?? '',
      uid: meta.uid,
      rv: meta.resourceVersion ? Number(meta.resourceVersion) : undefined,
      owners: (meta.ownerReferences ?? []).map((o: any) => ({ kind: o.kind, name: o.name, uid: o.uid })),
    });
    perturber.written(n, log.writes[n - 1]!);
  });
}

/** Reads a write's answer as it is sent; calls `succeeded` with the parsed body (JSON) of a 2xx answer just before its last bytes go out. */
function tapAnswer(ctx: ServeRequestContext, succeeded: (obj: Record<string, any> | undefined) => void): void {
  const res = ctx.res as ServerResponse & { write: (...a: any[]) => boolean; end: (...a: any[]) => ServerResponse };
  const chunks: Buffer[] = [];
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  res.write = (chunk: any, ...rest: any[]) => {
    if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk));
    return write(chunk, ...rest);
  };
  res.end = (chunk?: any, ...rest: any[]) => {
    if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk));
    if (res.statusCode < 300) {
      let obj: Record<string, any> | undefined;
      try {
        obj = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        obj = undefined;
      }
      succeeded(obj);
    }
    return end(chunk, ...rest);
  };
}
