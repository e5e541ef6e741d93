/**
 * Applies a plan's perturbation through the run's hooks (run-hooks.ts):
 * - stale-state: when the object's change `trigger` is about to reach the controller, its watches
 *   of that resource end with an ERROR 410 (Expired) instead; until released, its reads of the
 *   lists of the resource are answered from the revision of the object's change `view` (serve's
 *   time travel) and its new watches of the resource are held; then released;
 * - unobserved-state: the controller's watches withhold the object's change `withhold`;
 * - intermediate-state: the controller is killed once its `write`-th write is committed, before
 *   the answer is sent, and restarted.
 */
import type { IncomingMessage } from 'node:http';
import { watchTooOld } from '../k8s/status';
import type { ServeChange, WatchFrameGuard, WatchStreamEnd } from '../serve';
import { watchErrorFrame } from '../wire/watch-error-frame';
import type { ObjectKey, Perturbation } from './plan';
import type { ControllerWrite, RunLog } from './run-log';

export interface PerturberDeps {
  log: RunLog;
  /** Kills the controller now (synchronously) and restarts it. */
  crash(): void;
  /** Marks the controller busy (not quiescent) until this run time. */
  busyUntil(t: number): void;
}

interface ControllerWatch {
  resource: string;
  contentType: string;
  end?: (end: WatchStreamEnd) => void;
  ending: boolean;
  /** The release time a frame of this watch is held until (the frames after it queue behind it). */
  heldUntil?: number;
}

export class Perturber {
  private readonly watches = new Map<IncomingMessage, ControllerWatch>();
  private viewRev: number | undefined;
  private releaseAt: number | undefined;
  private fired = false;

  constructor(private readonly p: Perturbation | undefined, private readonly deps: PerturberDeps) {}

  /** Whether the perturbation happened in this run. */
  get applied(): boolean {
    return this.fired;
  }

  readRevision(resource: string, head: number): number {
    if (this.p?.class !== 'stale-state' || resource !== this.p.resource || !this.holding()) return head;
    return this.viewRev ?? head;
  }

  watchGuard(req: IncomingMessage, resource: string, contentType: string): WatchFrameGuard {
    const w: ControllerWatch = { resource, contentType, ending: false };
    this.watches.set(req, w);
    return {
      start: (onTimer) => {
        w.end = onTimer;
        return undefined;
      },
      beforeFrame: () => {
        if (w.resource !== (this.p as ObjectKey | undefined)?.resource || !this.holding()) return 'continue';
        // A watch delays its frames one after another: only the first waits for the release, the others queue behind it.
        if (w.heldUntil === this.releaseAt) return 'continue';
        w.heldUntil = this.releaseAt;
        return { delayMs: Math.max(0, this.releaseAt! - this.deps.log.now()) };
      },
      afterFrame: () => undefined,
      stop: () => this.watches.delete(req),
    };
  }

  /** Whether the controller's watch (`req`) delivers this change. */
  deliver(req: IncomingMessage, change: ServeChange): boolean {
    const p = this.p;
    if (!p || p.class === 'intermediate-state') return true;
    if (this.watches.get(req)?.ending) return false;
    if (!sameObject(p, change)) return true;
    if (p.class === 'unobserved-state') {
      if (change.index !== p.withhold) return true;
      this.fired = true;
      this.note(`withheld change ${p.withhold} (${change.type}, rv ${change.rev}) of ${change.resource} ${change.namespace}/${change.name} from the controller`);
      return false;
    }
    if (change.index !== p.trigger || this.fired || this.viewRev === undefined) return true;
    this.breakWatches(change);
    return false;
  }

  changed(change: ServeChange): void {
    const p = this.p;
    if (p?.class !== 'stale-state' || !sameObject(p, change)) return;
    if (change.index === p.view) this.viewRev = change.rev;
    // The controller had no watch that would have carried the trigger: its next relist is stale all the same.
    if (change.index === p.trigger && !this.fired && this.viewRev !== undefined) this.breakWatches(change);
  }

  written(n: number, write: ControllerWrite): void {
    if (this.p?.class !== 'intermediate-state' || n !== this.p.write || this.fired) return;
    this.fired = true;
    this.note(`killed the controller after its write ${n} (${write.verb} ${write.resource} ${write.namespace ? `${write.namespace}/` : ''}${write.name}) was committed`);
    this.deps.crash();
  }

  private breakWatches(change: ServeChange): void {
    const p = this.p as Extract<Perturbation, { class: 'stale-state' }>;
    this.fired = true;
    this.releaseAt = this.deps.log.now() + p.holdMs;
    this.deps.busyUntil(this.releaseAt);
    this.note(`change ${p.trigger} of ${change.resource} ${change.namespace}/${change.name} (rv ${change.rev}): the controller's ${p.resource} watches end with 410; its reads see rv ${this.viewRev} (change ${p.view}) for ${p.holdMs} ms`);
    for (const w of this.watches.values()) {
      if (w.resource !== p.resource || w.ending) continue;
      w.ending = true;
      const frame = watchErrorFrame(w.contentType, watchTooOld(String(this.viewRev), String(change.rev)));
      queueMicrotask(() => w.end?.({ how: 'gone', rule: 'explore', frame }));
    }
  }

  private holding(): boolean {
    return this.releaseAt !== undefined && this.deps.log.now() < this.releaseAt;
  }

  private note(what: string): void {
    this.deps.log.add({ kind: 'perturbation', what });
  }
}

function sameObject(a: ObjectKey, b: ObjectKey): boolean {
  return a.resource === b.resource && a.namespace === b.namespace && a.name === b.name;
}
