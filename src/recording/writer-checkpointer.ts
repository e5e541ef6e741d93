/**
 * Entry point of the checkpointer thread (writer-spawn.ts says how it is loaded): copies the
 * recording's WAL into the database file every CHECKPOINT_MS with a connection of its own, so
 * that the writer thread only appends to the WAL. PASSIVE checkpoints never wait for the writer.
 * Told to stop, it closes its connection, sets `stopped[0]` and wakes whoever waits on it.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

interface CheckpointerInit {
  db: string;
  /** Int32Array over a SharedArrayBuffer: 1 once the connection is closed. */
  stopped: Int32Array;
}

const CHECKPOINT_MS = 50;

const { db: path, stopped } = workerData as CheckpointerInit;
const db = new Database(path, { fileMustExist: true });
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy or gone: the writer's own checkpoints (its backstop) and its close cover it
  }
}, CHECKPOINT_MS);

parentPort!.once('message', () => {
  clearInterval(timer);
  db.close();
  Atomics.store(stopped, 0, 1);
  Atomics.notify(stopped, 0);
  parentPort!.close();
});
