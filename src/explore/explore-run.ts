/**
 * One run: a serve of its own (empty or from `db`, with `crds`, seeded), the controller started
 * against it, the workload, then quiescence; the end state and the log. With a perturbation
 * (a test run) the hooks apply it; without one it is a reference run.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { serve } from '../serve';
import { ControllerProcess } from './controller-process';
import { endState, type EndState } from './end-state';
import type { Perturbation } from './plan';
import { Perturber } from './perturber';
import { runHooks, type Activity } from './run-hooks';
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

export interface RunResult {
  log: RunLog;
  end: EndState;
  /** Whether the perturbation happened (a plan whose moment never came changes nothing). */
  perturbed: boolean;
  /** How the run failed (a workload step, the controller never watching), if it did. */
  error?: string;
  controllerStarts: number;
}

export async function exploreRun(settings: RunSettings, perturbation?: Perturbation, controllerLog?: string): Promise<RunResult> {
  const log = new RunLog();
  const activity: Activity = { lastControllerWrite: 0, controllerWatches: 0, lastControllerRequest: 0 };
  let busyUntil = 0;
  let controller!: ControllerProcess;
  let restarting: Promise<void> = Promise.resolve();
  const perturber = new Perturber(perturbation, {
    log,
    crash: () => {
      controller.kill();
      const watchesBefore = activity.controllerWatches;
      restarting = controller.exitedPromise().then(async () => {
        controller.start();
        await controllerReady(activity, log, settings.startTimeoutMs ?? 20_000, controller, watchesBefore).catch(() => undefined);
        activity.lastControllerWrite = log.now();
      });
    },
    busyUntil: (t) => (busyUntil = Math.max(busyUntil, t)),
  });
  const api = await serve({ crds: settings.crds, db: settings.db, seed: settings.seed, hooks: runHooks(log, perturber, activity) });
  controller = new ControllerProcess({ command: settings.controller, kubeconfig: api.kubeconfigPath, cwd: settings.cwd, logFile: controllerLog });
  const quiesce = async (ms: number) => {
    const from = log.now();
    for (;;) {
      await restarting;
      const quietSince = Math.max(from, activity.lastControllerWrite, busyUntil);
      const left = quietSince + ms - log.now();
      if (left <= 0) return;
      await sleep(Math.min(left, 100));
    }
  };
  let error: string | undefined;
  try {
    controller.start();
    await controllerReady(activity, log, settings.startTimeoutMs ?? 20_000, controller);
    await runWorkload(settings.workload, { client: new WorkloadClient(api.url), quiesce, onStep: (n, step) => log.add({ kind: 'step', n, step }) });
    await quiesce(settings.settleMs);
  } catch (err) {
    error = (err as Error).message;
  }
  const end = endState(api, log.uidKeys);
  await controller.stop();
  await api.close();
  return { log, end, perturbed: perturber.applied, error, controllerStarts: controller.starts };
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
