/**
 * A property of managedFields over random write sequences (seeded, bounded): three managers
 * apply, update (PUT), merge-patch and strategic-merge-patch one Deployment. After every step:
 * no entry names a field the object does not have; an Apply manager owns only fields of its last
 * applied configuration, and every scalar it still owns holds the value it applied (whoever
 * changed it since took it over); a refused apply (409) and a no-op apply change nothing.
 */
import { serve, type ServeServer } from '../../src/serve';
import { request } from '../support/http-client';
import { mulberry32 } from '../../src/faults/random';

type Obj = Record<string, any>;

const MANAGERS = ['a', 'b', 'c'] as const;

const random = mulberry32;

/** The value at a FieldsV1 path, or `missing`. */
const missing = Symbol('missing');
function valueAt(obj: unknown, path: string[]): unknown {
  let v: unknown = obj;
  for (const pe of path) {
    const rest = pe.slice(2);
    if (pe.startsWith('f:')) {
      if (!v || typeof v !== 'object' || Array.isArray(v) || !(rest in (v as Obj))) return missing;
      v = (v as Obj)[rest];
    } else if (pe.startsWith('k:')) {
      const key = JSON.parse(rest) as Obj;
      if (!Array.isArray(v)) return missing;
      v = v.find((item: Obj) => Object.entries(key).every(([k, kv]) => JSON.stringify(item?.[k] ?? (k === 'protocol' ? 'TCP' : undefined)) === JSON.stringify(kv)));
      if (v === undefined) return missing;
    } else if (pe.startsWith('v:')) {
      if (!Array.isArray(v) || !v.some((x) => JSON.stringify(x) === rest)) return missing;
      v = JSON.parse(rest);
    } else return missing;
  }
  return v;
}

/** Every path of a FieldsV1 tree, with whether it is a leaf. */
function fieldPaths(fields: Obj, prefix: string[] = []): Array<{ path: string[]; leaf: boolean }> {
  const out: Array<{ path: string[]; leaf: boolean }> = [];
  for (const [k, v] of Object.entries(fields)) {
    if (k === '.') continue;
    const path = [...prefix, k];
    const leaf = Object.keys(v as Obj).length === 0;
    out.push({ path, leaf });
    if (!leaf) out.push(...fieldPaths(v as Obj, path));
  }
  return out;
}

function config(rand: () => number, manager: string): Obj {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const container: Obj = { name: 'app' };
  if (rand() < 0.7) container.image = `nginx:1.${pick([20, 21, 22])}`;
  if (rand() < 0.5) container.env = [{ name: `E_${manager.toUpperCase()}`, value: pick(['1', '2']) }];
  const containers = [container];
  if (rand() < 0.3) containers.push({ name: `side-${manager}`, image: 'busybox' });
  const spec: Obj = { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers } } };
  if (rand() < 0.4) spec.replicas = pick([1, 2, 3]);
  const metadata: Obj = { name: 'web' };
  if (rand() < 0.6) metadata.labels = { [`by-${manager}`]: 'yes', ...(rand() < 0.5 ? { shared: pick(['x', 'y']) } : {}) };
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata, spec };
}

describe('serve writes: managedFields over random write sequences', () => {
  let api: ServeServer;
  beforeAll(async () => {
    api = await serve({ seed: 11 });
    const ns = await request(api.url, '/api/v1/namespaces', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"metadata":{"name":"p"}}' });
    expect(ns.status).toBe(201);
  });
  afterAll(() => api.close());

  it.each([1, 2, 3, 4])('seed %i: 60 random applies, updates and patches keep managedFields consistent', async (seed) => {
    const rand = random(seed);
    const name = `web`;
    const path = `/apis/apps/v1/namespaces/p/deployments/${name}`;
    const del = await request(api.url, path, { method: 'DELETE' });
    expect([200, 404]).toContain(del.status);
    const applied = new Map<string, Obj>();
    const send = (method: string, query: string, type: string, body: string) => request(api.url, `${path}?${query}`, { method, headers: { 'Content-Type': type }, body });
    let before: Obj | undefined;
    for (let step = 0; step < 60; step++) {
      const manager = MANAGERS[Math.floor(rand() * 3)]!;
      const op = rand();
      let reply;
      let what: string;
      if (op < 0.5 || !before) {
        const cfg = config(rand, manager);
        const force = rand() < 0.5;
        what = `apply by ${manager}${force ? ' (force)' : ''}`;
        reply = await send('PATCH', `fieldManager=${manager}&force=${force}`, 'application/apply-patch+yaml', JSON.stringify(cfg));
        expect([200, 201, 409, 422]).toContain(reply.status);
        if (reply.status === 409) {
          expect(reply.json.details.causes.every((c: Obj) => c.reason === 'FieldManagerConflict')).toBe(true);
        } else if (reply.status === 422) {
          // No manager sets the app container's image: the merged Deployment is invalid, as on a real cluster.
          expect(reply.json.details.causes.map((c: Obj) => `${c.field}: ${c.message}`)).toEqual(['spec.template.spec.containers[0].image: Required value']);
        } else applied.set(manager, cfg);
        if (reply.status !== 201 && before && reply.status !== 409 && reply.status !== 422) {
          // Applying the same configuration again is a no-op: same resourceVersion.
          const again = await send('PATCH', `fieldManager=${manager}`, 'application/apply-patch+yaml', JSON.stringify(cfg));
          expect([again.status, again.json.metadata.resourceVersion]).toEqual([200, reply.json.metadata.resourceVersion]);
        }
      } else if (op < 0.7) {
        what = `update by ${manager}`;
        const obj = structuredClone(before) as Obj;
        obj.spec.replicas = 1 + Math.floor(rand() * 4);
        obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [`note-${manager}`]: String(step) };
        reply = await send('PUT', `fieldManager=${manager}`, 'application/json', JSON.stringify(obj));
      } else if (op < 0.85) {
        what = `merge patch by ${manager}`;
        reply = await send('PATCH', `fieldManager=${manager}`, 'application/merge-patch+json', JSON.stringify({ metadata: { labels: { shared: rand() < 0.5 ? 'x' : 'z' } } }));
      } else {
        what = `strategic merge patch by ${manager}`;
        const patch = { spec: { template: { spec: { containers: [{ name: 'app', image: `nginx:1.${23 + Math.floor(rand() * 2)}` }] } } } };
        reply = await send('PATCH', `fieldManager=${manager}`, 'application/strategic-merge-patch+json', JSON.stringify(patch));
      }
      expect([step, what, [200, 201, 409, 422].includes(reply.status)]).toEqual([step, what, true]);
      if (reply.status === 422 && !before) continue;
      const now = (await request(api.url, path)).json as Obj;
      if (reply.status === 409 || reply.status === 422) expect(now.metadata.resourceVersion).toBe(before?.metadata.resourceVersion);
      for (const entry of (now.metadata.managedFields ?? []) as Obj[]) {
        const own = applied.get(entry.manager);
        for (const { path: p, leaf } of fieldPaths(entry.fieldsV1)) {
          // No entry names a field the object lacks.
          expect([step, what, entry.manager, p, valueAt(now, p) === missing]).toEqual([step, what, entry.manager, p, false]);
          if (entry.operation !== 'Apply' || !own) continue;
          // An applier owns only what it applied, with the value it applied.
          const mine = valueAt(own, p);
          expect([step, what, entry.manager, p, mine === missing]).toEqual([step, what, entry.manager, p, false]);
          if (leaf && typeof mine !== 'object') expect([step, what, entry.manager, p, valueAt(now, p)]).toEqual([step, what, entry.manager, p, mine]);
        }
      }
      before = now;
    }
  });
});
