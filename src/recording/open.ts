import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { RecordingFormatError } from '../errors/recording-format-error';
import { fileBytes, recordingFileProblem } from './file-check';
import { APPLICATION_ID, SCHEMA_VERSION, migrations } from './schema';

export type Db = Database.Database;

/** The file cannot be used as a recording (src/errors): re-exported for the recording's readers and writers. */
export { RecordingFormatError };

export interface OpenOptions {
  /** Create the file (and schema) when missing; otherwise a missing file is an error. */
  create?: boolean;
  readonly?: boolean;
}

/** Tables (or views) every schema version has; a file without one of them is not a recording. */
const REQUIRED = ['meta', 'exchanges', 'frames', 'observations', 'lists', 'watches'];

/**
 * Opens a recording, creating or migrating its schema when writable. Throws RecordingFormatError
 * for anything that is not a kubetape recording this version understands: a directory, an empty
 * or truncated file, another SQLite database, one missing a table, a damaged one.
 * Read-only, a file with no WAL beside it is opened immutable, so that reading leaves no `-wal`
 * or `-shm` behind; one with a WAL (a recorder is writing it, or was killed) is opened as usual.
 */
export function openRecording(path: string, options: OpenOptions = {}): Db {
  const exists = path !== ':memory:' && existsSync(path);
  if (!exists && !options.create && path !== ':memory:') throw new RecordingFormatError(path, 'no such file');
  const walBytes = exists ? fileBytes(`${path}-wal`) : 0;
  const problem = exists ? recordingFileProblem(path, walBytes) : null;
  if (problem) throw new RecordingFormatError(path, problem);
  const readonly = Boolean(options.readonly) && exists;
  let db: Db;
  try {
    db = withUriFilenames(() => (readonly && walBytes === 0 && openImmutable(path)) || new Database(plainPath(path), { readonly, fileMustExist: !options.create }));
  } catch (err) {
    throw new RecordingFormatError(path, `cannot open: ${(err as Error).message}`);
  }
  try {
    checkAndMigrate(db, path, Boolean(options.readonly));
  } catch (err) {
    db.close();
    if (err instanceof RecordingFormatError) throw err;
    const message = (err as Error).message;
    if (/not a database/i.test(message)) throw new RecordingFormatError(path, 'not a kubetape recording (not an SQLite database)');
    if (/malformed|disk image/i.test(message)) throw new RecordingFormatError(path, `damaged: ${message}`);
    throw new RecordingFormatError(path, `cannot read: ${message}`);
  }
  return db;
}

/** The file opened read-only and immutable (no lock, no -shm or -wal made), or null where URI filenames are off. */
function openImmutable(path: string): Db | null {
  try {
    return new Database(`file:${path.replace(/[%?#]/g, encodeURIComponent)}?immutable=1`, { readonly: true });
  } catch {
    return null;
  }
}

let addonLoaded = false;

/**
 * Runs the first open of the process with `SQLITE_USE_URI=1` in the environment, then puts the
 * variable back: better-sqlite3 loads its addon at the first open and reads the variable then,
 * once, and URI filenames are what let a reader open a file `immutable=1`. When the addon was
 * loaded earlier by other code, immutable opens fail and readers fall back to plain ones.
 */
export function withUriFilenames<T>(open: () => T): T {
  if (addonLoaded) return open();
  const before = process.env.SQLITE_USE_URI;
  process.env.SQLITE_USE_URI = '1';
  try {
    return open();
  } finally {
    addonLoaded = true;
    if (before === undefined) delete process.env.SQLITE_USE_URI;
    else process.env.SQLITE_USE_URI = before;
  }
}

/** A path SQLite cannot take for a URI. */
function plainPath(path: string): string {
  return path.startsWith('file:') ? `./${path}` : path;
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
  if (version !== SCHEMA_VERSION && !(readonly && version > 0)) {
    if (readonly) throw new RecordingFormatError(path, 'not a kubetape recording (no schema)');
    db.transaction(() => {
      for (let v = version; v < SCHEMA_VERSION; v++) db.exec(migrations[v]!);
      db.pragma(`application_id = ${APPLICATION_ID}`);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    })();
  }
  const present = new Set((db.prepare(`SELECT name FROM sqlite_master WHERE type IN ('table', 'view')`).all() as Array<{ name: string }>).map((r) => r.name));
  const missing = REQUIRED.filter((name) => !present.has(name));
  if (missing.length) throw new RecordingFormatError(path, `not a kubetape recording: missing table ${missing.join(', ')}`);
}
