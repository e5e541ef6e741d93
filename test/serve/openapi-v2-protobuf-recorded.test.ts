/**
 * `/openapi/v2` as protobuf over a recording: v1.26 answers both forms with sniffed types
 * (`text/plain; charset=utf-8` for JSON, `application/octet-stream` for protobuf;
 * reference/openapi/HEADERS.txt). A recorded protobuf answer is served as recorded; with only the
 * JSON recorded, a protobuf client gets that recorded document encoded (not the built-in one).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as protobuf from 'protobufjs';
import { serve, type ServeServer } from '../../src/serve';
import { encodeOpenApiV2 } from '../../src/wire/openapi-v2-encode';
import { openApiV2Descriptor } from '../../src/wire/openapi-v2-schema';
import { get } from '../support/http-client';
import { RecordingBuilder } from '../support/recording-builder';

type Obj = Record<string, any>;

const PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const SNIFFED_JSON: [string, string] = ['Content-Type', 'text/plain; charset=utf-8'];
const Document = protobuf.Root.fromJSON(openApiV2Descriptor() as protobuf.INamespace).lookupType('openapi.v2.Document');
const decode = (bytes: Buffer): Obj => Document.toObject(Document.decode(bytes), { defaults: false }) as Obj;

const RECORDED = {
  swagger: '2.0',
  info: { title: 'Kubernetes', version: 'v1.29.0' },
  paths: {},
  definitions: { 'io.example.v1.Thing': { type: 'object', 'x-kubernetes-group-version-kind': [{ group: 'example.io', kind: 'Thing', version: 'v1' }] } },
};

async function serveRecording(dir: string, exchanges: { url: string; headers: [string, string][]; body: Buffer }[]): Promise<ServeServer> {
  const db = join(dir, `r${Math.random().toString(36).slice(2)}.db`);
  const b = new RecordingBuilder(db);
  for (const e of exchanges) b.add({ url: e.url, responseHeaders: e.headers, body: e.body });
  b.list({ version: 'v1', resource: 'configmaps', kind: 'ConfigMap' }, { rv: 10, items: [] });
  b.close();
  return serve({ db });
}

describe('/openapi/v2 as protobuf over a recording', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-openapi-v2-pb-rec-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('only the JSON recorded: a protobuf client gets the recorded document encoded, with its ETag; JSON clients get the recorded bytes', async () => {
    const json = Buffer.from(JSON.stringify(RECORDED));
    const v3 = Buffer.from('{"openapi":"3.0.0","info":{"title":"Kubernetes","version":"v1.29.0"},"paths":{}}');
    const api = await serveRecording(dir, [
      { url: '/openapi/v2?timeout=32s', headers: [SNIFFED_JSON, ['Etag', '"REC"']], body: json },
      { url: '/openapi/v3/api/v1', headers: [SNIFFED_JSON], body: v3 },
    ]);
    try {
      const pb = await get(`${api.url}/openapi/v2`, { headers: { Accept: PROTOBUF } });
      expect(pb.status).toBe(200);
      expect(pb.headers['content-type']).toBe('application/octet-stream');
      expect(pb.headers.etag).toBe('"REC"');
      expect(pb.body.equals(encodeOpenApiV2(RECORDED))).toBe(true);
      const doc = decode(pb.body);
      expect(doc.info.version).toBe('v1.29.0');
      expect(doc.definitions.additional_properties.map((p: Obj) => p.name)).toEqual(['io.example.v1.Thing']);
      expect((await get(`${api.url}/openapi/v2`, { headers: { Accept: PROTOBUF, 'If-None-Match': '"REC"' } })).status).toBe(304);

      const asJson = await get(`${api.url}/openapi/v2`, { headers: { Accept: 'application/json' } });
      expect([asJson.status, asJson.headers['content-type'], asJson.body.equals(json)]).toEqual([200, 'text/plain; charset=utf-8', true]);
      const v3Json = await get(`${api.url}/openapi/v3/api/v1`, { headers: { Accept: 'application/json' } });
      expect([v3Json.status, v3Json.body.equals(v3)]).toEqual([200, true]);
    } finally {
      await api.close();
    }
  });

  test('the protobuf answer recorded: served as recorded, byte for byte; a JSON client gets 406', async () => {
    const recorded = Buffer.concat([encodeOpenApiV2(RECORDED), Buffer.from([0x82, 0x01, 0x00])]);
    const api = await serveRecording(dir, [{ url: '/openapi/v2?timeout=32s', headers: [['Content-Type', 'application/octet-stream'], ['Etag', '"REC"']], body: recorded }]);
    try {
      const pb = await get(`${api.url}/openapi/v2`, { headers: { Accept: PROTOBUF } });
      expect([pb.status, pb.headers['content-type'], pb.headers.etag]).toEqual([200, 'application/octet-stream', '"REC"']);
      expect(pb.body.equals(recorded)).toBe(true);
      expect((await get(`${api.url}/openapi/v2`, { headers: { Accept: 'application/json' } })).status).toBe(406);
    } finally {
      await api.close();
    }
  });
});
