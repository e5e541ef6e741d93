/**
 * Actions that end a watch stream: after N events or T ms (with neither, at once), an ERROR 410
 * event (`watch-gone`), a clean end (`watch-close`) or a TCP reset (`reset`). On a request that is
 * not a watch, `reset` resets the connection before answering (after T ms if given).
 */
import type { FaultAction, ActionContext } from './actions';
import type { StreamPoint } from './definition';
import type { FaultRequest } from './fault-request';
import type { FaultPlan } from './plan';

abstract class StreamEndAction implements FaultAction {
  abstract readonly type: 'watch-gone' | 'watch-close' | 'reset';
  constructor(protected readonly at: StreamPoint) {}
  appliesTo(req: FaultRequest): boolean {
    return req.info.verb === 'watch';
  }
  apply(_req: FaultRequest, plan: FaultPlan, ctx: ActionContext): string {
    plan.stream.push({ rule: ctx.rule, type: this.type, ...this.at, ...this.extra() });
    return `armed ${this.type} ${describePoint(this.at)}`;
  }
  protected extra(): { message?: string } {
    return {};
  }
  abstract explain(): string;
}

export class WatchGoneAction extends StreamEndAction {
  readonly type = 'watch-gone';
  constructor(
    at: StreamPoint,
    private readonly message?: string,
  ) {
    super(at);
  }
  protected override extra(): { message?: string } {
    return this.message !== undefined ? { message: this.message } : {};
  }
  explain(): string {
    const what = this.message !== undefined ? `"${this.message}"` : '"too old resource version: N (M)"';
    return `end the watch ${describePoint(this.at)} with an ERROR event carrying 410 Expired ${what}`;
  }
}

export class WatchCloseAction extends StreamEndAction {
  readonly type = 'watch-close';
  explain(): string {
    return `close the watch cleanly ${describePoint(this.at)}`;
  }
}

export class ResetAction extends StreamEndAction {
  readonly type = 'reset';
  override appliesTo(): boolean {
    return true;
  }
  override apply(req: FaultRequest, plan: FaultPlan, ctx: ActionContext): string {
    if (req.info.verb === 'watch') return super.apply(req, plan, ctx);
    plan.reset = true;
    plan.delayMs += this.at.afterMs ?? 0;
    return this.at.afterMs ? `reset the connection after ${this.at.afterMs} ms` : 'reset the connection';
  }
  explain(): string {
    return `reset the TCP connection (a watch ${describePoint(this.at)}; any other request before answering${this.at.afterMs ? `, after ${this.at.afterMs} ms` : ''})`;
  }
}

export function describePoint(at: StreamPoint): string {
  const parts: string[] = [];
  if (at.afterEvents !== undefined) parts.push(`after ${at.afterEvents} event${at.afterEvents === 1 ? '' : 's'}`);
  if (at.afterMs !== undefined) parts.push(`after ${at.afterMs} ms`);
  return parts.length > 0 ? parts.join(' or ') : 'at once';
}
