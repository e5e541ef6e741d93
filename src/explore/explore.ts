/**
 * `kubetape explore`: reference runs (the oracle and its mask), plans from the first reference
 * run, then the plans of this shard run `parallel` at a time (each against its own serve) until
 * done or the budget is spent; results written to `out`: oracle.json, plan-NNN.yaml,
 * findings.json (reproduced), flaky.json, summary.json, logs/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../errors/usage-error';
import { exploreRun, type RunSettings } from './explore-run';
import { learnOracle, type Oracle } from './oracle';
import { FINDING_CLASSES, type FindingClass, type Plan } from './plan';
import { writePlanFile, type RunSetup } from './plan-file';
import { generatePlans } from './plan-generator';
import { testRun, type Finding, type PlanOutcome } from './test-run';
import { loadWorkload } from './workload';

export interface ExploreOptions {
  controller: string;
  workload: string;
  db?: string;
  crds?: string[];
  out: string;
  parallel?: number;
  /** Run plans whose number modulo `count` is `index` (0-based). */
  shard?: { index: number; count: number };
  seed?: number;
  budgetMs?: number;
  /** How long without a controller write ends a run (default 1.5 s). */
  settleMs?: number;
  /** Reference runs (default 2). */
  references?: number;
  /** How long a stale-state plan holds the controller's watches (default 1.5 s). */
  holdMs?: number;
  /** Progress lines for people. */
  say?: (line: string) => void;
}

export interface ExploreSummary {
  plansGenerated: Record<FindingClass, number>;
  plansPruned: Record<FindingClass, number>;
  plans: number;
  plansRun: number;
  plansNotRun: number;
  /** Plans whose perturbation never came to pass (its moment did not occur in the run). */
  plansWithoutEffect: number;
  findings: Record<FindingClass, number>;
  flaky: number;
  ms: number;
}

export async function explore(options: ExploreOptions): Promise<{ summary: ExploreSummary; findings: Finding[]; flaky: Finding[] }> {
  const started = Date.now();
  const say = options.say ?? (() => {});
  const workload = loadWorkload(options.workload);
  const parallel = options.parallel ?? 1;
  if (!Number.isInteger(parallel) || parallel < 1) throw new UsageError(`--parallel must be a positive integer, got ${parallel}`);
  const out = resolve(options.out);
  mkdirSync(join(out, 'logs'), { recursive: true });
  const setup: RunSetup = {
    controller: options.controller,
    cwd: process.cwd(),
    workload: workload.path,
    ...(options.db ? { db: resolve(options.db) } : {}),
    ...(options.crds?.length ? { crds: options.crds.map((c) => resolve(c)) } : {}),
    seed: options.seed ?? 1,
    settleMs: options.settleMs ?? 1500,
  };
  const settings: RunSettings = { ...setup, workload };

  const count = Math.max(2, options.references ?? 2);
  say(`reference runs: ${count}`);
  const refs = await pool(
    Array.from({ length: count }, (_, i) => i),
    Math.min(parallel, count),
    async (i) => exploreRun(settings, undefined, { controllerLog: join(out, 'logs', `reference-${i + 1}.log`) }),
  );
  const failed = refs.find((r) => r.error);
  if (failed) throw new Error(`the reference run failed: ${failed.error} (controller output: ${join(out, 'logs')})`);
  const oracle: Oracle = learnOracle(refs.map((r) => ({ end: r.end, counts: r.log.counts })));
  writeFileSync(join(out, 'oracle.json'), JSON.stringify(oracle, null, 1));
  writeFileSync(join(out, 'reference.json'), JSON.stringify({ entries: refs[0]!.log.entries, writes: refs[0]!.log.writes }, null, 1));
  const masked = oracle.mask.paths.length + oracle.mask.keys.length + oracle.mask.counts.length;
  say(`oracle: ${Object.keys(oracle.end).length} objects; masked what varied between reference runs: ${masked} (fields ${oracle.mask.paths.length}, objects ${oracle.mask.keys.length}, counts ${oracle.mask.counts.length})`);

  const generated = generatePlans(refs[0]!.log, options.holdMs ?? 1500);
  const plans: Plan[] = generated.perturbations.map((perturbation, i) => ({ id: i + 1, perturbation }));
  for (const c of FINDING_CLASSES) say(`plans ${c}: ${generated.generated[c]} generated, ${generated.pruned[c]} pruned, ${generated.generated[c] - generated.pruned[c]} kept`);
  const shard = options.shard;
  const mine = shard ? plans.filter((p) => (p.id - 1) % shard.count === shard.index) : plans;
  if (shard) say(`shard ${shard.index}/${shard.count}: ${mine.length} of ${plans.length} plans`);
  for (const p of mine) writePlanFile(out, p, setup);

  const deadline = options.budgetMs !== undefined ? started + options.budgetMs : Infinity;
  const outcomes = await pool(mine, parallel, async (plan) => {
    if (Date.now() >= deadline) return undefined;
    const o = await testRun(plan, settings, oracle, out);
    say(`plan ${plan.id} ${plan.perturbation.class}: ${o.finding ? (o.finding.reproduced ? 'FINDING' : 'flaky') : o.perturbed ? 'same as the reference' : 'no effect (its moment never came)'} (${(o.ms / 1000).toFixed(1)} s)`);
    return o;
  });
  const ran = outcomes.filter((o): o is PlanOutcome => o !== undefined);
  const findings = ran.flatMap((o) => (o.finding?.reproduced ? [o.finding] : []));
  const flaky = ran.flatMap((o) => (o.finding && !o.finding.reproduced ? [o.finding] : []));
  const summary: ExploreSummary = {
    plansGenerated: generated.generated,
    plansPruned: generated.pruned,
    plans: mine.length,
    plansRun: ran.length,
    plansNotRun: mine.length - ran.length,
    plansWithoutEffect: ran.filter((o) => !o.perturbed).length,
    findings: Object.fromEntries(FINDING_CLASSES.map((c) => [c, findings.filter((f) => f.class === c).length])) as Record<FindingClass, number>,
    flaky: flaky.length,
    ms: Date.now() - started,
  };
  writeFileSync(join(out, 'findings.json'), JSON.stringify(findings, null, 1));
  writeFileSync(join(out, 'flaky.json'), JSON.stringify(flaky, null, 1));
  writeFileSync(join(out, 'summary.json'), JSON.stringify(summary, null, 1));
  return { summary, findings, flaky };
}

/** Runs `work` over `items`, at most `size` at a time; results in the items' order. */
async function pool<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return results;
}
