import * as zlib from 'node:zlib';
import { transcriptBody } from '../../test/support/transcripts';
import { watchTooOld } from '../k8s/status';
import { DecodedBody, DecodedList, DecodedObject, decodeBody } from './decode';
import { JSON_TYPE, PROTOBUF_TYPE } from './media-types';
import { decodeEnvelope, encodeEnvelope, encodeList, encodeStatus, listItems } from './protobuf';
import { ProtoWriter } from './protobuf-fields';
import { WireError } from './wire-error';

function asList(d: DecodedBody): DecodedList {
  if (d.type !== 'list') throw new Error(`expected a list, got ${JSON.stringify(d)}`);
  return d;
}

const ids = (items: DecodedObject[]) => items.map((i) => [i.namespace, i.name, i.resourceVersion]);
const json = (b: Buffer) => JSON.parse(b.toString('utf8'));

describe('decodeBody: protobuf', () => {
  const e1 = transcriptBody('e1-list-protobuf');

  it('decodes the e1 list: meta, items, names, RVs, each item enveloped as ConfigMap', () => {
    const list = asList(decodeBody(PROTOBUF_TYPE, e1));
    expect(list).toMatchObject({
      apiVersion: 'v1',
      kind: 'ConfigMapList',
      encoding: 'protobuf',
      resourceVersion: '241',
      continue: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MjQxLCJzdGFydCI6ImNtLTAzXHUwMDAwIn0',
      remainingItemCount: 27,
    });
    expect(ids(list.items)).toEqual([
      ['tx', 'cm-01', '234'],
      ['tx', 'cm-02', '235'],
      ['tx', 'cm-03', '236'],
    ]);
    const typed = listItems(decodeEnvelope(e1).raw);
    list.items.forEach((item, i) => {
      expect(item).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', encoding: 'protobuf', form: 'object' });
      const env = decodeEnvelope(item.raw);
      expect([env.apiVersion, env.kind]).toEqual(['v1', 'ConfigMap']);
      expect(env.raw.equals(typed[i])).toBe(true);
    });
    expect(list.items[0].uid).toBe('78f3290f-efed-4fd5-abe8-be04a4f914d3');
  });

  it('decodes a single enveloped object, keeping the body as raw', () => {
    const object = transcriptBody('e2-watch-protobuf').subarray(4 + 2 + 5 + 3 + 3, 210);
    const d = decodeBody(PROTOBUF_TYPE, object);
    expect(d).toMatchObject({ type: 'object', object: { kind: 'ConfigMap', name: 'pb-1', resourceVersion: '242', form: 'object' } });
    expect(d.type === 'object' && d.object.raw.equals(object)).toBe(true);
  });

  it('decodes the gunzipped h5 list (60 objects)', () => {
    const list = asList(decodeBody(PROTOBUF_TYPE, zlib.gunzipSync(transcriptBody('h5-big-list-protobuf-gzip'))));
    expect(list.resourceVersion).toBe('320');
    expect(list.continue).toBe('');
    expect(list.remainingItemCount).toBeUndefined();
    expect(list.items.map((i) => i.name)).toEqual(Array.from({ length: 60 }, (_, i) => `big-${String(i).padStart(3, '0')}`));
  });

  it('decodes a Status and a PartialObjectMetadataList', () => {
    const status = encodeEnvelope({ apiVersion: 'v1', kind: 'Status' }, encodeStatus(watchTooOld('1', '198')));
    expect(decodeBody(PROTOBUF_TYPE, status)).toEqual({ type: 'status', status: watchTooOld('1', '198') });
    const pom = new ProtoWriter().message(1, new ProtoWriter().string(1, 'a').string(3, 'ns').string(6, '12')).finish();
    const body = encodeEnvelope({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadataList' }, encodeList({ resourceVersion: '13', continue: '' }, [pom]));
    const list = asList(decodeBody(PROTOBUF_TYPE, body));
    expect(list.items[0]).toMatchObject({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', name: 'a', resourceVersion: '12', form: 'metadata' });
  });

  it('refuses a protobuf content type without the magic (never guesses)', () => {
    expect(() => decodeBody(PROTOBUF_TYPE, transcriptBody('h3-small-list-gzip'))).toThrow(WireError);
  });

  it('throws WireError, never anything else, for every truncation of e1', () => {
    const outcomes = new Set<string>();
    for (let cut = 1; cut < e1.length; cut++) {
      try {
        const list = asList(decodeBody(PROTOBUF_TYPE, e1.subarray(0, cut)));
        // Only cutting the trailing empty contentEncoding/contentType fields leaves a valid message.
        expect(cut).toBeGreaterThanOrEqual(e1.length - 4);
        expect(list.items).toHaveLength(3);
        outcomes.add('same list');
      } catch (err) {
        if (!(err instanceof WireError)) throw err;
        outcomes.add('WireError');
      }
    }
    expect([...outcomes].sort()).toEqual(['WireError', 'same list']);
  });
});

describe('decodeBody: JSON', () => {
  it('decodes the f1 Table: columns, rows as table-row items with name/RV from row.object', () => {
    const list = asList(decodeBody(JSON_TYPE, transcriptBody('f1-list-table')));
    expect(list).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1', encoding: 'json', resourceVersion: '245', remainingItemCount: 28 });
    expect(list.continue).toMatch(/^eyJ2/);
    expect((list.columns as { name: string }[]).map((c) => c.name)).toEqual(['Name', 'Data', 'Age']);
    expect(ids(list.items)).toEqual([
      ['tx', 'cm-01', '234'],
      ['tx', 'cm-02', '235'],
    ]);
    expect(list.items[0]).toMatchObject({ form: 'table-row', kind: 'PartialObjectMetadata', uid: '78f3290f-efed-4fd5-abe8-be04a4f914d3' });
    expect(json(list.items[0].raw).cells).toEqual(['cm-01', 1, '76s']);
    expect(list.items[0].raw.toString().startsWith('{"cells":["cm-01",1,"76s"],"object":{"kind":"PartialObjectMetadata"')).toBe(true);
  });

  it('decodes the f2 (kubectl Accept) and f5 (single GET) Tables', () => {
    expect(ids(asList(decodeBody(JSON_TYPE, transcriptBody('f2-list-table-kubectl-accept'))).items)).toEqual([['tx', 'bm-1', '249']]);
    const f5 = asList(decodeBody(JSON_TYPE, transcriptBody('f5-get-table')));
    expect(f5.resourceVersion).toBe('234');
    expect(ids(f5.items)).toEqual([['tx', 'cm-01', '234']]);
  });

  it('decodes the f3 PartialObjectMetadataList with items in metadata form, sliced verbatim', () => {
    const body = transcriptBody('f3-list-partialobjectmetadata');
    const list = asList(decodeBody(JSON_TYPE, body));
    expect(list).toMatchObject({ kind: 'PartialObjectMetadataList', resourceVersion: '250', remainingItemCount: 30 });
    expect(list.items[0]).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', name: 'bm-1', form: 'metadata' });
    expect(body.includes(list.items[0].raw)).toBe(true);
    expect(json(list.items[0].raw)).toEqual(json(body).items[0]);
  });

  it('decodes the gunzipped h1 list: 60 items, each raw the item with kind/apiVersion first, as a GET shows it', () => {
    const body = zlib.gunzipSync(transcriptBody('h1-big-list-gzip'));
    const list = asList(decodeBody(JSON_TYPE, body));
    const parsed = json(body);
    expect(list.resourceVersion).toBe('319');
    expect(list.items).toHaveLength(60);
    list.items.forEach((item, i) => {
      expect(item).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'big', name: parsed.items[i].metadata.name });
      const raw = item.raw.toString();
      expect(raw.startsWith(`{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"${item.name}"`)).toBe(true);
      expect(JSON.parse(raw)).toEqual({ kind: 'ConfigMap', apiVersion: 'v1', ...parsed.items[i] });
    });
    const h5 = asList(decodeBody(PROTOBUF_TYPE, zlib.gunzipSync(transcriptBody('h5-big-list-protobuf-gzip'))));
    expect(h5.items.map((i) => i.uid)).toEqual(list.items.map((i) => i.uid));
  });

  it('gives the same raw bytes for a pretty-printed body (curl User-Agent) as for the compact one', () => {
    const compact = transcriptBody('h3-small-list-gzip');
    const pretty = Buffer.from(JSON.stringify(json(compact), null, 2) + '\n');
    const a = asList(decodeBody(JSON_TYPE, compact));
    const b = asList(decodeBody(JSON_TYPE, pretty));
    expect(b.items.map((i) => i.raw.toString())).toEqual(a.items.map((i) => i.raw.toString()));
    expect(b.remainingItemCount).toBe(29);
  });

  it('decodes a single object, Status bodies (compact and pretty), and a kind List', () => {
    const obj = Buffer.from('{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","namespace":"n","uid":"u","resourceVersion":"5"},"data":{"k":"<v>"}}\n');
    const d = decodeBody('application/json; charset=utf-8', obj);
    expect(d).toMatchObject({ type: 'object', object: { name: 'a', namespace: 'n', uid: 'u', resourceVersion: '5', kind: 'ConfigMap', form: 'object' } });
    expect(d.type === 'object' && d.object.raw.toString()).toBe(obj.toString().trimEnd());
    expect(decodeBody(JSON_TYPE, transcriptBody('d1-get-rv-future'))).toMatchObject({ type: 'status', status: { code: 504, reason: 'Timeout' } });
    expect(decodeBody(JSON_TYPE, transcriptBody('f4-list-table-protobuf'))).toMatchObject({ type: 'status', status: { code: 406, reason: 'NotAcceptable' } });
    const list = asList(decodeBody(JSON_TYPE, Buffer.from('{"kind":"List","apiVersion":"v1","metadata":{"resourceVersion":""},"items":[{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p"}},{"kind":"Service","apiVersion":"v1","metadata":{"name":"s"}}]}')));
    expect(list.items.map((i) => `${i.kind}/${i.name}`)).toEqual(['Pod/p', 'Service/s']);
  });

  it('answers other for discovery, non-objects, other content types and empty bodies', () => {
    expect(decodeBody(JSON_TYPE, Buffer.from('{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[]}')).type).toBe('other');
    expect(decodeBody(JSON_TYPE, Buffer.from('{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"v1","resources":[]}')).type).toBe('other');
    expect(decodeBody(JSON_TYPE, Buffer.from('{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":[{"metadata":{"name":"apps"}}]}')).type).toBe('other');
    expect(decodeBody(JSON_TYPE, Buffer.from('{"swagger":"2.0","info":{}}')).type).toBe('other');
    expect(decodeBody(JSON_TYPE, Buffer.from('["a"]')).type).toBe('other');
    expect(decodeBody('text/plain', Buffer.from('ok'))).toEqual({ type: 'other', reason: 'content type text/plain' });
    expect(decodeBody(JSON_TYPE, Buffer.alloc(0)).type).toBe('other');
  });

  it('sniffs JSON or protobuf when there is no content type', () => {
    expect(decodeBody(undefined, transcriptBody('e1-list-protobuf')).type).toBe('list');
    expect(decodeBody(undefined, transcriptBody('f3-list-partialobjectmetadata')).type).toBe('list');
    expect(decodeBody(undefined, Buffer.from('ok')).type).toBe('other');
  });

  it.each([
    ['truncated', '{"kind":"ConfigMapList","items":[{"metadata":{}}'],
    ['a bad item', '{"kind":"ConfigMapList","items":[{"metadata":{"name":x}}]}'],
    ['a trailing comma', '{"kind":"ConfigMapList","items":[{"metadata":{}},]}'],
    ['a non-object item', '{"kind":"ConfigMapList","items":[1]}'],
    ['data after the object', '{"kind":"ConfigMap","metadata":{}} {}'],
    ['a bad single object', '{"kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":tru}}'],
    ['a bad array', '[1,'],
  ])('throws WireError on malformed JSON: %s', (_what, body) => {
    expect(() => decodeBody(JSON_TYPE, Buffer.from(body))).toThrow(WireError);
  });
});
