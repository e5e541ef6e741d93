/**
 * `plan-NNN.yaml`: one plan as a person reads it (what it does in a sentence, the perturbation,
 * how the run is set up) and as `explore rerun` reads it back; the oracle is `oracle.json` in
 * the same folder.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { UsageError } from '../errors/usage-error';
import { explainPerturbation, FINDING_CLASSES, planFileName, type Plan } from './plan';

/** How a run is set up: everything a rerun needs besides the plan. */
export interface RunSetup {
  controller: string;
  cwd: string;
  workload: string;
  db?: string;
  crds?: string[];
  seed: number;
  settleMs: number;
}

export interface PlanFile {
  plan: Plan;
  setup: RunSetup;
}

export function writePlanFile(dir: string, plan: Plan, setup: RunSetup): string {
  const path = join(dir, planFileName(plan.id));
  const header = `# kubetape explore plan ${plan.id} (${plan.perturbation.class})\n# ${explainPerturbation(plan.perturbation)}\n# rerun: kubetape explore rerun ${path}\n`;
  const doc = { plan: plan.id, class: plan.perturbation.class, explain: explainPerturbation(plan.perturbation), perturbation: plan.perturbation, run: setup };
  writeFileSync(path, header + stringify(doc));
  return path;
}

export function readPlanFile(path: string): PlanFile & { oraclePath: string } {
  let doc: any;
  try {
    doc = parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UsageError(`plan ${path}: cannot be read: ${(err as Error).message}`);
  }
  if (!doc || typeof doc.plan !== 'number') throw new UsageError(`plan ${path}: field "plan" must be the plan's number`);
  if (!doc.perturbation || !(FINDING_CLASSES as readonly string[]).includes(doc.perturbation.class)) {
    throw new UsageError(`plan ${path}: field "perturbation.class" must be one of ${FINDING_CLASSES.join(', ')}`);
  }
  const run = doc.run ?? {};
  for (const field of ['controller', 'cwd', 'workload']) if (typeof run[field] !== 'string') throw new UsageError(`plan ${path}: field "run.${field}" is required`);
  return { plan: { id: doc.plan, perturbation: doc.perturbation }, setup: { ...run, seed: Number(run.seed ?? 1), settleMs: Number(run.settleMs ?? 1500) }, oraclePath: join(dirname(path), 'oracle.json') };
}
