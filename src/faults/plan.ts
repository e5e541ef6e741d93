import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { sendStatus } from '../http/respond';
import type { StatusError } from '../k8s/status';
import type { ActionType } from './definition';
import type { FaultRequest } from './fault-request';
import { MAX_TIMER_MS } from './fields';

/** A fault that acts on a watch stream, frame by frame or on a timer (watch-stream-guard.ts applies them). */
export type StreamFault =
  | { rule: string; type: 'watch-gone'; afterEvents?: number; afterMs?: number; message?: string }
  | { rule: string; type: 'watch-close' | 'reset'; afterEvents?: number; afterMs?: number }
  | { rule: string; type: 'delay'; nextDelayMs: () => number };

/** Serve mode: answer this read from a view behind head. */
export interface StaleRead {
  rule: string;
  /** This many revisions behind head … */
  revisions?: number;
  /** … or the state as it was this many ms ago (by the mode's clock). */
  ms?: number;
}

/** Reports a stream fault when it fires, after the request was planned (log line + journal entry). */
export type StreamFaultReporter = (fault: StreamFault, effect: string) => void;

/**
 * What the fault rules want done with one request, decided once when it arrives. An empty plan
 * (no rule applied) leaves the request alone.
 */
export interface FaultPlan {
  readonly request: FaultRequest;
  /** Names of the rules that applied, in rule order. */
  readonly rules: string[];
  /** Wait this long before answering. */
  delayMs: number;
  /** Answer with this Status instead of the real answer (the upstream is not called). */
  respond?: StatusError;
  /** Reset the TCP connection instead of answering. */
  reset?: boolean;
  /** Faults for the watch stream this request opens (watch-stream-guard.ts). */
  readonly stream: StreamFault[];
  staleRead?: StaleRead;
  /** Serve mode: move the compaction floor to head before answering. */
  compact?: { rule: string };
  /** Called when a stream fault fires. */
  readonly report: StreamFaultReporter;
}

/** Action types that make the mode skip its own answer. */
export const REPLACING_ACTIONS: readonly ActionType[] = ['status', 'expire-continue', 'too-large-rv', 'reset'];

export function emptyPlan(request: FaultRequest, report: StreamFaultReporter = () => {}): FaultPlan {
  return { request, rules: [], delayMs: 0, stream: [], report };
}

/** Whether the plan answers the request itself (a Status or a reset): the mode must not. */
export function replacesResponse(plan: FaultPlan): boolean {
  return plan.respond !== undefined || plan.reset === true;
}

/** The value for the recording's `injected` column: the applied rules' names, or undefined. */
export function injectedBy(plan: FaultPlan): string | undefined {
  return plan.rules.length > 0 ? plan.rules.join(',') : undefined;
}

/** Writes an error Status; a mode with content negotiation (serve) passes its own. */
export type StatusWriter = (res: ServerResponse, err: StatusError) => void;

/**
 * The part of a plan every mode handles the same way: waits out the delay, then writes the
 * replacing answer (a Status with its headers, or a TCP reset). Returns true when the request has
 * been answered and the mode must stop; false when the mode answers as usual.
 */
export async function applyPlan(res: ServerResponse, plan: FaultPlan, send: StatusWriter = sendStatus): Promise<boolean> {
  if (plan.delayMs > 0) await sleep(plan.delayMs);
  if (res.destroyed) return replacesResponse(plan);
  if (plan.reset) {
    resetConnection(res);
    return true;
  }
  if (plan.respond) {
    send(res, plan.respond);
    return true;
  }
  return false;
}

/** A TCP RST, not a FIN: what a client sees when a load balancer or apiserver dies mid-request. */
export function resetConnection(res: ServerResponse): void {
  const socket = res.socket as (Socket & { resetAndDestroy?: () => Socket }) | null;
  if (!socket) return;
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

/** Waits `ms`, however long: a wait beyond one timer's reach (2^31-1 ms; several delays add up) is chained. */
export function sleep(ms: number): Promise<void> {
  const step = Math.min(ms, MAX_TIMER_MS);
  return new Promise<void>((resolve) => setTimeout(resolve, step)).then(() => (ms > step ? sleep(ms - step) : undefined));
}
