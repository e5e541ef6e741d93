/**
 * A test run of one plan: the workload again with the plan's perturbation, compared with the
 * oracle. A divergence is run once more, recorded (`logs/plan-NNN.db`, serve's `out`): when it
 * comes again it is a finding, described from that second run, otherwise it is flaky. The
 * finding carries the difference, the log entries around the perturbation, the recording and
 * when in it the perturbation came, and the command that reproduces it.
 */
import { rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { exploreRun, type RunResult, type RunSettings } from './explore-run';
import { compare, diverged, type Divergence, type Oracle } from './oracle';
import { explainPerturbation, planFileName, type FindingClass, type Plan } from './plan';
import type { LogEntry } from './run-log';

export interface Finding {
  class: FindingClass;
  plan: string;
  explain: string;
  diff: Divergence;
  /** A run that failed (a workload step timed out …) says how. */
  error?: string;
  /** The log entries around the perturbation (times in ms since the run started). */
  exchanges: LogEntry[];
  rerun: string;
  /** Whether the second run diverged too. */
  reproduced: boolean;
  /** The recording of the run the finding describes, relative to the results folder (`logs/plan-NNN.db`). */
  recording?: string;
  /** Wall time (ms since the epoch) of the perturbation in that run (of its end when none came). */
  perturbedAt?: number;
}

export interface PlanOutcome {
  plan: number;
  class: FindingClass;
  perturbed: boolean;
  ms: number;
  finding?: Finding;
}

const BEFORE = 8;
const AFTER = 16;

export async function testRun(plan: Plan, settings: RunSettings, oracle: Oracle, outDir: string): Promise<PlanOutcome> {
  const started = Date.now();
  const controllerLog = join(outDir, 'logs', planFileName(plan.id).replace(/\.yaml$/, '.log'));
  const recording = join(outDir, 'logs', planFileName(plan.id).replace(/\.yaml$/, '.db'));
  const first = await exploreRun(settings, plan.perturbation, { controllerLog });
  const outcome: PlanOutcome = { plan: plan.id, class: plan.perturbation.class, perturbed: first.perturbed, ms: 0 };
  const diff = compare(oracle, { end: first.end, counts: first.log.counts });
  if (diverged(diff) || first.error) {
    for (const f of [recording, `${recording}-wal`, `${recording}-shm`]) rmSync(f, { force: true });
    const again = await exploreRun(settings, plan.perturbation, { controllerLog, recording });
    const againDiff = compare(oracle, { end: again.end, counts: again.log.counts });
    const reproduced = diverged(againDiff) || again.error !== undefined;
    const planPath = join(outDir, planFileName(plan.id));
    outcome.finding = reproduced
      ? { ...findingOf(plan, again, againDiff, planPath, true), recording: join('logs', basename(recording)) }
      : findingOf(plan, first, diff, planPath, false);
  }
  outcome.ms = Date.now() - started;
  return outcome;
}

export function findingOf(plan: Plan, run: RunResult, diff: Divergence, planPath: string, reproduced: boolean): Finding {
  return {
    class: plan.perturbation.class,
    plan: planFileName(plan.id),
    explain: explainPerturbation(plan.perturbation),
    diff,
    ...(run.error ? { error: run.error } : {}),
    exchanges: around(run.log.entries),
    rerun: `kubetape explore rerun ${planPath}`,
    reproduced,
    perturbedAt: run.startedAt + (run.log.entries.find((e) => e.kind === 'perturbation')?.t ?? run.log.now()),
  };
}

/** Entries around the perturbation (the controller's requests and notifications, the changes), or the run's last ones. */
function around(entries: LogEntry[]): LogEntry[] {
  const relevant = entries.filter((e) => e.kind !== 'request' || e.who === 'controller' || e.verb !== 'get');
  const at = relevant.findIndex((e) => e.kind === 'perturbation');
  if (at < 0) return relevant.slice(-AFTER);
  return relevant.slice(Math.max(0, at - BEFORE), at + AFTER + 1);
}
