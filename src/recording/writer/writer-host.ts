import type { Worker } from 'node:worker_threads';
import { openRecording } from '../open';
import { spawnRecordingWorker } from './spawn-recording-worker';
import { RecordingWriter } from './recording-writer';
import type { WriterCommand, WriterReply } from './writer-protocol';

export interface WriterInit {
  db: string;
  keepSecrets: boolean;
}

/**
 * A transaction is committed this long after its first write, or as soon as it holds COMMIT_ROWS
 * rows (a watch writes about two rows per frame of tens of events, so time is what commits it).
 */
export const COMMIT_MS = commitMs(process.env.KUBETAPE_COMMIT_MS, 50);
const COMMIT_ROWS = 20000;
/** The commit interval: KUBETAPE_COMMIT_MS when it is a number from 1 to 10000 (bench/crash-window.js varies it), else `fallback`. */
function commitMs(env: string | undefined, fallback: number): number {
  const ms = Number(env);
  return env && Number.isFinite(ms) && ms >= 1 && ms <= 10_000 ? ms : fallback;
}

/** The writer checkpoints by itself only when the WAL holds this many pages (64 MiB at 16 KiB). */
const BACKSTOP_CHECKPOINT_PAGES = 4096;
/**
 * The -wal file is cut back to this size whenever the writer starts it over (after a checkpoint
 * that copied all of it), and emptied by the checkpointer once the writer has been idle a while:
 * a burst grows it past this, the next commit or quiet second shrinks it.
 */
export const WAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;
/** How long closing waits for the checkpointer to let go of the file. */
const CHECKPOINTER_STOP_MS = 5000;

/** The checkpointer thread (writer-checkpointer.ts). */
class Checkpointer {
  /** Int32 [stopped, commits]: see CheckpointerInit. */
  private readonly shared = new Int32Array(new SharedArrayBuffer(8));
  private readonly worker: Worker;
  private done = false;

  constructor(db: string) {
    this.worker = spawnRecordingWorker('writer-checkpointer', { db, shared: this.shared, walLimitBytes: WAL_SIZE_LIMIT_BYTES });
    this.worker.unref();
    // Gone early (it could not open the file): checkpoints are left to the writer, and stop() does not wait.
    this.worker.on('error', () => Atomics.store(this.shared, 0, 1));
    this.worker.on('exit', () => Atomics.store(this.shared, 0, 1));
  }

  /** A transaction was committed: there is something to checkpoint. */
  committed(): void {
    Atomics.add(this.shared, 1, 1);
  }

  /** Stops it and waits (synchronously, briefly) until its connection is closed, so that closing the writer's is the last. */
  stop(): void {
    if (this.done) return;
    this.done = true;
    this.worker.postMessage('stop');
    Atomics.wait(this.shared, 0, 0, CHECKPOINTER_STOP_MS);
  }
}

/**
 * Drives a RecordingWriter from commands, on whichever thread it runs: applies batches, commits
 * every COMMIT_MS (a crash loses at most that window), acknowledges bytes so the proxy can
 * release backpressure.
 */
export class WriterHost {
  private readonly writer: RecordingWriter;
  private timer: NodeJS.Timeout | undefined;
  /** When the open transaction got its first row (performance.now()). */
  private firstWriteAt = 0;
  private dead = false;

  private readonly checkpointer: Checkpointer | null;

  constructor(init: WriterInit, private readonly reply: (reply: WriterReply) => void) {
    const db = openRecording(init.db, { create: true });
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    this.checkpointer = init.db === ':memory:' ? null : new Checkpointer(init.db);
    // The checkpointer thread copies the WAL into the file; the writer does it only as a backstop.
    if (this.checkpointer) db.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
    this.writer = new RecordingWriter(db, { keepSecrets: init.keepSecrets });
  }

  /** Commits and closes the file (its last connection: final checkpoint, WAL removed). */
  close(): void {
    if (this.dead) return;
    this.dead = true;
    this.clearTimer();
    try {
      this.checkpointer?.stop();
      this.writer.close();
    } catch (err) {
      this.reply({ k: 'fatal', message: (err as Error)?.message ?? String(err) });
    }
  }

  command(cmd: WriterCommand): void {
    if (this.dead) return;
    try {
      switch (cmd.k) {
        case 'batch':
          if (this.writer.uncommittedRows === 0) this.firstWriteAt = performance.now();
          this.writer.apply(cmd.batch);
          // The timer alone is not enough: batches arriving back to back keep it from running.
          if (this.writer.uncommittedRows >= COMMIT_ROWS || performance.now() - this.firstWriteAt >= COMMIT_MS) this.commit();
          else if (!this.timer && this.writer.uncommittedRows > 0) this.timer = setTimeout(() => this.commitSafely(), COMMIT_MS);
          this.reply({ k: 'ack', bytes: cmd.bytes, stats: this.writer.stats });
          break;
        case 'flush':
          this.commit();
          this.reply({ k: 'flushed', stats: this.writer.stats });
          break;
        case 'close':
          this.close();
          break;
      }
    } catch (err) {
      this.die(err);
    }
  }

  private commit(): void {
    this.clearTimer();
    if (this.writer.commit()) this.checkpointer?.committed();
  }

  private commitSafely(): void {
    try {
      this.commit();
    } catch (err) {
      this.die(err);
    }
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private die(err: unknown): void {
    this.dead = true;
    this.clearTimer();
    this.checkpointer?.stop();
    this.reply({ k: 'fatal', message: (err as Error)?.message ?? String(err) });
    try {
      this.writer.close();
    } catch {
      // already reported
    }
  }
}
