/**
 * A custom resource with validation rules under a seeded fuzz of bodies: every field of the test
 * CRD given random JSON (wrong types, nulls, huge and fractional numbers, deep nesting, odd
 * strings), sent as creates and merge patches. Each answer is the apiserver's kind of answer —
 * 201/200, or a 4xx Status — never a 500, and the server keeps serving.
 */
import { join } from 'node:path';
import { mulberry32 } from '../../src/faults/random';
import { serve, type ServeServer } from '../../src/serve';
import { request } from '../support/http-client';

const BASE = '/apis/example.com/v1/namespaces/default/backups';
const FIELDS = ['copies', 'minCopies', 'mode', 'bucket', 'tags', 'targets', 'labels', 'endpoint', 'retention', 'escaped', 'dry-run', 'namespace'];

function randomValue(rand: () => number, depth = 0): unknown {
  const pick = Math.floor(rand() * (depth > 3 ? 7 : 10));
  switch (pick) {
    case 0: return null;
    case 1: return rand() < 0.5;
    case 2: return Math.floor(rand() * 20) - 5;
    case 3: return [9007199254740993, 1e308, -0.5, 2.5, 9223372036854775807][Math.floor(rand() * 5)];
    case 4: return ['', 't-a', 'b-', 'https://x.io/?a=1&a', 'http://[::1', '3 days', '1h', '%zz', 'é\u0000', '2024-01-01T00:00:00Z'][Math.floor(rand() * 10)];
    case 5: return 'x'.repeat(Math.floor(rand() * 40));
    case 6: return { name: 'x', port: Math.floor(rand() * 3) };
    case 7: return Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(rand, depth + 1));
    case 8: return Object.fromEntries(Array.from({ length: Math.floor(rand() * 3) }, (_, i) => [['a', 'dry-run', 'namespace', 'name', 'port'][i] ?? `k${i}`, randomValue(rand, depth + 1)]));
    default: return { nested: randomValue(rand, depth + 1) };
  }
}

describe('validation rules under a fuzz of bodies', () => {
  let api: ServeServer;
  beforeAll(async () => {
    api = await serve({ seed: 11, crds: [join(__dirname, '..', 'fixtures', 'crds-cel')] });
  });
  afterAll(() => api.close());

  it('answers 600 random creates and patches with 2xx or a 4xx Status, never a 500, and keeps serving', async () => {
    const rand = mulberry32(20261125);
    const seen = new Map<number, number>();
    const wrong: unknown[] = [];
    expect((await request(api.url, BASE, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Backup', metadata: { name: 'b-base' }, spec: { copies: 1, minCopies: 0 } }) })).status).toBe(201);
    for (let i = 0; i < 600; i++) {
      const spec = Object.fromEntries(FIELDS.filter(() => rand() < 0.4).map((f) => [f, randomValue(rand)]));
      const create = i % 2 === 0;
      const answer = create
        ? await request(api.url, BASE, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Backup', metadata: { name: `b-${i}` }, spec }) })
        : await request(api.url, `${BASE}/b-base`, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: JSON.stringify({ spec }) });
      seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1);
      const fine = answer.status < 300 || (answer.status >= 400 && answer.status < 500 && JSON.parse(answer.text).kind === 'Status');
      if (!fine) wrong.push({ i, spec, status: answer.status, text: answer.text.slice(0, 300) });
    }
    expect(wrong).toEqual([]);
    // the fuzz reaches both outcomes
    expect([...seen.keys()].some((s) => s < 300)).toBe(true);
    expect(seen.get(422) ?? 0).toBeGreaterThan(50);
    expect((await request(api.url, `${BASE}/b-base`)).status).toBe(200);
  });
});
