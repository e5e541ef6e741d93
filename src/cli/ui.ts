import { spawn } from 'node:child_process';
import type { CommandModule } from 'yargs';
import { DEFAULT_UI_LISTEN } from '../ui/ui-listen';
import { modes } from './modes';
import { LOG_LEVELS } from './record';
import { runUntilSignal } from './run-server';

interface UiArgs {
  db: string;
  listen: string;
  open: boolean;
  'log-level': (typeof LOG_LEVELS)[number];
}

/** `kubetape ui`: a local web page over a recording. */
export const uiCommand: CommandModule<object, UiArgs> = {
  command: 'ui',
  describe: 'See a recording in the browser: timeline, exchanges, objects, time travel, summary (loopback only)',
  builder: (y) =>
    y
      .option('db', { type: 'string', demandOption: true, describe: 'recording file' })
      .option('listen', { type: 'string', default: DEFAULT_UI_LISTEN, describe: 'HOST:PORT on a loopback address (port 0: any free port)' })
      .option('open', { type: 'boolean', default: false, describe: 'open the page in the default browser (xdg-open, open or start)' })
      .option('log-level', { choices: LOG_LEVELS, default: 'info' as const, describe: 'log level (JSON lines on stderr)' }),
  handler: async (args) => {
    const { startUi } = modes.ui();
    const { createLogger } = modes.logger();
    const server = await startUi({ db: args.db, listen: args.listen, logger: createLogger({ level: args['log-level'] }), summary: modes.inspect().inspectRecording });
    if (args.open) openBrowser(server.url);
    await runUntilSignal(server, 'ui');
  },
};

function openBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  spawn(command, [url], { detached: true, stdio: 'ignore' }).on('error', () => process.stderr.write(`kubetape: could not run ${command}; open ${url}\n`)).unref();
}
