import type { CommandModule } from 'yargs';
import { DEFAULT_LISTEN } from '../http/listen';
import { modes } from './modes';
import { runUntilSignal } from './run-server';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

interface RecordArgs {
  db: string;
  upstream?: string;
  kubeconfig?: string;
  context?: string;
  listen: string;
  'write-kubeconfig'?: string;
  'accept-hosts'?: string;
  'keep-secrets': boolean;
  complete: boolean;
  'log-level': (typeof LOG_LEVELS)[number];
  faults?: string;
}

/** `kubetape record`: a proxy to the cluster that records every exchange into the file. */
export const recordCommand: CommandModule<object, RecordArgs> = {
  command: 'record',
  describe: 'Proxy clients to a cluster and record every exchange (watches as frames) into an SQLite file',
  builder: (y) =>
    y
      .option('db', { type: 'string', demandOption: true, describe: 'recording file (created, or appended to)' })
      .option('upstream', { type: 'string', describe: 'upstream URL, no credentials (the client\'s own are passed through)' })
      .option('kubeconfig', { type: 'string', describe: 'kubeconfig for the upstream and its credentials (default $KUBECONFIG or ~/.kube/config)' })
      .option('context', { type: 'string', describe: 'kubeconfig context (default: its current context)' })
      .conflicts('upstream', ['kubeconfig', 'context'])
      .option('listen', { type: 'string', default: DEFAULT_LISTEN, describe: 'HOST:PORT (port 0: any free port)' })
      .option('accept-hosts', { type: 'string', describe: 'comma-separated regular expressions: Host names accepted besides the listen address and loopback names (as kubectl proxy)' })
      .option('write-kubeconfig', { type: 'string', describe: 'write a kubeconfig pointing clients at the proxy here' })
      .option('keep-secrets', { type: 'boolean', default: false, describe: 'keep Secret data/stringData (redacted by default)' })
      .option('complete', { type: 'boolean', default: false, describe: 'also list whole objects of resources a client saw only as Tables or metadata (kubectl get)' })
      .option('log-level', { choices: LOG_LEVELS, default: 'info' as const, describe: 'log level (JSON lines on stderr)' })
      .option('faults', { type: 'string', describe: 'fault rules file (YAML or JSON); also managed at /_kubetape/faults' }),
  handler: async (args) => {
    const { record } = modes.record();
    const { createLogger } = modes.logger();
    const server = await record({
      db: args.db,
      upstream: args.upstream,
      kubeconfig: args.kubeconfig,
      context: args.context,
      listen: args.listen,
      acceptHosts: args['accept-hosts'],
      writeKubeconfig: args['write-kubeconfig'],
      keepSecrets: args['keep-secrets'],
      complete: args.complete,
      faults: args.faults,
      logger: createLogger({ level: args['log-level'] }),
      checkUpstream: true,
    });
    await runUntilSignal(server, 'record');
  },
};
