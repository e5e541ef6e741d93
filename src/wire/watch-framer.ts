/**
 * Incremental framers for a streamed watch body. Contract for both: push() returns the frames
 * completed by the chunk, in order; the concatenation of every frame returned plus rest() equals
 * the bytes pushed, exactly. Frames that lie wholly inside one chunk are views (subarray) of it;
 * only a frame spanning chunks is copied, once, when it completes. When the bytes stop framing
 * (a frame too long, a corrupt length) push() throws a FramingError holding the whole frames
 * before that point and every byte after it, and the framer is empty again: nothing is lost
 * and nothing is handed out twice.
 */
import { isProtobuf } from './media-types';
import { WireError } from './wire-error';

/** Refuse to buffer a single frame beyond this (a corrupt length prefix or a body that is not a watch). */
export const DEFAULT_MAX_FRAME_BYTES = 256 * 1024 * 1024;

export interface FramerOptions {
  maxFrameBytes?: number;
}

/** The bytes stopped framing: `frames` were whole before that point, `rest` is everything pushed after them. */
export class FramingError extends WireError {
  constructor(message: string, readonly frames: Buffer[], readonly rest: Buffer) {
    super(message);
  }
}

export interface WatchFramer {
  push(chunk: Buffer): Buffer[];
  /** Bytes received that do not yet form a whole frame. */
  rest(): Buffer;
}

/** Bytes of an incomplete frame, kept as the chunks they arrived in. */
class Pending {
  parts: Buffer[] = [];
  length = 0;

  add(b: Buffer): void {
    if (b.length === 0) return;
    this.parts.push(b);
    this.length += b.length;
  }

  take(): Buffer {
    const out = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.length);
    this.parts = [];
    this.length = 0;
    return out;
  }

  peek(): Buffer {
    return this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.length);
  }
}

/** JSON watch: one event per line; each frame includes its trailing '\n'. */
export class JsonLineFramer implements WatchFramer {
  private pending = new Pending();
  private readonly maxFrameBytes: number;

  constructor(options: FramerOptions = {}) {
    this.maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  }

  push(chunk: Buffer): Buffer[] {
    const frames: Buffer[] = [];
    let pos = 0;
    if (this.pending.length > 0) {
      const nl = chunk.indexOf(0x0a);
      if (nl < 0) {
        if (this.pending.length + chunk.length > this.maxFrameBytes) throw this.tooLong(frames, chunk, 0);
        this.pending.add(chunk);
        return frames;
      }
      this.pending.add(chunk.subarray(0, nl + 1));
      frames.push(this.pending.take());
      pos = nl + 1;
    }
    for (;;) {
      const nl = chunk.indexOf(0x0a, pos);
      if (nl < 0) break;
      frames.push(chunk.subarray(pos, nl + 1));
      pos = nl + 1;
    }
    if (pos < chunk.length) {
      if (chunk.length - pos > this.maxFrameBytes) throw this.tooLong(frames, chunk, pos);
      this.pending.add(chunk.subarray(pos));
    }
    return frames;
  }

  rest(): Buffer {
    return this.pending.peek();
  }

  /** chunk[0, pos) is in `frames` or pending; the rest of it is not. */
  private tooLong(frames: Buffer[], chunk: Buffer, pos: number): FramingError {
    const rest = Buffer.concat([...this.pending.parts, chunk.subarray(pos)]);
    this.pending = new Pending();
    return new FramingError(`JSON watch frame exceeds ${this.maxFrameBytes} bytes without a newline`, frames, rest);
  }
}

/** Protobuf watch: 4-byte big-endian length + message; each frame includes its prefix. */
export class LengthPrefixFramer implements WatchFramer {
  private pending = new Pending();
  /** Total size (prefix included) of the pending frame, once its prefix is known; 0 before. */
  private expected = 0;
  private readonly maxFrameBytes: number;
  /** While a chunk is pushed: chunk[0, consumed) is in the frames returned or pending. */
  private consumed = 0;

  constructor(options: FramerOptions = {}) {
    this.maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  }

  push(chunk: Buffer): Buffer[] {
    const frames: Buffer[] = [];
    this.consumed = 0;
    try {
      return this.frame(chunk, frames);
    } catch (err) {
      if (!(err instanceof WireError)) throw err;
      const rest = Buffer.concat([...this.pending.parts, chunk.subarray(this.consumed)]);
      this.pending = new Pending();
      this.expected = 0;
      throw new FramingError(err.message, frames, rest);
    }
  }

  private frame(chunk: Buffer, frames: Buffer[]): Buffer[] {
    let pos = 0;
    if (this.pending.length > 0) {
      if (this.expected === 0) {
        const take = Math.min(4 - this.pending.length, chunk.length);
        this.pending.add(chunk.subarray(0, take));
        pos = this.consumed = take;
        if (this.pending.length < 4) return frames;
        const header = this.pending.take();
        this.pending.add(header);
        this.expected = this.frameSize(header, 0);
      }
      const need = this.expected - this.pending.length;
      if (chunk.length - pos < need) {
        this.pending.add(chunk.subarray(pos));
        return frames;
      }
      this.pending.add(chunk.subarray(pos, pos + need));
      frames.push(this.pending.take());
      this.expected = 0;
      pos = this.consumed = pos + need;
    }
    while (chunk.length - pos >= 4) {
      const end = pos + this.frameSize(chunk, pos);
      if (end > chunk.length) break;
      frames.push(chunk.subarray(pos, end));
      pos = this.consumed = end;
    }
    if (pos < chunk.length) {
      const tail = chunk.subarray(pos);
      this.pending.add(tail);
      this.consumed = chunk.length;
      if (tail.length >= 4) this.expected = this.frameSize(tail, 0);
    }
    return frames;
  }

  rest(): Buffer {
    return this.pending.peek();
  }

  private frameSize(buf: Buffer, at: number): number {
    const size = 4 + buf.readUInt32BE(at);
    if (size > this.maxFrameBytes) throw new WireError(`protobuf watch frame of ${size} bytes exceeds ${this.maxFrameBytes}`);
    return size;
  }
}

/** The framer for a watch response's Content-Type: length-prefixed for protobuf, lines for JSON. */
export function framerFor(contentType: string | undefined, options: FramerOptions = {}): WatchFramer {
  return isProtobuf(contentType) ? new LengthPrefixFramer(options) : new JsonLineFramer(options);
}

/**
 * The frames in bytes that begin at a frame boundary (a recorded watch frame: every event of one
 * arrival), in order; bytes after the last whole frame (or from where the bytes stop framing) come
 * last, as they are.
 */
export function splitFrames(data: Buffer, protobuf: boolean): Buffer[] {
  const framer = protobuf ? new LengthPrefixFramer() : new JsonLineFramer();
  const { frames, broken } = pushFrames(framer, data);
  const rest = broken ? broken.rest : framer.rest();
  if (rest.length > 0) frames.push(rest);
  return frames;
}

/**
 * `framer.push(chunk)` for callers that go on when the bytes stop framing: the frames completed
 * (those before the break, if any) and, once broken, why and every byte from there on (the framer
 * is then empty). Only a FramingError is taken as a break.
 */
export function pushFrames(framer: WatchFramer, chunk: Buffer): { frames: Buffer[]; broken?: { reason: string; rest: Buffer } } {
  try {
    return { frames: framer.push(chunk) };
  } catch (err) {
    if (!(err instanceof FramingError)) throw err;
    return { frames: err.frames, broken: { reason: err.message, rest: err.rest } };
  }
}
