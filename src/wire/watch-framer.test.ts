import { transcriptBody } from '../../test/support/transcripts';
import { lengthPrefix } from './protobuf';
import { FramingError, JsonLineFramer, LengthPrefixFramer, WatchFramer, framerFor, splitFrames } from './watch-framer';
import { WireError } from './wire-error';

/** Undoes HTTP/1.1 chunked framing (i1 was captured with curl --raw); returns the chunk payloads. */
function dechunk(raw: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  let pos = 0;
  for (;;) {
    const crlf = raw.indexOf('\r\n', pos);
    const size = parseInt(raw.toString('latin1', pos, crlf), 16);
    if (size === 0) return chunks;
    chunks.push(raw.subarray(crlf + 2, crlf + 2 + size));
    pos = crlf + 2 + size + 2;
  }
}

/** Feeds `chunks`; throws unless the frames plus rest() are exactly the input. Returns the frames. */
function run(framer: WatchFramer, chunks: Buffer[]): Buffer[] {
  const frames = chunks.flatMap((c) => framer.push(c));
  if (!Buffer.concat([...frames, framer.rest()]).equals(Buffer.concat(chunks))) throw new Error('frames + rest() differ from the input');
  return frames;
}

/** Buffer-by-buffer equality without jest's slow deep diff (these loops run thousands of times). */
function same(a: Buffer[], b: Buffer[]): boolean {
  return a.length === b.length && a.every((x, i) => x.equals(b[i]));
}

/** The chunkings for which the framer did not return `expected`. */
function failures(chunkings: Buffer[][], expected: Buffer[], make: () => WatchFramer): number[] {
  return chunkings.flatMap((chunks, i) => (same(run(make(), chunks), expected) ? [] : [i]));
}

/** Deterministic chunk sizes 1..max. */
function randomChunks(buf: Buffer, seed: number, max: number): Buffer[] {
  let s = seed;
  const chunks: Buffer[] = [];
  for (let pos = 0; pos < buf.length; ) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const n = 1 + (s % max);
    chunks.push(buf.subarray(pos, pos + n));
    pos += n;
  }
  return chunks;
}

describe('JsonLineFramer', () => {
  const chunks = dechunk(transcriptBody('i1-json-watch-raw-chunks'));
  const payload = Buffer.concat(chunks);
  const lines = payload.toString('latin1').split(/(?<=\n)/).map((l) => Buffer.from(l, 'latin1'));

  it('frames i1 as sent: one event per HTTP chunk', () => {
    expect(chunks).toHaveLength(2);
    const frames = run(new JsonLineFramer(), chunks);
    expect(frames.map((f) => JSON.parse(f.toString()).type)).toEqual(['ADDED', 'DELETED']);
    expect(frames.every((f) => f[f.length - 1] === 0x0a)).toBe(true);
    expect(frames[0].buffer).toBe(chunks[0].buffer);
  });

  it('frames i1 identically at every split point', () => {
    const splits = Array.from({ length: payload.length + 1 }, (_, k) => [payload.subarray(0, k), payload.subarray(k)]);
    expect(failures(splits, lines, () => new JsonLineFramer())).toEqual([]);
  });

  it('frames byte by byte, and with several frames per chunk', () => {
    expect(same(run(new JsonLineFramer(), randomChunks(payload, 1, 1)), lines)).toBe(true);
    const i2 = transcriptBody('i2-json-watch-http2');
    const i2lines = i2.toString('latin1').split(/(?<=\n)/).map((l) => Buffer.from(l, 'latin1'));
    expect(i2lines.length).toBeGreaterThan(30);
    expect(same(run(new JsonLineFramer(), [i2]), i2lines)).toBe(true);
    const chunkings = Array.from({ length: 50 }, (_, seed) => randomChunks(i2, seed + 1, 1500));
    expect(failures(chunkings, i2lines, () => new JsonLineFramer())).toEqual([]);
  });

  it('keeps an unfinished frame in rest()', () => {
    const framer = new JsonLineFramer();
    expect(framer.push(Buffer.from('{"type":"ADDED"'))).toEqual([]);
    expect(framer.push(Buffer.from(',"object":{}'))).toEqual([]);
    expect(framer.rest().toString()).toBe('{"type":"ADDED","object":{}');
    expect(framer.push(Buffer.from('}\n{"a"')).map(String)).toEqual(['{"type":"ADDED","object":{}}\n']);
    expect(framer.rest().toString()).toBe('{"a"');
  });

  it('refuses to buffer a frame past maxFrameBytes', () => {
    const framer = new JsonLineFramer({ maxFrameBytes: 10 });
    framer.push(Buffer.from('12345'));
    expect(() => framer.push(Buffer.from('678901'))).toThrow(WireError);
  });
});

describe('LengthPrefixFramer', () => {
  const e2 = transcriptBody('e2-watch-protobuf');
  const expected = [e2.subarray(0, 210), e2.subarray(210, 485), e2.subarray(485, 759)];

  it('frames e2 at the offsets in e2-watch-protobuf.frames.txt, prefixes included, as views', () => {
    const frames = run(new LengthPrefixFramer(), [e2]);
    expect(frames.map((f) => [f.readUInt32BE(0), f.length])).toEqual([
      [206, 210],
      [271, 275],
      [270, 274],
    ]);
    expect(frames).toEqual(expected);
    expect(frames.every((f) => f.buffer === e2.buffer)).toBe(true);
  });

  it('frames e2 identically at every split point and every pair of nearby split points', () => {
    const chunkings: Buffer[][] = [];
    for (let k = 0; k <= e2.length; k++) {
      chunkings.push([e2.subarray(0, k), e2.subarray(k)]);
      for (let j = k + 1; j <= Math.min(k + 6, e2.length); j++) chunkings.push([e2.subarray(0, k), e2.subarray(k, j), e2.subarray(j)]);
    }
    expect(failures(chunkings, expected, () => new LengthPrefixFramer())).toEqual([]);
  });

  it('frames byte by byte and in random chunkings', () => {
    expect(same(run(new LengthPrefixFramer(), randomChunks(e2, 7, 1)), expected)).toBe(true);
    const many = Buffer.concat(Array.from({ length: 40 }, () => e2));
    for (let seed = 1; seed <= 30; seed++) expect(run(new LengthPrefixFramer(), randomChunks(many, seed, 700))).toHaveLength(120);
  });

  it('handles empty messages and keeps partial prefixes in rest()', () => {
    const framer = new LengthPrefixFramer();
    expect(framer.push(Buffer.from([0, 0, 0, 0, 0, 0]))).toEqual([Buffer.from([0, 0, 0, 0])]);
    expect(framer.rest()).toEqual(Buffer.from([0, 0]));
    expect(framer.push(Buffer.from([0, 2, 9]))).toEqual([]);
    expect(framer.push(Buffer.from([9]))).toEqual([Buffer.from([0, 0, 0, 2, 9, 9])]);
    expect(framer.rest().length).toBe(0);
  });

  it('refuses a length prefix past maxFrameBytes', () => {
    expect(() => new LengthPrefixFramer({ maxFrameBytes: 100 }).push(lengthPrefix(Buffer.alloc(200)))).toThrow(WireError);
    expect(() => new LengthPrefixFramer().push(Buffer.from([0xff, 0xff, 0xff, 0xff]))).toThrow(WireError);
  });
});

describe('framerFor', () => {
  it('picks by content type', () => {
    expect(framerFor('application/vnd.kubernetes.protobuf;stream=watch')).toBeInstanceOf(LengthPrefixFramer);
    expect(framerFor('application/json')).toBeInstanceOf(JsonLineFramer);
    expect(framerFor(undefined)).toBeInstanceOf(JsonLineFramer);
  });
});

describe('a stream that stops framing', () => {
  /** Pushes the chunks; returns what came out (frames, then the FramingError's frames and rest) and the framer's rest. */
  function run(framer: WatchFramer, chunks: string[] | Buffer[]) {
    const out: Buffer[] = [];
    let error: FramingError | undefined;
    for (const c of chunks) {
      try {
        out.push(...framer.push(Buffer.from(c)));
      } catch (err) {
        error = err as FramingError;
        out.push(...error.frames, error.rest);
        break;
      }
    }
    return { out, error, rest: framer.rest() };
  }

  it.each([
    ['after whole lines, in one chunk', ['{"a":1}\n{"b":2}\n0123456789abcdef'], ['{"a":1}\n', '{"b":2}\n'], '0123456789abcdef'],
    ['growing across chunks', ['{"a":1}\n0123', '456789', 'abcdef'], [], '0123456789abcdef'],
  ])('JSON, a line too long %s: the whole lines, then every other byte once, and the framer is empty', (_what, chunks, frames, tail) => {
    const { out, error, rest } = run(new JsonLineFramer({ maxFrameBytes: 10 }), chunks);
    expect(error).toBeInstanceOf(FramingError);
    expect(error!.frames.map(String)).toEqual(frames);
    expect(error!.rest.toString()).toBe(tail);
    expect(Buffer.concat(out).toString()).toBe(chunks.join(''));
    expect(rest.length).toBe(0);
  });

  it.each([
    ['after a whole frame, in one chunk', (good: Buffer, bad: Buffer) => [Buffer.concat([good, bad])]],
    ['a prefix split across chunks', (good: Buffer, bad: Buffer) => [Buffer.concat([good, bad.subarray(0, 2)]), bad.subarray(2)]],
    ['a whole frame split across chunks, then garbage', (good: Buffer, bad: Buffer) => [good.subarray(0, 3), Buffer.concat([good.subarray(3), bad])]],
  ])('protobuf, an impossible length %s: the whole frame, then every other byte once', (_what, cut) => {
    const good = lengthPrefix(Buffer.from('event'));
    const bad = Buffer.from([0xff, 0xff, 0xff, 0xf0, 1, 2, 3]);
    const { out, error, rest } = run(new LengthPrefixFramer(), cut(good, bad));
    expect(error).toBeInstanceOf(FramingError);
    expect(out[0]!.equals(good)).toBe(true);
    expect(Buffer.concat(out).equals(Buffer.concat([good, bad]))).toBe(true);
    expect(rest.length).toBe(0);
  });

  it('splitFrames keeps the whole frames before garbage and the rest as one piece', () => {
    const good = lengthPrefix(Buffer.from('event'));
    const bad = Buffer.from([0xff, 0xff, 0xff, 0xf0, 1, 2, 3]);
    expect(splitFrames(Buffer.concat([good, good, bad]), true).map((b) => b.toString('hex'))).toEqual([good, good, bad].map((b) => b.toString('hex')));
  });
});
