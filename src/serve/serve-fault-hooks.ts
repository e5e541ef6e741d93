/**
 * Fault rules as serve hooks (src/serve/options.ts ServeHooks): a plan per request; `compact`
 * moves the floor to the head before the request is answered; a replacing fault answers instead
 * of the store (as a Status negotiated like serve's own); stream faults guard the watch's
 * frames; `stale-read` picks the revision a resourceVersion="0" read is served at.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StatusError } from '../k8s/status';
import type { ServeHooks, ServeRequestContext, WatchFrameGuard } from './options';
import type { FaultInjector } from '../faults/injector';
import { applyPlan, injectedBy, type FaultPlan } from '../faults/plan';
import { WatchStreamGuard } from '../faults/watch-stream-guard';

export interface ServeFaultDeps {
  /** The store's head revision. */
  head(): number;
  /** The newest revision applied at least `ms` ago (server time): a view `ms` behind. */
  revisionAgo(ms: number): number;
  /** Compacts every resource at the head. */
  compact(): void;
  /** Writes an error Status the way serve negotiates it; default JSON. */
  sendStatus?(req: IncomingMessage, res: ServerResponse, err: StatusError): void;
  /** The rules acting on a request (`injected`: their names; `reset`: whether they reset its connection), for `--out`. */
  applied?(req: IncomingMessage, injected: string, reset: boolean): void;
}

/** Hooks applying `faults` to serve; `inner` hooks (the caller's own) come first. */
export function serveFaultHooks(faults: FaultInjector, deps: ServeFaultDeps, inner: ServeHooks = {}): ServeHooks {
  const plans = new WeakMap<IncomingMessage, FaultPlan>();
  return {
    async onRequest(ctx: ServeRequestContext): Promise<boolean> {
      if (inner.onRequest && (await inner.onRequest(ctx))) return true;
      if (faults.size === 0) return false;
      const plan = faults.plan(ctx.req, { info: ctx.info, currentRv: () => String(deps.head()) });
      if (plan.rules.length === 0) return false;
      plans.set(ctx.req, plan);
      deps.applied?.(ctx.req, injectedBy(plan)!, Boolean(plan.reset));
      if (plan.compact) deps.compact();
      const send = deps.sendStatus ? (res: ServerResponse, err: StatusError) => deps.sendStatus!(ctx.req, res, err) : undefined;
      return applyPlan(ctx.res, plan, send);
    },

    watchGuard(ctx: ServeRequestContext, contentType: string): WatchFrameGuard | undefined {
      const own = inner.watchGuard?.(ctx, contentType);
      if (own) return own;
      const plan = plans.get(ctx.req);
      return plan && plan.stream.length > 0 ? new WatchStreamGuard(plan, contentType) : undefined;
    },

    latestRevision: inner.latestRevision,
    watchEvent: inner.watchEvent,
    onChange: inner.onChange,

    anyRevision(ctx: ServeRequestContext, head: number): number {
      if (inner.anyRevision) return inner.anyRevision(ctx, head);
      const stale = plans.get(ctx.req)?.staleRead;
      if (!stale) return head;
      if (stale.revisions !== undefined) return head - stale.revisions;
      return Math.min(head, deps.revisionAgo(stale.ms ?? 0));
    },
  };
}
