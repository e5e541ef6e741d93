/**
 * One run: a serve of its own (empty or from `db`, with `crds`, seeded, its clock a RunClock),
 * the controller started against it, the workload, then quiescence; the end state and the log.
 * With a perturbation (a test run) the hooks apply it; without one it is a reference run.
 * Quiescence: no controller write for a while since the workload's last write, no perturbation
 * holding the controller's watches, no restart under way. A workload wait the controller has
 * gone quiescent under cannot be met any more: the run fails at once rather than at the wait's
 * timeout.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { serve } from '../serve';
import { ControllerProcess } from './controller-process';
import { allObjects, endState, type EndState } from './end-state';
import type { Perturbation } from './plan';
import { Perturber } from './perturber';
import { runHooks, type Activity } from './run-hooks';
import { RunClock } from './run-clock';
import { RunLog } from './run-log';
import type { Workload } from './workload';
import { WorkloadClient } from './workload-client';
import { runWorkload } from './workload-runner';

export interface RunSettings {
  controller: string;
  /** The controller's working directory. */
  cwd: string;
  workload: Workload;
  db?: string;
  crds?: readonly string[];
  seed: number;
  /** How long without a controller write ends the run. */
  settleMs: number;
  /** How long to wait for the controller's first watch. */
  startTimeoutMs?: number;
}

export interface RunOptions {
  /** Appends the controller's output here. */
  controllerLog?: string;
  /** Records every exchange of the run here (serve's `out`: a recording `kubetape inspect` and `ui` read). */
  recording?: string;
}

export interface RunResult {
  log: RunLog;
  end: EndState;
  /** Whether the perturbation happened (a plan whose moment never came changes nothing). */
  perturbed: boolean;
  /** How the run failed (a workload step, the controller never watching), if it did. */
  error?: string;
  controllerStarts: number;
  /** Every object at the end, whole (uids, resourceVersions and timestamps included), by `resource ns/name`. */
  objects: Record<string, Record<string, any>>;
  /** Wall time (ms since the epoch) the log's times count from. */
  startedAt: number;
}

export async function exploreRun(settings: RunSettings, perturbation?: Perturbation, options: RunOptions = {}): Promise<RunResult> {
  const log = new RunLog();
  const activity: Activity = { lastControllerWrite: 0, controllerWatches: 0, lastControllerRequest: 0, lastWorkloadWrite: 0 };
  let busyUntil = 0;
  let controller!: ControllerProcess;
  let restarting: Promise<void> = Promise.resolve();
  let restartPending = false;
  const perturber = new Perturber(perturbation, {
    log,
    crash: () => {
      controller.kill();
      const watchesBefore = activity.controllerWatches;
      restartPending = true;
      restarting = controller.exitedPromise().then(async () => {
        controller.start();
        await controllerReady(activity, log, settings.startTimeoutMs ?? 20_000, controller, watchesBefore).catch(() => undefined);
        activity.lastControllerWrite = log.now();
        restartPending = false;
      });
    },
    busyUntil: (t) => (busyUntil = Math.max(busyUntil, t)),
  });
  const clock = new RunClock();
  const hooks = runHooks(log, perturber, activity);
  const onChange = hooks.onChange!;
  hooks.onChange = (change) => {
    clock.tick();
    onChange(change);
  };
  const api = await serve({ crds: settings.crds, db: settings.db, seed: settings.seed, storeClock: clock, hooks, ...(options.recording ? { out: options.recording } : {}) });
  controller = new ControllerProcess({ command: settings.controller, kubeconfig: api.kubeconfigPath, cwd: settings.cwd, logFile: options.controllerLog });
  /** Since when the controller has been quiet (its last write, the workload's last write, the end of a hold), or undefined while it is restarting. */
  const quietSince = (from: number) => (restartPending ? undefined : Math.max(from, activity.lastControllerWrite, activity.lastWorkloadWrite, busyUntil));
  const quiesce = async (ms: number) => {
    for (;;) {
      await restarting;
      const since = quietSince(0);
      const left = since === undefined ? 0 : since + ms - log.now();
      if (since !== undefined && left <= 0) return;
      await sleep(Math.max(10, Math.min(left, 100)));
    }
  };
  let error: string | undefined;
  const client = new WorkloadClient(api.url);
  try {
    controller.start();
    await Promise.all([controllerReady(activity, log, settings.startTimeoutMs ?? 20_000, controller), client.discover()]);
    await runWorkload(settings.workload, {
      client,
      quiesce,
      onStep: (n, step) => log.add({ kind: 'step', n, step }),
      now: () => log.now(),
      hopeless: (waitingSince) => {
        const since = quietSince(waitingSince);
        return since !== undefined && log.now() - since >= settings.settleMs ? `the controller has made no write for ${settings.settleMs} ms` : undefined;
      },
    });
    await quiesce(settings.settleMs);
  } catch (err) {
    error = (err as Error).message;
  }
  const end = endState(api, log.uidKeys);
  const objects = allObjects(api);
  // The end state is taken: what the controller does from here on does not count, so no grace period.
  controller.kill();
  await controller.exitedPromise();
  await api.close();
  return { log, end, objects, perturbed: perturber.applied, error, controllerStarts: controller.starts, startedAt: log.startedAt };
}

/** Resolves once the controller has opened a watch and then been quiet for a moment (its informers have synced). */
async function controllerReady(activity: Activity, log: RunLog, timeoutMs: number, controller: ControllerProcess, watchesBefore = 0): Promise<void> {
  const deadline = log.now() + timeoutMs;
  while (log.now() < deadline) {
    if (activity.controllerWatches > watchesBefore && log.now() - activity.lastControllerRequest > 300) return;
    if (!controller.running) throw new Error('the controller exited before it watched anything (see its log)');
    await sleep(50);
  }
  throw new Error(`the controller opened no watch within ${timeoutMs} ms`);
}
