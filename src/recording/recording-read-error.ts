import { RecordingFormatError } from '../errors/recording-format-error';

/**
 * An error met while reading a recording (after it opened: a damaged page, a row that does not
 * parse) as the RecordingFormatError the CLI reports in one line: "damaged: …" for what SQLite
 * finds corrupt, "not a kubetape recording: missing table T" for a table that is not there.
 */
export function recordingReadError(path: string, err: unknown): RecordingFormatError {
  if (err instanceof RecordingFormatError) return err;
  const message = (err as Error)?.message ?? String(err);
  const missing = /no such (table|view|column): (\S+)/.exec(message);
  if (missing) return new RecordingFormatError(path, `not a kubetape recording: missing ${missing[1]} ${missing[2]}`);
  const name = (err as Error)?.name;
  const what = name && name !== 'Error' && name !== 'SqliteError' ? `${name}: ${message}` : message;
  return new RecordingFormatError(path, `damaged: ${what}`);
}

/** Runs `read` over a recording, turning whatever it throws into recordingReadError's one-line error. */
export function readingRecording<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw recordingReadError(path, err);
  }
}
