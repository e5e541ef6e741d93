import { ProtoWriter, encodeVarint, forEachField, readFields, readVarint, toSigned64, varintSize } from './protobuf-fields';
import { WireError } from './wire-error';

describe('varints', () => {
  it.each([0, 1, 127, 128, 300, 16383, 16384, 2 ** 31, 2 ** 32 + 5, 2 ** 53 - 1])('round-trips %d', (n) => {
    const buf = encodeVarint(n);
    expect(buf.length).toBe(varintSize(n));
    const out = { pos: 0 };
    expect(readVarint(buf, 0, buf.length, out)).toBe(n);
    expect(out.pos).toBe(buf.length);
  });

  it('encodes known bytes (410 = 9a 03, as in a Status code)', () => {
    expect(encodeVarint(410)).toEqual(Buffer.from([0x9a, 0x03]));
    expect(encodeVarint(806)).toEqual(Buffer.from([0xa6, 0x06]));
  });

  it('writes negative numbers as 10-byte two’s complement and reads them back signed', () => {
    const buf = encodeVarint(-1);
    expect(buf).toEqual(Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]));
    expect(toSigned64(readVarint(buf, 0, buf.length, { pos: 0 }))).toBe(-1);
    const big = encodeVarint(-5);
    expect(toSigned64(readVarint(big, 0, big.length, { pos: 0 }))).toBe(-5);
  });

  it('rejects a truncated varint and an over-long one', () => {
    expect(() => readVarint(Buffer.from([0x80, 0x80]), 0, 2, { pos: 0 })).toThrow(WireError);
    expect(() => readVarint(Buffer.alloc(11, 0x80), 0, 11, { pos: 0 })).toThrow(/longer than 10 bytes/);
  });
});

describe('field walking', () => {
  const msg = new ProtoWriter().varint(1, 150).string(2, 'testing').varint(3, 0).finish();

  it('reads tags, wire types, values and positions', () => {
    expect(msg.toString('hex')).toBe('089601120774657374696e671800');
    const fields = readFields(msg);
    expect(fields.map((f) => [f.no, f.wire, f.value])).toEqual([
      [1, 0, 150],
      [2, 2, 7],
      [3, 0, 0],
    ]);
    expect(msg.toString('utf8', fields[1].start, fields[1].end)).toBe('testing');
    expect(fields[1].tagStart).toBe(3);
  });

  it('skips fixed32 and fixed64 fields', () => {
    const buf = Buffer.from('0d0102030409010203040506070810 05'.replace(/ /g, ''), 'hex');
    expect(readFields(buf).map((f) => [f.no, f.wire, f.end - f.start])).toEqual([
      [1, 5, 4],
      [1, 1, 8],
      [2, 0, 1],
    ]);
  });

  it('stops when the visitor returns false', () => {
    const seen: number[] = [];
    forEachField(msg, 0, msg.length, (f) => {
      seen.push(f.no);
      return f.no !== 2 ? undefined : false;
    });
    expect(seen).toEqual([1, 2]);
  });

  it.each([
    ['a length running past the end', '120974657374'],
    ['a truncated tag', '80'],
    ['a truncated fixed64', '0901020304'],
    ['a group wire type', '0b'],
    ['field number 0', '0200'],
    ['an invalid wire type 7', '0f'],
    ['a negative length', '12ffffffffffffffffff01'],
  ])('throws WireError on %s', (_what, hex) => {
    expect(() => readFields(Buffer.from(hex, 'hex'))).toThrow(WireError);
  });

  it('bounds-checks the message range', () => {
    expect(() => readFields(msg, 0, msg.length + 1)).toThrow(WireError);
  });
});
