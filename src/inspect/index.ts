import { openRecording } from '../recording/open';
import { readingRecording } from '../recording/recording-read-error';
import { summarize, type RecordingSummary } from './summary';

export type { RecordingSummary, WatchSummary, DecodeErrorSummary, PartialObjectsSummary } from './summary';
export { formatSummary } from './format';

/** Summarises a recording (read-only). Throws RecordingFormatError for a file that is not one, or is damaged. */
export function inspectRecording(path: string): RecordingSummary {
  const db = openRecording(path, { readonly: true });
  try {
    return readingRecording(path, () => summarize(db, path));
  } finally {
    db.close();
  }
}
