/**
 * Entry point of the checkpointer thread (spawn-recording-worker.ts says how it is loaded): copies the
 * recording's WAL into the database file every CHECKPOINT_MS with a connection of its own, so
 * that the writer thread only appends to the WAL. PASSIVE checkpoints never wait for the writer.
 * It checkpoints only when the writer has committed since, or the last checkpoint left frames
 * behind, so that an idle recorder's ticks do no SQLite work.
 * Told to stop, it closes its connection, sets `stopped` and wakes whoever waits on it.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

interface CheckpointerInit {
  db: string;
  /** Int32Array over a SharedArrayBuffer: [0] 1 once the connection is closed; [1] transactions the writer has committed. */
  shared: Int32Array;
}

const CHECKPOINT_MS = 50;
const STOPPED = 0;
const COMMITS = 1;

const { db: path, shared } = workerData as CheckpointerInit;
const db = new Database(path, { fileMustExist: true });
let seen = 0;
let behind = false;
const timer = setInterval(() => {
  const commits = Atomics.load(shared, COMMITS);
  if (commits === seen && !behind) return;
  seen = commits;
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ busy: number; log: number; checkpointed: number }>;
    behind = result !== undefined && result.checkpointed < result.log;
  } catch {
    behind = true; // busy or gone: tried again at the next tick; the writer's own checkpoints (its backstop) and its close cover it
  }
}, CHECKPOINT_MS);

parentPort!.once('message', () => {
  clearInterval(timer);
  db.close();
  Atomics.store(shared, STOPPED, 1);
  Atomics.notify(shared, STOPPED);
  parentPort!.close();
});
