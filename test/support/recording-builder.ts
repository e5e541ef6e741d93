/**
 * Synthetic recordings written through the recording writer (RecordingWriter), as the recorder
 * writes them: each exchange is one batch of writer messages, so the file holds what a recorded
 * session with those bytes would hold (exchanges, frames, and the object log the writer decodes
 * from list, get and watch bodies). Tests control orders, outcomes, timings and bytes without a
 * live upstream.
 */
import { openRecording } from '../../src/recording/open';
import { RecordingWriter } from '../../src/recording/writer/recording-writer';
import { prepareRecording } from '../../src/recording/writer/prepare-recording';
import type { ExchangeHead, Outcome, Span, WriterMessage } from '../../src/recording/writer/writer-protocol';

export interface ExchangeSpec {
  method?: string;
  url: string;
  requestHeaders?: [string, string][];
  requestBody?: Buffer | string;
  /** null: no response head arrived. */
  status?: number | null;
  responseHeaders?: [string, string][];
  body?: Buffer | string;
  outcome?: Outcome;
  durationMs?: number;
  /** A streamed response: its chunks as they arrived, ms after the exchange started. */
  frames?: { offsetMs: number; data: Buffer | string }[];
  upgrade?: boolean;
}

export class RecordingBuilder {
  private readonly writer: RecordingWriter;
  private nextId: number;
  /** Start time of the next exchange (ms since the epoch); each exchange moves it 10 ms on. */
  startedAt = 1_700_000_000_000;

  constructor(readonly path: string, options: { keepSecrets?: boolean } = {}) {
    this.nextId = prepareRecording(path, { tool: 'test' });
    this.writer = new RecordingWriter(openRecording(path), { keepSecrets: options.keepSecrets ?? true });
  }

  /** Writes one exchange; returns its id. */
  add(spec: ExchangeSpec): number {
    const id = this.nextId++;
    const streamed = spec.frames !== undefined;
    const head: ExchangeHead = {
      id,
      startedAt: (this.startedAt += 10),
      method: spec.method ?? 'GET',
      url: spec.url,
      requestHeaders: JSON.stringify(spec.requestHeaders ?? [['Accept', 'application/json']]),
      status: spec.status === undefined ? 200 : spec.status,
      responseHeaders: JSON.stringify(spec.responseHeaders ?? [['Content-Type', 'application/json']]),
      streamed,
      upgrade: spec.upgrade ?? false,
    };
    const outcome = spec.outcome ?? 'complete';
    const durationMs = spec.durationMs ?? 1;
    this.batch((span) => {
      const requestBody = spec.requestBody === undefined ? null : span(spec.requestBody);
      if (!streamed) {
        return [{ k: 'close', id, head, requestBody, responseBody: spec.body === undefined ? null : span(spec.body), outcome, durationMs }];
      }
      return [
        { k: 'open', head, requestBody },
        ...spec.frames!.map((f): WriterMessage => ({ k: 'chunk', id, at: f.offsetMs, data: span(f.data) })),
        { k: 'close', id, outcome, durationMs },
      ];
    });
    return id;
  }

  close(): void {
    this.writer.close();
  }

  /** One writer batch: the messages' spans point into one buffer, as the recorder's queue sends them. */
  private batch(build: (span: (b: Buffer | string) => Span) => WriterMessage[]): void {
    const parts: Buffer[] = [];
    let off = 0;
    const span = (b: Buffer | string): Span => {
      const buf = Buffer.from(b);
      parts.push(buf);
      off += buf.length;
      return { off: off - buf.length, len: buf.length };
    };
    const msgs = build(span);
    this.writer.apply({ msgs, data: Buffer.concat(parts) });
    this.writer.commit();
  }
}
