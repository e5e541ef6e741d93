import type { CommandModule } from 'yargs';
import { formatSummary, inspectRecording } from '../inspect';
import { progressBar } from './progress-bar';

interface InspectArgs {
  db: string;
  json: boolean;
}

/** `kubetape inspect`: what a recording holds, at a glance. */
export const inspectCommand: CommandModule<object, InspectArgs> = {
  command: 'inspect',
  describe: 'Summarise a recording: exchanges by verb, resource and status; watches; objects; decode errors',
  builder: (y) =>
    y
      .option('db', { type: 'string', demandOption: true, describe: 'recording file' })
      .option('json', { type: 'boolean', default: false, describe: 'print the summary as JSON' }),
  handler: (args) => {
    const summary = inspectRecording(args.db, { onProgress: progressBar('reading the recording', 'queries') });
    process.stdout.write(args.json ? `${JSON.stringify(summary, null, 2)}\n` : formatSummary(summary));
  },
};
