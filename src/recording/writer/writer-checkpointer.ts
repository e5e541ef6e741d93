/**
 * Entry point of the checkpointer thread (spawn-recording-worker.ts says how it is loaded): copies the
 * recording's WAL into the database file every CHECKPOINT_MS with a connection of its own, so
 * that the writer thread only appends to the WAL. PASSIVE checkpoints never wait for the writer.
 * It checkpoints only when the writer has committed since, or the last checkpoint left frames
 * behind, so that an idle recorder's ticks do no SQLite work; once the writer has been idle for
 * IDLE_TRUNCATE_MS with everything copied, a -wal file grown past `walLimitBytes` is truncated
 * (the writer cuts it back only at its next commit, which an idle recorder does not make).
 * Told to stop, it closes its connection, sets `stopped` and wakes whoever waits on it.
 */
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

interface CheckpointerInit {
  db: string;
  /** Int32Array over a SharedArrayBuffer: [0] 1 once the connection is closed; [1] transactions the writer has committed. */
  shared: Int32Array;
  /** The writer's journal_size_limit. */
  walLimitBytes: number;
}

const CHECKPOINT_MS = 50;
const IDLE_TRUNCATE_MS = 1000;
const STOPPED = 0;
const COMMITS = 1;

const { db: path, shared, walLimitBytes } = workerData as CheckpointerInit;
// No busy wait: a TRUNCATE checkpoint that waited for readers would hold the writer back meanwhile.
const db = new Database(path, { fileMustExist: true, timeout: 0 });
let seen = 0;
let behind = false;
let lastCommitSeenAt = performance.now();
let truncated = true;
const timer = setInterval(() => {
  const commits = Atomics.load(shared, COMMITS);
  if (commits === seen && !behind) {
    if (!truncated && performance.now() - lastCommitSeenAt >= IDLE_TRUNCATE_MS) truncateIdleWal();
    return;
  }
  if (commits !== seen) {
    lastCommitSeenAt = performance.now();
    truncated = false;
  }
  seen = commits;
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ busy: number; log: number; checkpointed: number }>;
    behind = result !== undefined && result.checkpointed < result.log;
  } catch {
    behind = true; // busy or gone: tried again at the next tick; the writer's own checkpoints (its backstop) and its close cover it
  }
}, CHECKPOINT_MS);

/** Empties a -wal file larger than the limit (TRUNCATE: the writer is idle, it waits at most for this). */
function truncateIdleWal(): void {
  truncated = true;
  try {
    if (statSync(`${path}-wal`).size > walLimitBytes) db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // no -wal file, or busy: the writer's next commit cuts it back
  }
}

parentPort!.once('message', () => {
  clearInterval(timer);
  db.close();
  Atomics.store(shared, STOPPED, 1);
  Atomics.notify(shared, STOPPED);
  parentPort!.close();
});
