import { openRecording } from '../recording/open';
import { readingRecording } from '../recording/recording-read-error';
import { summarize, type RecordingSummary } from './summary';

export type { RecordingSummary, WatchSummary, DecodeErrorSummary, PartialObjectsSummary } from './summary';
export { formatSummary } from './format';

/** Summarises a recording (read-only). Throws RecordingFormatError for a file that is not one, or is damaged. */
/** `onProgress` hears how far the summary got: queries done, of how many. */
export function inspectRecording(path: string, options: { onProgress?: (done: number, total: number) => void } = {}): RecordingSummary {
  const db = openRecording(path, { readonly: true });
  try {
    return readingRecording(path, () => summarize(db, path, options.onProgress));
  } finally {
    db.close();
  }
}
