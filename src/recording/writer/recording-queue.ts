import type { Logger } from '../../log/logger';
import { startWriterBackend, type WriterBackend, type WriterBackendKind } from './writer-backend';
import { emptyStats, type Span, type WriterMessage, type WriterReply, type WriterStats } from './writer-protocol';

export interface RecordingQueueOptions {
  db: string;
  keepSecrets: boolean;
  log: Logger;
  /** `worker` (default): decode and SQLite on a worker thread; `inline`: on this thread. */
  backend?: WriterBackendKind;
  /** Session facts for the `meta` table. */
  meta?: Record<string, string>;
}

/** A batch is posted when it holds this many bytes or messages, or after FLUSH_MS. */
const BATCH_BYTES = 1 << 20;
const BATCH_MESSAGES = 2000;
const FLUSH_MS = 20;
/** Streams pause when this many bytes are queued for the writer, and resume below LOW_WATER. */
const HIGH_WATER = 32 << 20;
const LOW_WATER = 8 << 20;

/**
 * The proxy's side of the recording: collects messages and their bytes into batches, hands them
 * to the writer backend, and tells streams to pause while the writer is behind (bounded memory:
 * a watch faster than the writer is slowed down, never buffered without limit).
 */
export class RecordingQueue {
  private msgs: WriterMessage[] = [];
  private parts: Buffer[] = [];
  private pendingBytes = 0;
  private inFlight = 0;
  private timer: NodeJS.Timeout | undefined;
  private waiters: Array<() => void> = [];
  private latest: WriterStats = emptyStats();
  private failed: string | undefined;
  private closed = false;

  private constructor(private readonly backend: WriterBackend, private nextId: number, private readonly log: Logger) {
    backend.onReply((reply) => this.onReply(reply));
  }

  static async start(options: RecordingQueueOptions): Promise<RecordingQueue> {
    const { backend, nextId } = await startWriterBackend(options.backend ?? 'worker', {
      db: options.db,
      keepSecrets: options.keepSecrets,
      meta: options.meta ?? {},
    });
    return new RecordingQueue(backend, nextId, options.log);
  }

  /** The next exchange id, in start order. */
  allocateId(): number {
    return this.nextId++;
  }

  /** Copies nothing: the buffer is referenced until the batch is posted (within FLUSH_MS). */
  span(buf: Buffer | null | undefined): Span | null {
    if (!buf || buf.length === 0) return null;
    const span = { off: this.pendingBytes, len: buf.length };
    this.parts.push(buf);
    this.pendingBytes += buf.length;
    return span;
  }

  /** One span over several buffers, end to end in the batch (not joined here: the batch copies each once). */
  spanOf(bufs: readonly Buffer[]): Span | null {
    const off = this.pendingBytes;
    for (const buf of bufs) this.span(buf);
    return this.pendingBytes > off ? { off, len: this.pendingBytes - off } : null;
  }

  send(msg: WriterMessage): void {
    if (this.closed || this.failed) {
      this.dropBatch();
      return;
    }
    this.msgs.push(msg);
    if (this.pendingBytes >= BATCH_BYTES || this.msgs.length >= BATCH_MESSAGES) this.post();
    else if (!this.timer) this.timer = setTimeout(() => this.post(), FLUSH_MS);
  }

  /** Whether streams should pause until `whenDrained`. */
  get full(): boolean {
    return this.inFlight + this.pendingBytes > HIGH_WATER;
  }

  whenDrained(resume: () => void): void {
    this.waiters.push(resume);
  }

  get stats(): WriterStats & { queuedBytes: number; failed?: string } {
    return { ...this.latest, queuedBytes: this.inFlight + this.pendingBytes, ...(this.failed ? { failed: this.failed } : {}) };
  }

  /** Commits everything sent so far. */
  async flush(): Promise<WriterStats> {
    this.post();
    if (this.failed) return this.latest;
    return this.backend.flush();
  }

  /** Writes what is queued, commits and closes the file. */
  async close(): Promise<WriterStats> {
    if (this.closed) return this.latest;
    this.post();
    this.closed = true;
    await this.backend.close();
    this.releaseWaiters();
    return this.latest;
  }

  private post(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.msgs.length === 0) return;
    // Not zero-filled (every byte is copied over), and the only view of its ArrayBuffer: transferable.
    const data = Buffer.allocUnsafeSlow(this.pendingBytes);
    let off = 0;
    for (const part of this.parts) {
      data.set(part, off);
      off += part.length;
    }
    const bytes = this.pendingBytes;
    const msgs = this.msgs;
    this.msgs = [];
    this.parts = [];
    this.pendingBytes = 0;
    this.inFlight += bytes;
    this.backend.post({ msgs, data }, bytes);
  }

  private dropBatch(): void {
    this.msgs = [];
    this.parts = [];
    this.pendingBytes = 0;
  }

  private onReply(reply: WriterReply): void {
    if (reply.k === 'fatal') {
      this.failed = reply.message;
      this.log.error({ err: reply.message }, 'the recording writer failed; proxying continues without recording');
      this.dropBatch();
      this.inFlight = 0;
      this.releaseWaiters();
      return;
    }
    this.latest = reply.stats;
    if (reply.k === 'ack') {
      this.inFlight -= reply.bytes;
      if (this.inFlight + this.pendingBytes < LOW_WATER) this.releaseWaiters();
    }
  }

  private releaseWaiters(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resume of waiters) resume();
  }
}
