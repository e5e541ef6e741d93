/**
 * What a rule does to a request it matched: one small class per action type, each with an
 * `explain()` sentence. `appliesTo` says which requests the action can act on at all (an
 * expire-continue needs a list carrying `continue`); `apply` writes its part of the plan and
 * returns what it did, for the log and the journal. Watch-stream actions are in stream-actions.ts.
 */
import { continueExpired, failure, StatusError, statusFor, tooLargeResourceVersion } from '../k8s/status';
import type { ActionType } from './definition';
import type { FaultRequest } from './fault-request';
import { inconsistentContinue } from './continue-expiry';
import type { FaultPlan } from './plan';
import { uniformInt, type Random } from './random';

export interface ActionContext {
  rule: string;
  /** The rule's own generator for the action's random choices (uniform delays). */
  random: Random;
  /** The current resourceVersion, when the mode knows one (serve mode's head). */
  currentRv?: () => string | undefined;
}

export interface FaultAction {
  readonly type: ActionType;
  appliesTo(req: FaultRequest): boolean;
  /** Adds the action to the plan; returns what it did (`answered 429 TooManyRequests`). */
  apply(req: FaultRequest, plan: FaultPlan, ctx: ActionContext): string;
  explain(): string;
}

export class StatusAction implements FaultAction {
  readonly type = 'status';
  constructor(
    private readonly code: number,
    private readonly message?: string,
    private readonly reason?: string,
    private readonly retryAfterSeconds?: number,
  ) {}
  appliesTo(): boolean {
    return true;
  }
  apply(_req: FaultRequest, plan: FaultPlan): string {
    plan.respond = this.error();
    return `answered ${this.code} ${plan.respond.reason ?? ''}`.trimEnd();
  }
  error(): StatusError {
    const base = statusFor(this.code, this.message, this.retryAfterSeconds);
    if (this.reason === undefined) return base;
    const s = base.status;
    return new StatusError(failure(s.code, this.reason, s.message ?? '', s.details), base.headers);
  }
  explain(): string {
    const e = this.error();
    const retry = this.retryAfterSeconds !== undefined ? ` and Retry-After: ${this.retryAfterSeconds}` : '';
    return `answer ${this.code}${e.reason ? ` ${e.reason}` : ''} "${e.status.message}"${retry}`;
  }
}

export type DelaySpec = number | { min: number; max: number };

export class DelayAction implements FaultAction {
  readonly type = 'delay';
  constructor(
    private readonly ms: DelaySpec,
    private readonly betweenFrames: boolean,
  ) {}
  appliesTo(req: FaultRequest): boolean {
    return !this.betweenFrames || req.info.verb === 'watch';
  }
  apply(_req: FaultRequest, plan: FaultPlan, ctx: ActionContext): string {
    const next = () => (typeof this.ms === 'number' ? this.ms : uniformInt(ctx.random, this.ms.min, this.ms.max));
    if (this.betweenFrames) {
      plan.stream.push({ rule: ctx.rule, type: 'delay', nextDelayMs: next });
      return `delaying each watch frame by ${this.describeMs()}`;
    }
    const ms = next();
    plan.delayMs += ms;
    return `delayed the response by ${ms} ms`;
  }
  explain(): string {
    return this.betweenFrames ? `delay each watch frame by ${this.describeMs()}` : `delay the response by ${this.describeMs()}`;
  }
  private describeMs(): string {
    return typeof this.ms === 'number' ? `${this.ms} ms` : `${this.ms.min}–${this.ms.max} ms (uniform)`;
  }
}

/** The apiserver's 410 for a continue token below the compaction, with the rv:-1 token that still works. */
export class ExpireContinueAction implements FaultAction {
  readonly type = 'expire-continue';
  appliesTo(req: FaultRequest): boolean {
    return req.info.verb === 'list' && !!req.info.query.get('continue');
  }
  apply(req: FaultRequest, plan: FaultPlan): string {
    const token = req.info.query.get('continue') ?? '';
    plan.respond = expiredContinue(token);
    return 'answered 410 Expired (continue token expired)';
  }
  explain(): string {
    return 'answer 410 Expired "The provided continue parameter is too old …" with the inconsistent-continue token, for lists carrying continue';
  }
}

/** continueExpired() with the rv:-1 token; a token that is not an apiserver token gets the Status without one. */
export function expiredContinue(token: string): StatusError {
  const inconsistent = inconsistentContinue(token);
  const err = continueExpired(inconsistent ?? '');
  if (inconsistent === undefined) delete err.status.metadata.continue;
  return err;
}

export class TooLargeRvAction implements FaultAction {
  readonly type = 'too-large-rv';
  constructor(private readonly retryAfterSeconds = 1) {}
  appliesTo(req: FaultRequest): boolean {
    return req.info.verb === 'get' || req.info.verb === 'list';
  }
  apply(req: FaultRequest, plan: FaultPlan, ctx: ActionContext): string {
    const { requested, current } = tooLargeNumbers(req.info.query.get('resourceVersion'), ctx.currentRv?.());
    plan.respond = tooLargeResourceVersion(requested, current, this.retryAfterSeconds);
    return 'answered 504 Timeout (ResourceVersionTooLarge)';
  }
  explain(): string {
    return `answer 504 Timeout "Too large resource version" (cause ResourceVersionTooLarge) with Retry-After: ${this.retryAfterSeconds}, for get and list`;
  }
}

/** The two numbers of `Too large resource version: N, current: M`, from what the request and the mode know. */
function tooLargeNumbers(requestRv: string | null, currentRv: string | undefined): { requested: string; current: string } {
  const requestedNum = requestRv && /^\d+$/.test(requestRv) ? BigInt(requestRv) : undefined;
  const currentNum = currentRv && /^\d+$/.test(currentRv) ? BigInt(currentRv) : undefined;
  if (requestedNum !== undefined && currentNum !== undefined) return { requested: String(requestedNum), current: String(currentNum) };
  if (requestedNum !== undefined) return { requested: String(requestedNum), current: String(requestedNum > 0n ? requestedNum - 1n : 0n) };
  if (currentNum !== undefined) return { requested: String(currentNum + 1n), current: String(currentNum) };
  return { requested: requestRv || '1', current: '0' };
}

/**
 * Serve only: reads with resourceVersion "0" ("any": what the watch cache serves, with or without
 * NotOlderThan) answered from a view behind head, like a cache lagging after an apiserver restart.
 */
export class StaleReadAction implements FaultAction {
  readonly type = 'stale-read';
  constructor(private readonly lag: { revisions: number } | { ms: number }) {}
  appliesTo(req: FaultRequest): boolean {
    const { verb, query } = req.info;
    if (verb !== 'get' && verb !== 'list' && verb !== 'watch') return false;
    return query.get('resourceVersion') === '0';
  }
  apply(_req: FaultRequest, plan: FaultPlan, ctx: ActionContext): string {
    plan.staleRead = { rule: ctx.rule, ...this.lag };
    return `reading ${this.describeLag()} behind head`;
  }
  explain(): string {
    return `answer get, list and watch with resourceVersion "0" from a view ${this.describeLag()} behind head`;
  }
  private describeLag(): string {
    return 'revisions' in this.lag ? `${this.lag.revisions} revision${this.lag.revisions === 1 ? '' : 's'}` : `${this.lag.ms} ms`;
  }
}

/** Serve only: compaction now, so a continue token or a watch RV from before this request is too old. */
export class CompactAction implements FaultAction {
  readonly type = 'compact';
  appliesTo(): boolean {
    return true;
  }
  apply(_req: FaultRequest, plan: FaultPlan, ctx: ActionContext): string {
    plan.compact = { rule: ctx.rule };
    return 'compacting to head';
  }
  explain(): string {
    return 'compact the store to its head before answering';
  }
}
