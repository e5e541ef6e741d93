/**
 * What kube-openapi's handlers (v1.26) answer around the OpenAPI documents, from an empty serve and
 * from a recording: the empty 406 (`w.WriteHeader(406)`: no body, no Content-Type, the Vary lines,
 * `/openapi/v2` with gziphandler's `Vary: Accept-Encoding` first), the recorded Vary lines served
 * one by one in their order (reference/openapi/HEADERS.txt), and http.ServeContent's If-None-Match
 * (weak tags, lists, `*`) with a 304 that keeps the Vary lines.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { get } from '../support/http-client';
import { RecordingBuilder } from '../support/recording-builder';

const PROTOBUF_V3 = 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf';
const headerLines = (raw: string[], name: string): string[] => raw.filter((_, i) => i % 2 === 1 && raw[i - 1]!.toLowerCase() === name.toLowerCase());

describe('OpenAPI v3 documents of built-in kinds and of CRDs', () => {
  let api: ServeServer;
  beforeAll(async () => {
    api = await serve({ seed: 3, crds: [join(__dirname, '..', 'fixtures', 'crds', 'widgets.yaml')] });
  });
  afterAll(() => api.close());

  test('take the same Accept: text/plain (curl, browsers) and */* give JSON, a protobuf-only Accept 406', async () => {
    for (const path of ['/openapi/v3/api/v1', '/openapi/v3/apis/example.com/v1']) {
      for (const accept of ['text/plain', '*/*', 'application/json']) {
        const r = await get(`${api.url}${path}`, { headers: { Accept: accept } });
        expect([path, accept, r.status]).toEqual([path, accept, 200]);
        expect(JSON.parse(r.text).openapi).toMatch(/^3\./);
      }
      expect((await get(`${api.url}${path}`, { headers: { Accept: PROTOBUF_V3 } })).status).toBe(406);
    }
  });
});

describe('OpenAPI answers from an empty serve', () => {
  let api: ServeServer;
  beforeAll(async () => {
    api = await serve({ seed: 3 });
  });
  afterAll(() => api.close());

  test('/openapi/v2 406: empty, no Content-Type, Vary: Accept-Encoding then Vary: Accept', async () => {
    const r = await get(`${api.url}/openapi/v2`, { headers: { Accept: 'application/yaml' } });
    expect(r.status).toBe(406);
    expect(r.body.length).toBe(0);
    expect(r.headers['content-type']).toBeUndefined();
    expect(r.headers['content-length']).toBe('0');
    expect(headerLines(r.rawHeaders, 'Vary')).toEqual(['Accept-Encoding', 'Accept']);
  });

  test('/openapi/v3/<gv> 406: empty, Vary: Accept; a 200 has Vary: Accept', async () => {
    const r = await get(`${api.url}/openapi/v3/api/v1`, { headers: { Accept: PROTOBUF_V3 } });
    expect([r.status, r.body.length, r.headers['content-type']]).toEqual([406, 0, undefined]);
    expect(headerLines(r.rawHeaders, 'Vary')).toEqual(['Accept']);
    const ok = await get(`${api.url}/openapi/v3/api/v1`, { headers: { Accept: 'application/json' } });
    expect(headerLines(ok.rawHeaders, 'Vary')).toEqual(['Accept']);
  });

  test('If-None-Match as http.ServeContent: weak tags, lists, `*` give 304 with the Vary lines; other tags 200', async () => {
    const first = await get(`${api.url}/openapi/v2`, { headers: { Accept: 'application/json' } });
    const etag = String(first.headers.etag);
    const status = async (inm: string): Promise<number> => (await get(`${api.url}/openapi/v2`, { headers: { Accept: 'application/json', 'If-None-Match': inm } })).status;
    expect(await status(etag)).toBe(304);
    expect(await status(`W/${etag}`)).toBe(304);
    expect(await status(`"other", ${etag}`)).toBe(304);
    expect(await status(`"other",W/${etag}`)).toBe(304);
    expect(await status('*')).toBe(304);
    expect(await status('"other"')).toBe(200);
    expect(await status(`other, ${etag}`)).toBe(200); // a malformed tag ends the list
    const nm = await get(`${api.url}/openapi/v2`, { headers: { Accept: 'application/json', 'If-None-Match': `W/${etag}` } });
    expect(headerLines(nm.rawHeaders, 'Vary')).toEqual(['Accept-Encoding', 'Accept']);
    expect(nm.headers.etag).toBe(etag);
    expect(nm.headers['content-type']).toBeUndefined();
    expect(nm.headers['content-length']).toBeUndefined();

    const v3 = await get(`${api.url}/openapi/v3/api/v1`);
    const v3nm = await get(`${api.url}/openapi/v3/api/v1`, { headers: { 'If-None-Match': `"x", W/${v3.headers.etag}` } });
    expect(v3nm.status).toBe(304);
    expect(headerLines(v3nm.rawHeaders, 'Vary')).toEqual(['Accept']);
  });
});

describe('OpenAPI answers from a recording', () => {
  let dir: string;
  let api: ServeServer;
  const json = Buffer.from(JSON.stringify({ swagger: '2.0', info: { title: 'Kubernetes', version: 'v1.26.0' }, paths: {}, definitions: {} }));
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-openapi-answers-'));
    const db = join(dir, 'r.db');
    const b = new RecordingBuilder(db);
    const headers: [string, string][] = [
      ['Content-Type', 'text/plain; charset=utf-8'],
      ['Etag', '"REC"'],
      ['Vary', 'Accept-Encoding'],
      ['Vary', 'Accept'],
    ];
    b.add({ url: '/openapi/v2?timeout=32s', responseHeaders: headers, body: json });
    b.add({ url: '/openapi/v3/api/v1', responseHeaders: [['Content-Type', 'text/plain; charset=utf-8'], ['Etag', '"V3"'], ['Vary', 'Accept']], body: Buffer.from('{"openapi":"3.0.0","paths":{}}') });
    b.list({ version: 'v1', resource: 'configmaps', kind: 'ConfigMap' }, { rv: 10, items: [] });
    b.close();
    api = await serve({ db });
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('both recorded Vary lines go back, in order, on the 200 and the 304', async () => {
    const r = await get(`${api.url}/openapi/v2`, { headers: { Accept: 'application/json' } });
    expect(r.status).toBe(200);
    expect(r.body.equals(json)).toBe(true);
    expect(headerLines(r.rawHeaders, 'Vary')).toEqual(['Accept-Encoding', 'Accept']);
    const nm = await get(`${api.url}/openapi/v2`, { headers: { Accept: 'application/json', 'If-None-Match': 'W/"REC"' } });
    expect(nm.status).toBe(304);
    expect(headerLines(nm.rawHeaders, 'Vary')).toEqual(['Accept-Encoding', 'Accept']);
  });

  test('406 as kube-openapi writes it, for v2 and a v3 group-version', async () => {
    const v2 = await get(`${api.url}/openapi/v2`, { headers: { Accept: 'application/yaml' } });
    expect([v2.status, v2.body.length, v2.headers['content-type']]).toEqual([406, 0, undefined]);
    expect(headerLines(v2.rawHeaders, 'Vary')).toEqual(['Accept-Encoding', 'Accept']);
    const v3 = await get(`${api.url}/openapi/v3/api/v1`, { headers: { Accept: PROTOBUF_V3 } });
    expect([v3.status, v3.body.length, v3.headers['content-type']]).toEqual([406, 0, undefined]);
    expect(headerLines(v3.rawHeaders, 'Vary')).toEqual(['Accept']);
  });
});
