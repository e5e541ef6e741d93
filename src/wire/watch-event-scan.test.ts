import { transcriptBody } from '../../test/support/transcripts';
import { decodeWatchFrame } from './decode';
import { scanJsonWatchEvent } from './json-watch-scan';
import { PROTOBUF_WATCH_TYPE } from './media-types';
import { scanProtobufWatchEvent } from './protobuf-watch-scan';
import { API_VERSION, KIND, NAME, NAMESPACE, OBJECT, RV, TYPE, UID, spanString, watchEventSpans } from './watch-event-spans';
import { JsonLineFramer, LengthPrefixFramer } from './watch-framer';

const spans = watchEventSpans();

/** The parts a scanner found, as strings; the object as its bytes. */
function scanned(frame: Buffer) {
  const part = (slot: number) => spanString(frame, spans, slot) ?? '';
  return {
    type: part(TYPE), kind: part(KIND), apiVersion: part(API_VERSION), name: part(NAME), namespace: part(NAMESPACE), uid: part(UID),
    rv: part(RV), raw: frame.subarray(spans[OBJECT], spans[OBJECT + 1]),
  };
}

/** The same parts as the decoder reads them, or null when it reads no object (a Status) or fails. */
function decoded(contentType: string, frame: Buffer) {
  try {
    const { type, object: o } = decodeWatchFrame(contentType, frame);
    return o ? { type, kind: o.kind, apiVersion: o.apiVersion, name: o.name, namespace: o.namespace, uid: o.uid, rv: o.resourceVersion, raw: o.raw } : null;
  } catch {
    return null;
  }
}

/** Every frame, each cut short at every length, and each with every byte in turn set to each of `bytes`. */
function variants(frames: Buffer[], bytes: number[]): Buffer[] {
  const out: Buffer[] = [];
  for (const frame of frames) {
    out.push(frame);
    for (let n = 0; n < frame.length; n++) out.push(frame.subarray(0, n));
    for (let i = 0; i < frame.length; i++) {
      for (const b of bytes) {
        const changed = Buffer.from(frame);
        changed[i] = b;
        out.push(changed);
      }
    }
  }
  return out;
}

describe('watch event scanners: whatever they accept, the decoder reads alike', () => {
  it('protobuf: the e2 transcript, and every truncation and single-byte change of it', () => {
    const frames = new LengthPrefixFramer().push(transcriptBody('e2-watch-protobuf'));
    let accepted = 0;
    for (const frame of variants(frames, [0x00, 0x0a, 0x12, 0x5c, 0xff])) {
      if (!scanProtobufWatchEvent(frame, spans)) continue;
      accepted++;
      expect(decoded(PROTOBUF_WATCH_TYPE, frame)).toEqual(scanned(frame));
    }
    // The original frames and the changes inside strings and unread fields are accepted; the rest is left to the decoder.
    expect(accepted).toBeGreaterThan(frames.length);
    frames.forEach((frame) => expect(scanProtobufWatchEvent(frame, spans)).toBe(true));
  });

  it('JSON: the i2 transcript, and every truncation and single-byte change of it, against a full parse', () => {
    const frames = new JsonLineFramer().push(transcriptBody('i2-json-watch-http2')).slice(0, 2);
    let compared = 0;
    for (const frame of variants(frames, [0x20, 0x22, 0x2c, 0x3a, 0x5c, 0x7b, 0x7d, 0xc3])) {
      if (!scanJsonWatchEvent(frame, spans)) continue;
      let event;
      try {
        event = JSON.parse(frame.toString());
      } catch {
        continue; // what follows the identity is not read: broken JSON there is accepted (decode.test.ts)
      }
      compared++;
      const { kind, apiVersion, metadata = {} } = event.object;
      const str = (v: unknown) => (typeof v === 'string' ? v : '');
      const { raw, ...parts } = scanned(frame);
      expect(parts).toEqual({
        type: event.type, kind: str(kind), apiVersion: str(apiVersion), name: str(metadata.name), namespace: str(metadata.namespace),
        uid: str(metadata.uid), rv: str(metadata.resourceVersion),
      });
      expect(JSON.parse(raw.toString())).toEqual(event.object);
    }
    expect(compared).toBeGreaterThan(frames.length);
    frames.forEach((frame) => expect(scanJsonWatchEvent(frame, spans)).toBe(true));
  });
});
test.each([
  ['a broken escape in a name', '{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a\\qb","resourceVersion":"1"}}}\n'],
  ['a broken escape in a key', '{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"na\\qme":"a","resourceVersion":"1"}}}\n'],
])('JSON: %s is left to the full parse, whose error it is', (_what, frame) => {
  expect(scanJsonWatchEvent(Buffer.from(frame), spans)).toBe(false);
  expect(() => decodeWatchFrame('application/json', Buffer.from(frame))).toThrow(/malformed JSON watch event/);
});
