import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { RecordingFormatError } from '../errors/recording-format-error';
import { APPLICATION_ID, SCHEMA_VERSION, migrations } from './schema';

export type Db = Database.Database;

/** The file cannot be used as a recording (src/errors): re-exported for the recording's readers and writers. */
export { RecordingFormatError };

export interface OpenOptions {
  /** Create the file (and schema) when missing; otherwise a missing file is an error. */
  create?: boolean;
  readonly?: boolean;
}

/**
 * Opens a recording, creating or migrating its schema when writable. Throws RecordingFormatError
 * for anything that is not a kubetape recording this version understands.
 */
export function openRecording(path: string, options: OpenOptions = {}): Db {
  const exists = path !== ':memory:' && existsSync(path);
  if (!exists && !options.create && path !== ':memory:') throw new RecordingFormatError(path, 'no such file');
  let db: Db;
  try {
    db = new Database(path, { readonly: Boolean(options.readonly) && exists, fileMustExist: !options.create });
  } catch (err) {
    throw new RecordingFormatError(path, `cannot open: ${(err as Error).message}`);
  }
  try {
    checkAndMigrate(db, path, Boolean(options.readonly));
  } catch (err) {
    db.close();
    if (err instanceof RecordingFormatError) throw err;
    const message = (err as Error).message;
    throw new RecordingFormatError(path, /not a database|malformed|disk image/i.test(message)
      ? 'not a kubetape recording (not an SQLite database)'
      : `cannot read: ${message}`);
  }
  return db;
}

function checkAndMigrate(db: Db, path: string, readonly: boolean): void {
  const appId = db.pragma('application_id', { simple: true }) as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  const tables = (db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'`).get() as { n: number }).n;
  if (appId !== APPLICATION_ID && !(appId === 0 && tables === 0)) {
    throw new RecordingFormatError(path, 'not a kubetape recording (unknown SQLite database)');
  }
  if (version > SCHEMA_VERSION) {
    throw new RecordingFormatError(path, `recording schema ${version} is newer than this kubetape understands (${SCHEMA_VERSION})`);
  }
  if (!readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  // Readers understand every older schema as it is; a writer migrates it first.
  if (version === SCHEMA_VERSION || (readonly && version > 0)) return;
  if (readonly) throw new RecordingFormatError(path, 'not a kubetape recording (no schema)');
  db.transaction(() => {
    for (let v = version; v < SCHEMA_VERSION; v++) db.exec(migrations[v]!);
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}
