/** The file cannot be used as a recording: wrong format, newer schema, unreadable. CLI exit code 2. */
export class RecordingFormatError extends Error {
  override name = 'RecordingFormatError';
  constructor(readonly path: string, reason: string) {
    super(`${path}: ${reason}`);
  }
}
