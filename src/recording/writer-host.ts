import { openRecording } from './open';
import { RecordingWriter } from './writer';
import type { WriterCommand, WriterReply } from './writer-protocol';

export interface WriterInit {
  db: string;
  keepSecrets: boolean;
}

/** A transaction is committed this long after its first write, or as soon as it holds COMMIT_ROWS rows. */
export const COMMIT_MS = 50;
const COMMIT_ROWS = 20000;

/**
 * Drives a RecordingWriter from commands, on whichever thread it runs: applies batches, commits
 * every COMMIT_MS (a crash loses at most that window), acknowledges bytes so the proxy can
 * release backpressure.
 */
export class WriterHost {
  private readonly writer: RecordingWriter;
  private timer: NodeJS.Timeout | undefined;
  private dead = false;

  constructor(init: WriterInit, private readonly reply: (reply: WriterReply) => void) {
    this.writer = new RecordingWriter(openRecording(init.db, { create: true }), { keepSecrets: init.keepSecrets });
  }

  /** Commits and closes the file (its last connection: final checkpoint, WAL removed). */
  close(): void {
    if (this.dead) return;
    this.dead = true;
    this.clearTimer();
    try {
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
          this.writer.apply(cmd.batch);
          if (this.writer.uncommittedRows >= COMMIT_ROWS) this.commit();
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
    this.writer.commit();
  }

  private commitSafely(): void {
    this.timer = undefined;
    try {
      this.writer.commit();
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
    this.reply({ k: 'fatal', message: (err as Error)?.message ?? String(err) });
    try {
      this.writer.close();
    } catch {
      // already reported
    }
  }
}
