import type { CommandModule } from 'yargs';
import { DEFAULT_LISTEN } from '../http/listen';
import { DEFAULT_IGNORED_PARAMS, ON_MISS, type OnMiss } from '../replay/options';
import { modes } from './modes';
import { LOG_LEVELS } from './record';
import { numberArg } from './number-arg';
import { runUntilSignal } from './run-server';

interface ReplayArgs {
  db: string;
  listen: string;
  'write-kubeconfig'?: string;
  'accept-hosts'?: string;
  speed: string;
  'on-miss': OnMiss;
  upstream?: string;
  kubeconfig?: string;
  context?: string;
  'ignore-param'?: string[];
  'match-header'?: string[];
  faults?: string;
  'log-level': (typeof LOG_LEVELS)[number];
}

/** `kubetape replay`: answer clients from a recording, byte for byte. */
export const replayCommand: CommandModule<object, ReplayArgs> = {
  command: 'replay',
  describe: 'Answer clients from the recorded exchanges, byte for byte (watches at their recorded pace)',
  builder: (y) =>
    y
      .option('db', { type: 'string', demandOption: true, describe: 'recording file' })
      .option('listen', { type: 'string', default: DEFAULT_LISTEN, describe: 'HOST:PORT (port 0: any free port)' })
      .option('accept-hosts', { type: 'string', describe: 'comma-separated regular expressions: Host names accepted besides the listen address and loopback names (as kubectl proxy)' })
      .option('write-kubeconfig', { type: 'string', describe: 'write a kubeconfig pointing at the replay server here' })
      .option('speed', { type: 'string', default: '1', describe: 'multiplies recorded frame offsets: 0.5 twice as fast, 0 as fast as possible' })
      .option('on-miss', { choices: ON_MISS, default: 'error' as OnMiss, describe: 'error: 404 Status explaining the miss; proxy: forward and record' })
      .option('upstream', { type: 'string', describe: 'upstream URL for --on-miss proxy' })
      .option('kubeconfig', { type: 'string', describe: 'kubeconfig for --on-miss proxy' })
      .option('context', { type: 'string', describe: 'kubeconfig context for --on-miss proxy' })
      .option('ignore-param', {
        type: 'string', array: true,
        describe: `query parameters not matched (replaces the default: ${DEFAULT_IGNORED_PARAMS.join(', ')}; resourceVersion only for a watch after a list that returned it; '' for none)`,
      })
      .option('match-header', { type: 'string', array: true, describe: 'request headers to match besides Accept' })
      .option('faults', { type: 'string', describe: 'fault rules file (YAML or JSON); also managed at /_kubetape/faults' })
      .option('log-level', { choices: LOG_LEVELS, default: 'info' as const, describe: 'log level (JSON lines on stderr)' }),
  handler: async (args) => {
    const { replay, summaryLine } = modes.replay();
    const { createLogger } = modes.logger();
    const server = await replay({
      db: args.db,
      listen: args.listen,
      acceptHosts: args['accept-hosts'],
      writeKubeconfig: args['write-kubeconfig'],
      speed: numberArg('--speed', args.speed, 'a number ≥ 0 (multiplies recorded offsets: 0.5 twice as fast, 0 as fast as possible)', (n) => n >= 0),
      onMiss: args['on-miss'],
      upstream: args.upstream,
      kubeconfig: args.kubeconfig,
      context: args.context,
      ignoreParams: args['ignore-param'],
      matchHeaders: args['match-header'],
      faults: args.faults,
      logger: createLogger({ level: args['log-level'] }),
    });
    const closing = runUntilSignal({ url: server.url, kubeconfigPath: server.kubeconfigPath, close: async () => void (await server.close()) }, 'replay');
    await closing;
    process.stdout.write(`${summaryLine(server.summary())}\n`);
  },
};
