import { transcriptBody } from '../../test/support/transcripts';
import { watchTooOld } from '../k8s/status';
import { decodeWatchFrame } from './decode';
import { JSON_TYPE, PROTOBUF_TYPE, PROTOBUF_WATCH_TYPE } from './media-types';
import { encodeEnvelope, encodeStatus, encodeWatchEvent, lengthPrefix } from './protobuf';
import { JsonLineFramer, LengthPrefixFramer } from './watch-framer';
import { WireError } from './wire-error';

const json = (b: Buffer) => JSON.parse(b.toString('utf8'));

describe('decodeWatchFrame', () => {
  it('decodes the e2 protobuf stream through the LengthPrefixFramer', () => {
    const body = transcriptBody('e2-watch-protobuf');
    const frames = new LengthPrefixFramer().push(body);
    const events = frames.map((f) => decodeWatchFrame(PROTOBUF_WATCH_TYPE, f));
    expect(events.map((e) => [e.type, e.object?.name, e.object?.resourceVersion])).toEqual([
      ['ADDED', 'pb-1', '242'],
      ['MODIFIED', 'pb-1', '243'],
      ['DELETED', 'pb-1', '244'],
    ]);
    events.forEach((e, i) => {
      expect(e.object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', namespace: 'tx', encoding: 'protobuf', form: 'object' });
      expect(lengthPrefix(encodeWatchEvent(e.type, e.object!.raw)).equals(frames[i])).toBe(true);
    });
  });

  it('decodes a protobuf ERROR frame into a Status', () => {
    const frame = lengthPrefix(encodeWatchEvent('ERROR', encodeEnvelope({ apiVersion: 'v1', kind: 'Status' }, encodeStatus(watchTooOld('1', '198')))));
    expect(decodeWatchFrame(PROTOBUF_WATCH_TYPE, frame)).toEqual({ type: 'ERROR', status: watchTooOld('1', '198') });
  });

  it('rejects protobuf frames with a wrong prefix or no magic inside', () => {
    const frame = new LengthPrefixFramer().push(transcriptBody('e2-watch-protobuf'))[0];
    expect(() => decodeWatchFrame(PROTOBUF_WATCH_TYPE, frame.subarray(0, 100))).toThrow(/length prefix/);
    expect(() => decodeWatchFrame(PROTOBUF_WATCH_TYPE, Buffer.from([0, 0]))).toThrow(WireError);
    expect(() => decodeWatchFrame(PROTOBUF_WATCH_TYPE, lengthPrefix(encodeWatchEvent('ADDED', Buffer.from('{}'))))).toThrow(/magic/);
  });

  it('decodes the i1 and i2 JSON streams, raw being the object text sliced from the frame', () => {
    for (const name of ['i2-json-watch-http2']) {
      const body = transcriptBody(name);
      const framer = new JsonLineFramer();
      const frames = framer.push(body);
      expect(framer.rest().length).toBe(0);
      for (const frame of frames) {
        const e = decodeWatchFrame(JSON_TYPE, frame);
        const parsed = json(frame);
        expect(e.type).toBe('ADDED');
        expect(e.object).toMatchObject({ name: parsed.object.metadata.name, resourceVersion: parsed.object.metadata.resourceVersion, kind: 'ConfigMap', encoding: 'json' });
        expect(e.object!.raw.buffer).toBe(frame.buffer);
        expect(e.object!.raw.toString()).toBe(JSON.stringify(parsed.object));
      }
    }
    const i1 = transcriptBody('i1-json-watch-raw-chunks');
    const events = [0x1a2, 0x1a4].map((size, i) => {
      const start = i === 0 ? 5 : 5 + 0x1a2 + 2 + 5;
      return decodeWatchFrame(JSON_TYPE, i1.subarray(start, start + size));
    });
    expect(events.map((e) => [e.type, e.object?.name, e.object?.resourceVersion])).toEqual([
      ['ADDED', 'ev-1', '322'],
      ['DELETED', 'ev-1', '323'],
    ]);
  });

  it('decodes a JSON ERROR event (c2) and a BOOKMARK (g1)', () => {
    const c2 = transcriptBody('c2-watch-rv1-cache-on');
    expect(decodeWatchFrame(JSON_TYPE, c2)).toEqual({ type: 'ERROR', status: watchTooOld('1', '198') });
    const g1 = new JsonLineFramer().push(transcriptBody('g1-watch-bookmarks-70s'));
    const bookmark = decodeWatchFrame(JSON_TYPE, g1[g1.length - 1]);
    expect(bookmark).toMatchObject({ type: 'BOOKMARK', object: { kind: 'ConfigMap', name: '', namespace: '', resourceVersion: '249' } });
    expect(bookmark.object!.raw.toString()).toBe('{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"249","creationTimestamp":null}}');
  });

  it('re-serialises the object when the frame is not in the apiserver layout', () => {
    const e = decodeWatchFrame(JSON_TYPE, Buffer.from('{ "object": {"kind":"Pod","metadata":{"name":"p","resourceVersion":"3"}}, "type": "ADDED" }\n'));
    expect(e.object).toMatchObject({ name: 'p', resourceVersion: '3', kind: 'Pod' });
    expect(e.object!.raw.toString()).toBe('{"kind":"Pod","metadata":{"name":"p","resourceVersion":"3"}}');
  });

  it('decodes a Table watch event (kubectl get -w) as its row', () => {
    const frame = Buffer.from(
      JSON.stringify({
        type: 'MODIFIED',
        object: {
          kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '9' }, columnDefinitions: [{ name: 'Name' }],
          rows: [{ cells: ['a'], object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'a', namespace: 'n', resourceVersion: '9' } } }],
        },
      }) + '\n',
    );
    const e = decodeWatchFrame(JSON_TYPE, frame);
    expect(e.columns).toEqual([{ name: 'Name' }]);
    expect(e.object).toMatchObject({ form: 'table-row', name: 'a', namespace: 'n', resourceVersion: '9' });
    expect(json(e.object!.raw).cells).toEqual(['a']);
  });

  it('switches between content types from one call to the next', () => {
    const pb = new LengthPrefixFramer().push(transcriptBody('e2-watch-protobuf'))[0];
    const js = transcriptBody('c2-watch-rv1-cache-on');
    expect(decodeWatchFrame(PROTOBUF_WATCH_TYPE, pb).type).toBe('ADDED');
    expect(decodeWatchFrame(JSON_TYPE, js).type).toBe('ERROR');
    expect(decodeWatchFrame(undefined, js).type).toBe('ERROR');
    expect(decodeWatchFrame(PROTOBUF_TYPE, pb).type).toBe('ADDED');
    expect(() => decodeWatchFrame('text/plain', js)).toThrow(WireError);
    expect(() => decodeWatchFrame(JSON_TYPE, pb)).toThrow(WireError);
  });

  it.each([
    ['an empty line', '\n'],
    ['a truncated event', '{"type":"ADDED","object":{"kind":"Pod"'],
    ['no type', '{"object":{}}\n'],
    ['no object', '{"type":"ADDED"}\n'],
  ])('throws WireError on %s', (_what, frame) => {
    expect(() => decodeWatchFrame(JSON_TYPE, Buffer.from(frame))).toThrow(WireError);
  });
});

describe('JSON watch frames: the fast path reads what a full parse reads', () => {
  const frame = (text: string) => Buffer.from(`${text}\n`);
  const fields = (text: string) => {
    const event = decodeWatchFrame(JSON_TYPE, frame(text));
    const o = event.object!;
    return { type: event.type, kind: o.kind, apiVersion: o.apiVersion, name: o.name, namespace: o.namespace, uid: o.uid, rv: o.resourceVersion, form: o.form, raw: o.raw.toString() };
  };
  const object = '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"ä-1","namespace":"ns","uid":"u","resourceVersion":"7","labels":{"name":"not-this"}},"data":{"name":"nor this","x":"}\\"{"}}';

  it.each([
    ['the apiserver layout', `{"type":"MODIFIED","object":${object}}`, object],
    ['whitespace inside (the full parse)', `{"type": "MODIFIED", "object": ${object}}`, object],
    ['an escaped key and value', '{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"na\\u006de":"a\\"b","resourceVersion":"8"}}}',
      '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"na\\u006de":"a\\"b","resourceVersion":"8"}}'],
  ])('%s', (_what, text, raw) => {
    const parsed = JSON.parse(text).object;
    expect(fields(text)).toEqual({
      type: JSON.parse(text).type, kind: 'ConfigMap', apiVersion: 'v1', name: parsed.metadata.name, namespace: parsed.metadata.namespace ?? '',
      uid: parsed.metadata.uid ?? '', rv: parsed.metadata.resourceVersion, form: 'object', raw,
    });
  });

  it('PartialObjectMetadata is the metadata form; no metadata gives empty names', () => {
    expect(fields('{"type":"ADDED","object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"p"}}}')).toMatchObject({ form: 'metadata', name: 'p' });
    expect(fields('{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1"}}')).toMatchObject({ name: '', rv: '' });
  });

  it('in the apiserver layout only structure and the identifying fields are read: a bad literal deep inside passes (the full parse would refuse it)', () => {
    const text = '{"type":"ADDED","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"x","resourceVersion":"3"},"data":{"a":tru}}}';
    expect(() => JSON.parse(text)).toThrow();
    expect(fields(text)).toMatchObject({ name: 'x', rv: '3', raw: JSON.stringify({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x', resourceVersion: '3' } }).slice(0, -1) + ',"data":{"a":tru}}' });
  });

  it('fields that repeat from event to event (type, kind, apiVersion, namespace) are reused only while their bytes are the same', () => {
    const event = (type: string, kind: string, apiVersion: string, namespace: string) =>
      `{"type":"${type}","object":{"kind":"${kind}","apiVersion":"${apiVersion}","metadata":{"name":"n","namespace":"${namespace}","resourceVersion":"1"}}}`;
    const seen = [
      event('ADDED', 'ConfigMap', 'v1', 'a'), event('ADDED', 'ConfigMap', 'v1', 'a'), event('MODIFIED', 'Secret', 'v1', 'b'),
      event('DELETED', 'Widget', 'example.com/v1', 'a'), event('CUSTOM', 'Widget', 'example.com/v2', ''), event('ADDED', 'Widget', 'example.com/v2', 'a\\u0062'),
    ].map((text) => fields(text));
    expect(seen.map((f) => [f.type, f.kind, f.apiVersion, f.namespace])).toEqual([
      ['ADDED', 'ConfigMap', 'v1', 'a'], ['ADDED', 'ConfigMap', 'v1', 'a'], ['MODIFIED', 'Secret', 'v1', 'b'],
      ['DELETED', 'Widget', 'example.com/v1', 'a'], ['CUSTOM', 'Widget', 'example.com/v2', ''], ['ADDED', 'Widget', 'example.com/v2', 'ab'],
    ]);
  });

  it.each([
    ['an unstructured object (members in alphabetical order, uid last)',
      '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"annotations":{"uid":"no"},"creationTimestamp":"2026-01-01T00:00:00Z","managedFields":[{"manager":"m","fieldsV1":{"f:spec":{}}}],"name":"w","namespace":"ns","resourceVersion":"9","uid":"u-9"},"spec":{"size":3}}'],
    ['a cluster-scoped object (no namespace: all of metadata is read)',
      '{"kind":"Node","apiVersion":"v1","metadata":{"name":"node-1","uid":"u-n","resourceVersion":"5","managedFields":[{"manager":"kubelet"}]},"status":{"conditions":[{"type":"Ready"}]}}'],
    ['an object whose identifying fields come first (a Pod)',
      '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","namespace":"ns","uid":"u-p","resourceVersion":"6","labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"i"}]},"status":{"phase":"Running"}}'],
  ])('%s: the fast path reads what the full parse reads', (_what, obj) => {
    const text = `{"type":"MODIFIED","object":${obj}}`;
    const parsed = JSON.parse(obj);
    expect(fields(text)).toEqual({
      type: 'MODIFIED', kind: parsed.kind, apiVersion: parsed.apiVersion, name: parsed.metadata.name, namespace: parsed.metadata.namespace ?? '',
      uid: parsed.metadata.uid, rv: parsed.metadata.resourceVersion, form: 'object', raw: obj,
    });
  });

  it('what follows the identifying metadata is not read: broken JSON there passes the fast path (the full parse would refuse it)', () => {
    const obj = '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","namespace":"ns","uid":"u","resourceVersion":"4","labels":{"a":}},"spec":{"x":[}}';
    const text = `{"type":"ADDED","object":${obj}}`;
    expect(() => JSON.parse(text)).toThrow();
    expect(fields(text)).toMatchObject({ name: 'p', namespace: 'ns', uid: 'u', rv: '4', raw: obj });
  });

  it('a member after the object, or broken structure inside it, takes the full parse (and its error)', () => {
    expect(fields(`{"type":"ADDED","object":${object},"extra":1}`).raw).toBe(JSON.stringify(JSON.parse(object)));
    expect(fields(`{"type":"ADDED","object":${object},"extra":"s"}`).raw).toBe(JSON.stringify(JSON.parse(object)));
    expect(() => decodeWatchFrame(JSON_TYPE, frame('{"type":"ADDED","object":{"kind":"ConfigMap","metadata":{"name":"x"}')) ).toThrow(WireError);
  });
});
