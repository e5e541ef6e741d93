import type { CommandModule } from 'yargs';
import { modes } from './modes';
import { progressBar } from './progress-bar';

interface InspectArgs {
  db: string;
  json: boolean;
  html?: string;
}

/** `kubetape inspect`: what a recording holds, at a glance. */
export const inspectCommand: CommandModule<object, InspectArgs> = {
  command: 'inspect',
  describe: 'Summarise a recording: exchanges by verb, resource and status; watches; objects; decode errors',
  builder: (y) =>
    y
      .option('db', { type: 'string', demandOption: true, describe: 'recording file' })
      .option('json', { type: 'boolean', default: false, describe: 'print the summary as JSON' })
      .option('html', { type: 'string', describe: 'write the UI\'s views (timeline, exchanges, objects, time travel, summary) to this self-contained HTML file' }),
  handler: (args) => {
    const { formatSummary, inspectRecording } = modes.inspect();
    if (args.html !== undefined) {
      const bytes = modes.ui().writeReport(args.db, args.html, inspectRecording);
      process.stdout.write(`${args.html}: ${bytes} bytes\n`);
      return;
    }
    const summary = inspectRecording(args.db, { onProgress: progressBar('reading the recording', 'queries') });
    process.stdout.write(args.json ? `${JSON.stringify(summary, null, 2)}\n` : formatSummary(summary));
  },
};
