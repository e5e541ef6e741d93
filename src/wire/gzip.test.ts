import * as zlib from 'node:zlib';
import { transcriptBody, transcriptHeaders } from '../../test/support/transcripts';
import { GZIP_MIN_BYTES, gunzipSafe, isGzip } from './gzip';

describe('isGzip', () => {
  it('reads Content-Encoding from a value or a headers object', () => {
    expect(isGzip(transcriptHeaders('h1-big-list-gzip'))).toBe(true);
    expect(isGzip(transcriptHeaders('h3-small-list-gzip'))).toBe(false);
    expect(isGzip({ 'Content-Encoding': 'GZIP' })).toBe(true);
    expect(isGzip('x-gzip')).toBe(true);
    expect(isGzip(['gzip'])).toBe(true);
    expect(isGzip('identity, gzip')).toBe(true);
    expect(isGzip('gzip, br')).toBe(false);
    expect(isGzip('br')).toBe(false);
    expect(isGzip(undefined)).toBe(false);
    expect(isGzip({})).toBe(false);
  });
});

describe('gunzipSafe', () => {
  it('inflates the h1 JSON list (60 configmaps, above the 128 KiB threshold)', () => {
    const out = gunzipSafe(transcriptBody('h1-big-list-gzip'));
    if (out instanceof Error) throw out;
    expect(out.length).toBeGreaterThanOrEqual(GZIP_MIN_BYTES);
    expect(JSON.parse(out.toString()).items).toHaveLength(60);
  });

  it('inflates the h5 protobuf list', () => {
    const out = gunzipSafe(transcriptBody('h5-big-list-protobuf-gzip'));
    expect(out).toBeInstanceOf(Buffer);
    expect((out as Buffer).subarray(0, 4)).toEqual(Buffer.from('k8s\0'));
  });

  it('returns an Error for corrupt or truncated input, or decodes a truncated prefix when asked', () => {
    const gz = transcriptBody('h1-big-list-gzip');
    expect(gunzipSafe(Buffer.from('not gzip'))).toBeInstanceOf(Error);
    expect(gunzipSafe(gz.subarray(0, 2000))).toBeInstanceOf(Error);
    const partial = gunzipSafe(gz.subarray(0, 2000), { allowTruncated: true });
    expect(partial).toBeInstanceOf(Buffer);
    expect((partial as Buffer).toString('latin1', 0, 26)).toBe('{"kind":"ConfigMapList","a');
  });

  it('stops at maxOutputBytes', () => {
    const bomb = zlib.gzipSync(Buffer.alloc(1 << 20));
    expect(gunzipSafe(bomb, { maxOutputBytes: 1000 })).toBeInstanceOf(Error);
  });
});
