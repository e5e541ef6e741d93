import { writeFileSync } from 'node:fs';
import type { Argv, CommandModule } from 'yargs';
import { UsageError } from '../errors/usage-error';
import { parseDuration } from '../serve/duration';
import { modes } from './modes';

/** Exit code when plans diverged from the reference (findings). */
export const EXIT_FINDINGS = 3;

interface ExploreArgs {
  controller: string;
  workload: string;
  db?: string;
  crds?: string[];
  out: string;
  parallel: number;
  shard?: string;
  seed: number;
  budget?: string;
  settle: string;
  hold: string;
}

const runCommand: CommandModule<object, ExploreArgs> = {
  command: '$0',
  describe: 'Run a controller under a workload against its own serve, learn the reference, then re-run it with stale, unobserved and intermediate states and report what diverged',
  builder: (y) =>
    y
      .option('controller', { type: 'string', demandOption: true, describe: "the controller's command (run by a shell, with KUBECONFIG pointing at its own serve)" })
      .option('workload', { type: 'string', demandOption: true, describe: 'workload file: the steps kubetape performs as its own client' })
      .option('db', { type: 'string', describe: 'start from this recording (default: an empty v1.26 cluster)' })
      .option('crds', { type: 'string', array: true, describe: 'CustomResourceDefinition file or folder to install; repeatable' })
      .option('out', { type: 'string', default: 'explore-results', describe: 'results folder (oracle, plans, findings, logs)' })
      .option('parallel', { type: 'number', default: 1, describe: 'plans run side by side, each against its own serve' })
      .option('shard', { type: 'string', describe: 'i/n: run the i-th share (0-based) of n; "/n" takes i from JOB_COMPLETION_INDEX' })
      .option('seed', { type: 'number', default: 1, describe: 'seed of generated names and uids' })
      .option('budget', { type: 'string', describe: 'stop starting plans after this long (e.g. 10m)' })
      .option('settle', { type: 'string', default: '1500ms', describe: 'a run ends once the controller has not written for this long' })
      .option('hold', { type: 'string', default: '1500ms', describe: "how long a stale-state plan holds the controller's watches" }),
  handler: async (args) => {
    stopControllersOnSignals();
    const { explore, mergeResults, summaryText } = modes.explore();
    const { summary } = await explore({
      controller: args.controller,
      workload: args.workload,
      db: args.db,
      crds: args.crds,
      out: args.out,
      parallel: args.parallel,
      shard: args.shard === undefined ? undefined : parseShard(args.shard, process.env.JOB_COMPLETION_INDEX),
      seed: args.seed,
      budgetMs: args.budget === undefined ? undefined : duration('--budget', args.budget),
      settleMs: duration('--settle', args.settle),
      holdMs: duration('--hold', args.hold),
      say: (line) => process.stderr.write(`${line}\n`),
    });
    process.stdout.write(summaryText(mergeResults([args.out])));
    if (summary.plansNotRun > 0) process.stderr.write(`kubetape: the budget ran out: ${summary.plansNotRun} plans not run\n`);
    const found = Object.values(summary.findings).reduce((a, b) => a + b, 0);
    process.exitCode = found > 0 ? EXIT_FINDINGS : summary.plansNotRun > 0 ? 1 : 0;
  },
};

const reportCommand: CommandModule<object, { results: string[]; html?: string }> = {
  command: 'report <results..>',
  describe: 'Merge result folders (shards) and print a summary; --html writes a page of the findings',
  builder: (y) => y.positional('results', { type: 'string', array: true, demandOption: true }).option('html', { type: 'string', describe: 'write a self-contained HTML page here' }),
  handler: (args) => {
    const { exploreReportHtml, mergeResults, summaryText } = modes.explore();
    const report = mergeResults(args.results);
    process.stdout.write(summaryText(report));
    if (args.html) writeFileSync(args.html, exploreReportHtml(report));
    process.exitCode = report.findings.length > 0 ? EXIT_FINDINGS : 0;
  },
};

const rerunCommand: CommandModule<object, { plan: string }> = {
  command: 'rerun <plan>',
  describe: 'Run one plan again (results/plan-NNN.yaml) and compare with the oracle beside it',
  builder: (y) => y.positional('plan', { type: 'string', demandOption: true }),
  handler: async (args) => {
    stopControllersOnSignals();
    const { rerunPlan, summaryText } = modes.explore();
    const { finding, perturbed } = await rerunPlan(args.plan);
    if (!finding) {
      process.stdout.write(`no divergence${perturbed ? '' : " (the plan's moment never came in this run)"}\n`);
      return;
    }
    process.stdout.write(summaryText({ folders: [], plans: 1, plansRun: 1, plansNotRun: 0, findings: [{ ...finding, folder: '' }], flaky: [], perClass: { 'stale-state': 0, 'unobserved-state': 0, 'intermediate-state': 0, [finding.class]: 1 } }));
    process.exitCode = EXIT_FINDINGS;
  },
};

/** Interrupted (Ctrl-C, a CI job cancelled): the controllers' process groups go too, then exit 130 / 143. */
function stopControllersOnSignals(): void {
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.once(signal, () => {
      modes.explore().killAllControllers();
      process.exit(code);
    });
  }
}

/** `kubetape explore` (run), `explore report`, `explore rerun`. */
export const exploreCommand: CommandModule = {
  command: 'explore',
  describe: "Find a controller's bugs by perturbing what it sees: stale, unobserved and intermediate states",
  builder: (y: Argv) => y.command(reportCommand).command(rerunCommand).command(runCommand as unknown as CommandModule),
  handler: () => {},
};

/** `i/n` (0-based i), or `/n` with i from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job). */
export function parseShard(text: string, jobIndex?: string): { index: number; count: number } {
  const m = /^(\d*)\/(\d+)$/.exec(text.trim());
  const index = m && m[1] !== '' ? Number(m[1]) : Number(jobIndex);
  const count = m ? Number(m[2]) : NaN;
  if (!m || !(count > 0) || !Number.isInteger(index) || index < 0 || index >= count) {
    throw new UsageError(`--shard must be i/n with 0 <= i < n (or /n with JOB_COMPLETION_INDEX set), got ${text}`);
  }
  return { index, count };
}

function duration(flag: string, value: string): number {
  try {
    return parseDuration(value);
  } catch (err) {
    throw new UsageError(`${flag}: ${(err as Error).message}`);
  }
}
