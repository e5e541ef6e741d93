import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRecording, type Db } from '../../src/recording/open';
import { RecordingWriter } from '../../src/recording/writer/recording-writer';
import { prepareRecording } from '../../src/recording/writer/prepare-recording';

export interface WriterFixture {
  dir: string;
  db: Db;
  writer: RecordingWriter;
}

/** Registers jest hooks that give each test a fresh recording (`dir/r.db`) with a RecordingWriter on it, closed and removed after. */
export function writerFixture(): WriterFixture {
  const fixture = {} as WriterFixture;
  beforeEach(() => {
    fixture.dir = mkdtempSync(join(tmpdir(), 'writer-'));
    prepareRecording(join(fixture.dir, 'r.db'), { tool: 'test' });
    fixture.db = openRecording(join(fixture.dir, 'r.db'));
    fixture.writer = new RecordingWriter(fixture.db, { keepSecrets: false });
  });
  afterEach(() => {
    fixture.writer.close();
    rmSync(fixture.dir, { recursive: true, force: true });
  });
  return fixture;
}
