import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { decodeEnvelope, decodeWatchEvent, listItems, readListMeta, readStatus } from '../../src/wire/protobuf';
import { get } from '../support/http-client';
import { builtinProtobuf } from '../../src/serve/builtin-protobuf';
import { CONFIGMAPS, RecordingBuilder, type ResourceRef } from '../support/recording-builder';

const WIDGETS: ResourceRef = { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget' };
import { transcript, transcriptBody, watchLines } from '../support/transcripts';

/**
 * Objects recorded as protobuf are served as protobuf, schema-less, from their recorded bytes:
 * the e2 watch (pb-1 created, patched, deleted) replays byte for byte.
 */
describe('serve: protobuf from recorded protobuf objects', () => {
  let dir: string;
  let api: ServeServer;
  const e2 = transcriptBody('e2-watch-protobuf');

  function frames(body: Buffer): Buffer[] {
    const out: Buffer[] = [];
    for (let pos = 0; pos < body.length; ) {
      const len = body.readUInt32BE(pos);
      out.push(body.subarray(pos + 4, pos + 4 + len));
      pos += 4 + len;
    }
    return out;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-serve-'));
    const db = join(dir, 'pb.db');
    const b = new RecordingBuilder(db);
    const pages = ['a4-page1', 'a4-page2', 'a4-page3'].map(transcript);
    let requestContinue: string | undefined;
    for (const page of pages) {
      b.list(CONFIGMAPS, { namespace: 'tx', rv: 232, items: page.json.items, limit: 12, requestContinue, continue: page.json.metadata.continue });
      requestContinue = page.json.metadata.continue;
    }
    const c1 = watchLines(transcript('c1-watch-rv233-compacted-in-etcd-cache-on')).map((l) => JSON.parse(l));
    b.watch(CONFIGMAPS, { namespace: 'tx', query: 'resourceVersion=232', events: c1.map((e) => ({ type: e.type, object: e.object })) });
    // The e2 watch recorded as the apiserver streamed it: protobuf frames, which the writer decodes.
    b.protobufWatch(CONFIGMAPS, { namespace: 'tx', query: 'resourceVersion=240', body: e2 });
    b.list(WIDGETS, { namespace: 'tx', rv: 232, items: [{ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'tx', resourceVersion: '231' }, spec: { size: 1 } }] });
    b.close();
    api = await serve({ db });
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a protobuf watch replays the recorded frames byte for byte (e2)', async () => {
    const reply = await get(`${api.url}/api/v1/namespaces/tx/configmaps?watch=1&resourceVersion=240&timeoutSeconds=1`, {
      headers: { Accept: 'application/vnd.kubernetes.protobuf;stream=watch' },
    });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/vnd.kubernetes.protobuf;stream=watch');
    expect(reply.body.equals(e2)).toBe(true);
  });

  it('a protobuf list and get carry the recorded objects; JSON-recorded built-ins are encoded with the shipped descriptors; custom resources fall back to JSON or 406', async () => {
    const accept = { Accept: 'application/vnd.kubernetes.protobuf' };
    const list = await get(`${api.url}/api/v1/namespaces/tx/configmaps?resourceVersion=243&resourceVersionMatch=Exact&fieldSelector=metadata.name%3Dpb-1`, { headers: accept });
    expect(list.status).toBe(200);
    expect(list.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    const envelope = decodeEnvelope(list.body);
    expect([envelope.apiVersion, envelope.kind]).toEqual(['v1', 'ConfigMapList']);
    expect(readListMeta(envelope.raw).resourceVersion).toBe('243');
    const [item] = listItems(envelope.raw);
    const modified = decodeWatchEvent(frames(e2)[1]!);
    expect(Buffer.from(item!).equals(decodeEnvelope(modified.object).raw)).toBe(true);

    const recordedJson = (await get(`${api.url}/api/v1/namespaces/tx/configmaps/cm-01`)).json;
    const transcoded = await get(`${api.url}/api/v1/namespaces/tx/configmaps/cm-01`, { headers: accept });
    expect(transcoded.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    const { kind, apiVersion, ...rest } = recordedJson;
    expect(builtinProtobuf().decode('k8s.io.api.core.v1.ConfigMap', decodeEnvelope(transcoded.body).raw)).toEqual(rest);

    const widget = `${api.url}/apis/example.com/v1/namespaces/tx/widgets/w1`;
    const json = await get(widget, { headers: { Accept: 'application/vnd.kubernetes.protobuf, application/json' } });
    expect(json.headers['content-type']).toBe('application/json');
    expect(json.json.metadata.name).toBe('w1');
    const refused = await get(widget, { headers: accept });
    expect(refused.status).toBe(406);
    // The Status itself goes out as protobuf to a protobuf-only client.
    expect(readStatus(decodeEnvelope(refused.body).raw)).toMatchObject({ code: 406, reason: 'NotAcceptable' });
  });
});
