import { UsageError } from '../errors/usage-error';
import { RecordingFormatError } from '../errors/recording-format-error';

export const EXIT_USAGE = 2;

/** Maps an error to the line the user sees and the exit code. */
export function describeFailure(err: unknown): { line: string; code: number } {
  if (err instanceof UsageError || err instanceof RecordingFormatError) return { line: `kubetape: ${err.message}`, code: EXIT_USAGE };
  const e = err as NodeJS.ErrnoException;
  if (e && (e.code === 'EADDRINUSE' || e.code === 'EACCES' || e.code === 'EADDRNOTAVAIL')) {
    return { line: `kubetape: cannot listen: ${e.message}`, code: EXIT_USAGE };
  }
  return { line: `kubetape: ${e?.stack ?? String(err)}`, code: 1 };
}
