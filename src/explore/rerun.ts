/** `kubetape explore rerun results/plan-NNN.yaml`: the plan's test run once more, compared with the oracle beside it. */
import { existsSync, readFileSync } from 'node:fs';
import { UsageError } from '../errors/usage-error';
import { exploreRun } from './explore-run';
import { compare, diverged, type Oracle } from './oracle';
import { readPlanFile } from './plan-file';
import { findingOf, type Finding } from './test-run';
import { loadWorkload } from './workload';

export async function rerunPlan(path: string, controllerLog?: string): Promise<{ finding?: Finding; perturbed: boolean }> {
  const { plan, setup, oraclePath } = readPlanFile(path);
  if (!existsSync(oraclePath)) throw new UsageError(`plan ${path}: no oracle.json beside it (run kubetape explore with --out first)`);
  const oracle = JSON.parse(readFileSync(oraclePath, 'utf8')) as Oracle;
  const run = await exploreRun({ ...setup, workload: loadWorkload(setup.workload) }, plan.perturbation, { controllerLog });
  const diff = compare(oracle, { end: run.end, counts: run.log.counts });
  if (!diverged(diff) && !run.error) return { perturbed: run.perturbed };
  return { finding: findingOf(plan, run, diff, path, true), perturbed: run.perturbed };
}
