import type { CommandModule } from 'yargs';
import { DEFAULT_LISTEN } from '../http/listen';
import { CONTROLLER_NAMES, NO_CONTROLLERS } from '../serve/controllers/controller-names';
import { CLOCK_MODES, type ClockMode } from '../serve/options';
import { parseDuration } from '../serve/duration';
import { UsageError } from '../errors/usage-error';
import { modes } from './modes';
import { LOG_LEVELS } from './record';
import { numberArg } from './number-arg';
import { progressBar } from './progress-bar';
import { runUntilSignal } from './run-server';

interface ServeArgs {
  db?: string;
  listen: string;
  'write-kubeconfig'?: string;
  'accept-hosts'?: string;
  'compaction-window'?: string;
  'keep-revisions'?: number;
  clock: ClockMode;
  speed?: string;
  'bookmark-interval': string;
  'log-level': (typeof LOG_LEVELS)[number];
  faults?: string;
  seed?: number;
  controllers?: string[];
  crds?: string[];
  out?: string;
  'keep-secrets': boolean;
}

/** `kubetape serve`: an API server whose store is rebuilt from a recording (without one: an empty v1.26 cluster). */
export const serveCommand: CommandModule<object, ServeArgs> = {
  command: 'serve',
  describe: 'Serve the objects of a recording as a kube-apiserver would: resourceVersions, paging, watches, compaction, 410s (no --db: an empty v1.26 cluster)',
  builder: (y) =>
    y
      .option('db', { type: 'string', describe: 'recording file (default: none, an empty v1.26 cluster)' })
      .option('listen', { type: 'string', default: DEFAULT_LISTEN, describe: 'HOST:PORT (port 0: any free port)' })
      .option('accept-hosts', { type: 'string', describe: 'comma-separated regular expressions: Host names accepted besides the listen address and loopback names (as kubectl proxy)' })
      .option('write-kubeconfig', { type: 'string', describe: 'write a kubeconfig pointing clients at the server here' })
      .option('compaction-window', { type: 'string', describe: 'compact history older than this duration, with its unit (e.g. 90s, 5m, like etcd)' })
      .option('keep-revisions', { type: 'number', describe: 'keep only this many revisions below the head' })
      .conflicts('compaction-window', 'keep-revisions')
      .option('clock', { choices: CLOCK_MODES, default: 'end' as ClockMode, describe: 'end: final recorded state; realtime: replay changes at their pace; manual: admin API only' })
      .option('speed', { type: 'string', describe: 'with --clock realtime only: how much faster than recorded the changes arrive (default 1; 2 = twice as fast)' })
      .option('bookmark-interval', { type: 'string', default: '60s', describe: 'interval between watch bookmarks, with its unit (e.g. 1s, 60s)' })
      .option('log-level', { choices: LOG_LEVELS, default: 'info' as const, describe: 'log level (JSON lines on stderr)' })
      .option('faults', { type: 'string', describe: 'fault rules file (YAML or JSON); also managed at /_kubetape/faults' })
      .option('seed', { type: 'number', describe: 'seed for generated names and uids (the same seed gives the same names)' })
      .option('controllers', {
        type: 'string',
        array: true,
        choices: [...CONTROLLER_NAMES, NO_CONTROLLERS],
        coerce: (values: string[]) => values.flatMap((v) => String(v).split(',')).filter((v) => v !== ''),
        describe: `in-process controllers to run, comma-separated: ${CONTROLLER_NAMES.join(', ')} (default: all), or ${NO_CONTROLLERS}`,
      })
      .option('crds', { type: 'string', array: true, describe: 'CustomResourceDefinition file or folder (YAML/JSON, multi-document) to install at start; repeatable' })
      .option('out', { type: 'string', describe: 'record every exchange served, writes included, into this new recording file (as record writes it)' })
      .option('keep-secrets', { type: 'boolean', default: false, describe: 'with --out: keep Secret data/stringData (redacted by default)' }),
  handler: async (args) => {
    if (args.seed !== undefined && !Number.isSafeInteger(args.seed)) throw new UsageError(`--seed must be an integer, got ${args.seed}`);
    const keep = args['keep-revisions'];
    if (keep !== undefined && (!Number.isInteger(keep) || keep < 0)) throw new UsageError(`--keep-revisions must be a non-negative integer, got ${keep}`);
    const speed = args.speed === undefined ? undefined : numberArg('--speed', args.speed, 'a positive number (2 = twice as fast as recorded)', (n) => n > 0);
    if (args['keep-secrets'] && args.out === undefined) throw new UsageError('--keep-secrets applies to --out only');
    if (speed !== undefined && args.clock !== 'realtime') throw new UsageError(`--speed applies to --clock realtime only (the clock is ${args.clock})`);
    const { serve } = modes.serve();
    const { createLogger } = modes.logger();
    const server = await serve({
      db: args.db,
      listen: args.listen,
      acceptHosts: args['accept-hosts'],
      writeKubeconfig: args['write-kubeconfig'],
      compactionWindowMs: args['compaction-window'] === undefined ? undefined : duration('--compaction-window', args['compaction-window']),
      keepRevisions: keep,
      clock: args.clock,
      speed,
      bookmarkIntervalMs: duration('--bookmark-interval', args['bookmark-interval']),
      logger: createLogger({ level: args['log-level'] }),
      faults: args.faults,
      seed: args.seed,
      controllers: args.controllers,
      crds: args.crds,
      onProgress: args.db === undefined ? undefined : progressBar('rebuilding the store', 'observations'),
      out: args.out,
      keepSecrets: args['keep-secrets'],
    });
    await runUntilSignal(server, 'serve');
  },
};

function duration(flag: string, value: string): number {
  try {
    return parseDuration(value);
  } catch (err) {
    throw new UsageError(`${flag}: ${(err as Error).message}`);
  }
}
