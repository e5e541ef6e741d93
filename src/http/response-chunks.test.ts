import { chunkOf, inChunk } from './response-chunks';

describe('response chunks', () => {
  it('inChunk: a copy of the data, sitting inside its chunk; chunkOf gives that chunk without a copy', () => {
    const data = Buffer.from('{"type":"ADDED","object":{}}\n'); // 29 bytes
    const framed = inChunk(data);
    expect(framed.equals(data)).toBe(true);
    const chunk = chunkOf(framed);
    expect(chunk.toString('latin1')).toBe(`1d\r\n${data.toString()}\r\n`);
    expect(chunk.buffer).toBe(framed.buffer);
    expect(chunkOf(framed)).toBe(chunk);
  });

  it('chunkOf: any other data framed as a chunk, its length in lowercase hex', () => {
    const data = Buffer.alloc(300, 0x61);
    const chunk = chunkOf(data);
    expect(chunk.subarray(0, 5).toString('latin1')).toBe('12c\r\n');
    expect(chunk.subarray(5, 305).equals(data)).toBe(true);
    expect(chunk.subarray(305).toString('latin1')).toBe('\r\n');
    expect(chunk.length).toBe(307);
  });
});
