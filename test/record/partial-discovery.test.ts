/**
 * Discovery through the recorder: a client's conditional headers (kubectl's discovery cache sends
 * If-None-Match) are not passed upstream for /api, /api/v1, /apis, /apis/G, /apis/G/V, so the
 * recording holds the whole document (the client gets a 200 instead of a 304). Other requests keep them.
 */
import { recordSession, type RecordedSession } from '../support/record-session';
import { httpRequest } from '../support/http-client';
import type { RecordedRequest } from '../support/fake-apiserver';
import { rows } from './support';

const CONDITIONAL = { 'If-None-Match': '"0A1B"', 'If-Modified-Since': 'Mon, 01 Jan 2024 00:00:00 GMT' };
let session: RecordedSession;
let upstreamSaw: RecordedRequest[] = [];
const answers = new Map<string, number>();

beforeAll(async () => {
  session = await recordSession('kubetape-record-discovery-', async ({ fake, kubeconfig }) => {
    // The fake answers any conditional request with a 304, as an apiserver whose ETag matches.
    fake.intercept((req, res) => {
      if (!req.headers['if-none-match']) return false;
      res.writeHead(304, { ETag: '"0A1B"' });
      res.end();
      return true;
    });
    const server = /server: (\S+)/.exec(require('node:fs').readFileSync(kubeconfig, 'utf8'))![1]!;
    const aggregated = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
    for (const path of ['/api', '/apis', '/api/v1', '/apis/example.com', '/apis/example.com/v1', '/api/v1/namespaces/default/configmaps']) {
      const r = await httpRequest(`${server}${path}`, { headers: { Accept: path.split('/').length <= 2 ? aggregated : 'application/json', ...CONDITIONAL } });
      answers.set(path, r.status);
    }
    upstreamSaw = fake.requests.slice();
  });
});

afterAll(() => session?.remove());

test('discovery requests go upstream without If-None-Match / If-Modified-Since; the client gets the 200', () => {
  for (const path of ['/api', '/apis', '/api/v1', '/apis/example.com', '/apis/example.com/v1']) {
    const sent = upstreamSaw.find((r) => r.url === path)!;
    expect(sent.headers['if-none-match']).toBeUndefined();
    expect(sent.headers['if-modified-since']).toBeUndefined();
    expect(answers.get(path)).toBe(200);
  }
});

test('the recording holds the whole discovery documents', () => {
  const recorded = rows<{ url: string; status: number; n: number }>(session.db,
    `SELECT url, status, length(response_body) AS n FROM exchanges WHERE verb = 'discovery' ORDER BY id`);
  expect(recorded.map((r) => [r.url, r.status])).toEqual([['/api', 200], ['/apis', 200], ['/api/v1', 200], ['/apis/example.com', 200], ['/apis/example.com/v1', 200]]);
  for (const r of recorded) expect(r.n).toBeGreaterThan(50);
});

test('other requests keep their conditional headers', () => {
  const list = upstreamSaw.find((r) => r.url === '/api/v1/namespaces/default/configmaps')!;
  expect(list.headers['if-none-match']).toBe('"0A1B"');
  expect(answers.get('/api/v1/namespaces/default/configmaps')).toBe(304);
});
