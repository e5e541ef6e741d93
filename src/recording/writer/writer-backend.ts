import type { Worker } from 'node:worker_threads';
import { prepareRecording } from './prepare-recording';
import { WriterHost, type WriterInit } from './writer-host';
import { spawnRecordingWorker } from './spawn-recording-worker';
import { emptyStats, type WriterBatch, type WriterCommand, type WriterReply, type WriterStats } from './writer-protocol';

export const WRITER_BACKENDS = ['worker', 'inline'] as const;
export type WriterBackendKind = (typeof WRITER_BACKENDS)[number];

/** Where batches are decoded and written: a worker thread, or this thread. */
export interface WriterBackend {
  post(batch: WriterBatch, bytes: number): void;
  flush(): Promise<WriterStats>;
  close(): Promise<void>;
  onReply(listener: (reply: WriterReply) => void): void;
}

/**
 * Opens (creating or migrating) the recording on this thread, so a file that is not a recording
 * fails here with a RecordingFormatError, then starts the backend that writes it.
 */
export async function startWriterBackend(kind: WriterBackendKind, init: WriterInit & { meta: Record<string, string> }): Promise<{ backend: WriterBackend; nextId: number }> {
  const nextId = prepareRecording(init.db, init.meta);
  const backend = kind === 'worker' ? await WorkerBackend.start(init) : new InlineBackend(init);
  return { backend, nextId };
}

/** Runs the writer host on this thread, one macrotask after each batch arrives. */
class InlineBackend implements WriterBackend {
  private readonly host: WriterHost;
  private listener: (reply: WriterReply) => void = () => undefined;
  private flushes: Array<(stats: WriterStats) => void> = [];

  constructor(init: WriterInit) {
    this.host = new WriterHost(init, (reply) => this.reply(reply));
  }

  post(batch: WriterBatch, bytes: number): void {
    setImmediate(() => this.host.command({ k: 'batch', batch, bytes }));
  }

  flush(): Promise<WriterStats> {
    return new Promise((resolve) => {
      this.flushes.push(resolve);
      setImmediate(() => this.host.command({ k: 'flush' }));
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => setImmediate(() => {
      this.host.close();
      resolve();
    }));
  }

  onReply(listener: (reply: WriterReply) => void): void {
    this.listener = listener;
  }

  private reply(reply: WriterReply): void {
    if (reply.k === 'flushed') this.flushes.shift()?.(reply.stats);
    this.listener(reply);
  }
}

/** The writer on a worker thread (writer-worker.ts; see spawn-recording-worker.ts for how it is loaded). */
class WorkerBackend implements WriterBackend {
  private listener: (reply: WriterReply) => void = () => undefined;
  private flushes: Array<(stats: WriterStats) => void> = [];
  private exited: Promise<void>;
  private fatal = false;
  private closing = false;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: WriterReply) => {
      if (reply.k === 'flushed') this.flushes.shift()?.(reply.stats);
      if (reply.k === 'fatal') this.fail(reply.message);
      else this.listener(reply);
    });
    worker.on('error', (err) => this.fail(err.message));
    this.exited = new Promise((resolve) => worker.once('exit', (code) => {
      if (!this.closing) this.fail(`the writer thread exited (code ${code})`);
      resolve();
    }));
  }

  static async start(init: WriterInit): Promise<WorkerBackend> {
    const worker = spawnRecordingWorker('writer-worker', init);
    await new Promise<void>((resolve, reject) => {
      worker.once('online', resolve);
      worker.once('error', reject);
    });
    return new WorkerBackend(worker);
  }

  post(batch: WriterBatch, bytes: number): void {
    if (this.fatal) return;
    const command: WriterCommand = { k: 'batch', batch, bytes };
    this.worker.postMessage(command, [batch.data.buffer as ArrayBuffer]);
  }

  flush(): Promise<WriterStats> {
    if (this.fatal) return Promise.resolve(emptyStats());
    return new Promise((resolve) => {
      this.flushes.push(resolve);
      this.worker.postMessage({ k: 'flush' } satisfies WriterCommand);
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    // A writer that failed has closed its file and waits for nothing: end its thread.
    if (this.fatal) void this.worker.terminate();
    else this.worker.postMessage({ k: 'close' } satisfies WriterCommand);
    await this.exited;
  }

  onReply(listener: (reply: WriterReply) => void): void {
    this.listener = listener;
  }

  private fail(message: string): void {
    if (this.fatal) return;
    this.fatal = true;
    const flushes = this.flushes;
    this.flushes = [];
    for (const f of flushes) f(emptyStats());
    this.listener({ k: 'fatal', message });
  }
}
