import yargs from 'yargs';
import { describeFailure } from './errors';
import { recordCommand } from './record';
import { serveCommand } from './serve';
import { replayCommand } from './replay';
import { inspectCommand } from './inspect';
import { uiCommand } from './ui';
import { exploreCommand } from './explore';

/** Entry point of the `kubetape` binary. Handlers hold no logic: parse → factory → exit code. */
export async function main(argv: string[]): Promise<void> {
  try {
    await yargs(argv)
      .scriptName('kubetape')
      .command(recordCommand)
      .command(replayCommand)
      .command(serveCommand)
      .command(inspectCommand)
      .command(uiCommand)
      .command(exploreCommand)
      .command('help [command]', 'Show the help of a command', () => undefined, (args) => main([String(args.command ?? ''), '--help'].filter(Boolean)))
      .demandCommand(1, 'name a command: record, replay, serve, inspect, ui or explore')
      .strict()
      // Unknown flags are reported once, by the name given (not also as their camelCase twin).
      .parserConfiguration({ 'camel-case-expansion': false })
      .fail((message, err) => {
        throw err ?? new CliUsage(message);
      })
      .help()
      .alias('h', 'help')
      .parseAsync();
  } catch (err) {
    if (err instanceof CliUsage) {
      process.stderr.write(`kubetape: ${err.message}\nRun kubetape --help for usage.\n`);
      process.exit(2);
    }
    const { line, code } = describeFailure(err);
    process.stderr.write(`${line}\n`);
    process.exit(code);
  }
}

class CliUsage extends Error {}
