import { decodeJsonWatchFrame } from '../../wire/decode-json';
import { decodeProtobufWatchFrame } from '../../wire/decode-protobuf';
import { gunzipSafe } from '../../wire/gzip';
import { scanJsonWatchEvent } from '../../wire/json-watch-scan';
import { isProtobuf, isWatchStream } from '../../wire/media-types';
import { scanProtobufWatchEvent } from '../../wire/protobuf-watch-scan';
import { RV, spanString, watchEventSpans } from '../../wire/watch-event-spans';
import { framerFor, pushFrames, type WatchFramer } from '../../wire/watch-framer';
import { redactJson, redactProtobufFrame, Unredactable } from './redact-secrets';
import type { ExchangeContext } from './exchange-context';
import { PackedWatchEvents } from './packed-watch-events';
import type { RecordingStatements } from './recording-statements';
import type { Outcome } from './writer-protocol';

/** A gzip-encoded stream is indexed at its end, from at most this many compressed bytes. */
const MAX_GZIP_STREAM_BYTES = 64 << 20;

/**
 * One streamed response on its way into the recording. A watch is cut into events, each decoded
 * into the object log; the events completed by one arrival are stored as one frame (whole events
 * only, so replay can cut them again), and each event's observation points at its object inside
 * that frame instead of copying it. Any other stream (follow=true logs, a gzip-encoded watch) is
 * kept as the chunks that arrived.
 * Invariant: the frames' bytes, concatenated in seq order, are the body as received (Secret
 * values aside, when redacted). A stream whose credentials are redacted keeps only what could be
 * parsed and redacted: a bad event, the incomplete tail of a cut stream, or chunks that are not
 * whole events are left out, and `decode_error` says how many bytes and why.
 */
export class StreamRecorder {
  private seq = 0;
  private framer: WatchFramer | null = null;
  private readonly watch: boolean;
  private readonly protobuf: boolean;
  private gzipParts: Buffer[] | null = null;
  private gzipBytes = 0;
  private lastAt = 0;
  events = 0;
  /** Whole events framed so far, decoded or not (the index in `watch event N` errors). */
  private framed = 0;

  /** Frames written so far. */
  get frames(): number {
    return this.seq;
  }

  private firstRv: string | null = null;
  private lastRv: string | null = null;
  private ended: string | null = null;
  private dirty = false;
  private firstError: string | null = null;
  private errorCount = 0;
  /** Bytes of a redacted stream not stored because they could not be redacted. */
  private withheld = 0;
  private withheldWhy: string | null = null;
  /** The observations of the frame being written. */
  private readonly packed = new PackedWatchEvents();
  /** Where the parts of the event being packed are (scanJsonWatchEvent, scanProtobufWatchEvent). */
  private readonly spans = watchEventSpans();

  constructor(private readonly stmts: RecordingStatements, private readonly ctx: ExchangeContext) {
    const { info, head } = ctx;
    this.watch = info.verb === 'watch' || isWatchStream(ctx.responseContentType);
    this.protobuf = isProtobuf(ctx.responseContentType);
    if (!this.watch) return;
    if (ctx.responseGzip) this.gzipParts = [];
    else this.framer = framerFor(ctx.responseContentType);
    const q = info.query;
    stmts.watch({
      exchangeId: head.id, atMs: head.startedAt, apiGroup: info.apiGroup, apiVersion: info.apiVersion, resource: info.resource,
      namespace: info.namespace, labelSelector: q.get('labelSelector') ?? '', fieldSelector: q.get('fieldSelector') ?? '',
      startRv: q.get('resourceVersion'), encoding: this.encoding,
    });
  }

  push(data: Buffer, at: number): void {
    this.lastAt = at;
    if (!this.framer) {
      if (this.ctx.redact) this.withhold(data.length, this.gzipParts ? 'gzip-encoded stream' : 'not whole watch events');
      else this.stmts.frame(this.ctx.head.id, this.seq++, at, data);
      if (this.gzipParts) this.keepCompressed(data);
      return;
    }
    const { frames, broken } = pushFrames(this.framer, data);
    // Not a watch stream after all (or a corrupt length): the whole events before that point are
    // events; everything from there on is kept as raw chunks.
    if (broken) {
      this.noteError(`watch framing: ${broken.reason}`);
      this.framer = null;
    }
    if (frames.length > 0) this.arrival(frames, at);
    if (broken && broken.rest.length > 0) {
      if (this.ctx.redact) this.withhold(broken.rest.length, 'not whole watch events');
      else this.stmts.frame(this.ctx.head.id, this.seq++, at, broken.rest);
    }
  }

  /**
   * The stream ended: the incomplete tail becomes a last frame, a gzip-encoded watch is decoded
   * into the object log, and a watch's row gets its counts and how it ended (`watches.ended`:
   * `outcome`, unless an ERROR event already said expired or error).
   */
  end(outcome: Outcome): void {
    if (this.framer) {
      const rest = this.framer.rest();
      if (rest.length && this.ctx.redact) this.withhold(rest.length, 'the stream ended inside an event');
      else if (rest.length) {
        this.stmts.frame(this.ctx.head.id, this.seq++, this.lastAt, rest);
        if (outcome === 'complete') this.noteError(`stream ended inside a frame (${rest.length} bytes)`);
      }
    }
    if (this.gzipParts) this.indexGzipped(outcome);
    if (this.withheld > 0) this.noteError(`${this.withheld} bytes not stored: they cannot be parsed to redact them (${this.withheldWhy})`);
    if (!this.watch) return;
    this.ended ??= outcome;
    this.dirty = true;
    this.updateCounts();
  }

  /** Writes the watch's event count and RV range (at every commit, so a crash leaves them nearly current). */
  updateCounts(): void {
    if (!this.watch || !this.dirty) return;
    this.dirty = false;
    this.stmts.updateWatch(this.ctx.head.id, this.events, this.firstRv, this.lastRv, this.ended);
  }

  /**
   * The events completed by one arrival: one frame holding them all, and their observations in
   * one `watch_observations` row (an event whose object is not a slice of the frame gets a row of its own).
   */
  private arrival(frames: Buffer[], at: number): void {
    if (this.ctx.redact) {
      frames = frames.map((frame) => this.redactFrame(frame)).filter((frame): frame is Buffer => frame !== null);
      if (frames.length === 0) return;
    }
    const seq = this.seq++;
    let offset = 0;
    for (const frame of frames) {
      if (this.protobuf ? scanProtobufWatchEvent(frame, this.spans) : scanJsonWatchEvent(frame, this.spans)) this.scanned(frame, offset);
      else this.event(frame, at, seq, true, offset);
      offset += frame.length;
    }
    this.writePacked(seq, at);
    this.stmts.frame(this.ctx.head.id, seq, at, joined(frames, offset));
  }

  /** Writes the events packed so far as one row. */
  private writePacked(seq: number, at: number): void {
    if (this.packed.count === 0) return;
    const { info, head } = this.ctx;
    this.stmts.watchObservations({
      exchangeId: head.id, seq, atMs: head.startedAt + at, apiGroup: info.apiGroup, apiVersion: info.apiVersion, resource: info.resource,
      encoding: this.encoding, count: this.packed.count, events: this.packed.take(),
    });
  }

  private get encoding(): 'json' | 'protobuf' {
    return this.protobuf ? 'protobuf' : 'json';
  }

  /**
   * An event as the apiserver writes it (the common case), packed from where a scanner found its
   * parts: the only string made for it is its resourceVersion, for the watch's RV range.
   */
  private scanned(frame: Buffer, frameOffset: number): void {
    const { spans } = this;
    this.framed++;
    this.events++;
    this.dirty = true;
    this.sawRv(spanString(frame, spans, RV) || null);
    this.packed.addScanned(frame, spans, frameOffset);
  }

  /**
   * Decodes one event into the object log. `inFrame`: the event is at `frameOffset` in stored
   * frame `seq`, and its observation points at its object there, packed for the frame's
   * watch_observations row. Otherwise (or when the object is not a slice of the frame), the
   * object is copied into a row of its own.
   */
  private event(frame: Buffer, at: number, seq: number, inFrame: boolean, frameOffset = 0): void {
    const { ctx } = this;
    const index = this.framed++;
    let event;
    try {
      event = this.protobuf ? decodeProtobufWatchFrame(frame) : decodeJsonWatchFrame(frame);
    } catch (err) {
      this.noteError(`watch event ${index}: ${(err as Error).message}`);
      return;
    }
    this.events++;
    this.dirty = true;
    if (event.status) {
      this.ended = event.status.code === 410 ? 'expired' : 'error';
      return;
    }
    const obj = event.object;
    if (!obj) return;
    const rv = obj.resourceVersion || null;
    this.sawRv(rv);
    const { info, head } = ctx;
    const within = inFrame ? offsetWithin(frame, obj.raw) : -1;
    if (within >= 0 && obj.encoding === this.encoding) {
      this.packed.add(event.type, obj.form, obj.kind || null, obj.namespace, obj.name, obj.uid || null, rv, frameOffset + within, obj.raw.length);
      return;
    }
    if (inFrame) this.writePacked(seq, at); // ids stay in event order
    this.stmts.observation({
      exchangeId: head.id, seq, atMs: head.startedAt + at, source: 'watch', event: event.type, form: obj.form,
      apiGroup: info.apiGroup, apiVersion: info.apiVersion, resource: info.resource, kind: obj.kind || null,
      namespace: obj.namespace, name: obj.name, uid: obj.uid || null, rv, encoding: obj.encoding, raw: obj.raw,
    });
  }

  /** The watch's RV range (`watches.first_rv`, `last_rv`) takes in an event's resourceVersion. */
  private sawRv(rv: string | null): void {
    if (!rv) return;
    this.firstRv ??= rv;
    this.lastRv = rv;
  }

  /** A whole event with its credentials redacted; null (withheld) when it cannot be parsed. */
  private redactFrame(frame: Buffer): Buffer | null {
    try {
      return (this.protobuf ? redactProtobufFrame(frame) : redactJson(frame, this.ctx.redact ?? 'secret')) ?? frame;
    } catch (err) {
      if (!(err instanceof Unredactable)) throw err;
      this.framed++;
      this.withhold(frame.length, `watch event: ${err.message}`);
      return null;
    }
  }

  private withhold(bytes: number, why: string): void {
    this.withheld += bytes;
    this.withheldWhy ??= why;
  }

  private keepCompressed(data: Buffer): void {
    if (!this.gzipParts) return;
    this.gzipBytes += data.length;
    if (this.gzipBytes > MAX_GZIP_STREAM_BYTES) {
      this.gzipParts = null;
      this.noteError(`gzip-encoded watch longer than ${MAX_GZIP_STREAM_BYTES} bytes: not indexed`);
      return;
    }
    this.gzipParts.push(Buffer.from(data)); // the batch buffer is reused after this message
  }

  /** A gzip-encoded watch (apiservers do not send one, proxies might): frames stay the raw chunks, events are indexed now. */
  private indexGzipped(outcome: Outcome): void {
    const plain = gunzipSafe(Buffer.concat(this.gzipParts!), { allowTruncated: outcome !== 'complete' });
    this.gzipParts = null;
    if (plain instanceof Error) {
      this.noteError(`gzip: ${plain.message}`);
      return;
    }
    const { frames, broken } = pushFrames(framerFor(this.ctx.responseContentType), plain);
    if (broken) this.noteError(`watch framing: ${broken.reason}`);
    frames.forEach((frame, i) => {
      const stored = this.ctx.redact ? this.redactFrame(frame) : frame;
      if (stored) this.event(stored, this.lastAt, i, false);
    });
  }

  /** Why part of the stream could not be decoded (the first reason, and how many more), or null. */
  get decodeError(): string | null {
    if (this.errorCount <= 1) return this.firstError;
    return `${this.firstError} (and ${this.errorCount - 1} more)`;
  }

  private noteError(message: string): void {
    this.errorCount++;
    this.firstError ??= message;
  }
}

/** The frames as one buffer: a view when they lie back to back in the same memory (a framer's views of one chunk), else a copy. */
function joined(frames: Buffer[], length: number): Buffer {
  const first = frames[0]!;
  let end = first.byteOffset + first.length;
  for (let i = 1; i < frames.length; i++) {
    const f = frames[i]!;
    if (f.buffer !== first.buffer || f.byteOffset !== end) return Buffer.concat(frames, length);
    end += f.length;
  }
  return Buffer.from(first.buffer, first.byteOffset, length);
}

/** Where `part` starts inside `whole` when it is a view of it (the decoder sliced it), else -1. */
function offsetWithin(whole: Buffer, part: Buffer): number {
  const start = part.byteOffset - whole.byteOffset;
  return part.buffer === whole.buffer && start >= 0 && start + part.length <= whole.length ? start : -1;
}
