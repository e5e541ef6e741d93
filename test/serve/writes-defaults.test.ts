/**
 * Defaults on create: the minimal objects of the w1-defaults-* transcripts created against
 * serve, compared field by field with what the real apiserver stored (uids, timestamps and
 * resourceVersions masked; the Pod's service account fields and kube-api-access volume are
 * ServiceAccount admission's, not defaulting's, and left out).
 */
import { writeExchange } from './write-transcripts';
import { send } from './write-transcripts';
import { serve, type ServeServer } from '../../src/serve';

type Obj = Record<string, any>;

const KINDS = ['pod', 'deployment', 'statefulset', 'daemonset', 'job', 'cronjob', 'service-clusterip', 'secret-opaque-stringdata'];

function normalise(obj: Obj, uid: string): Obj {
  const text = JSON.stringify(obj).split(uid).join('<uid>');
  const out = JSON.parse(text) as Obj;
  delete out.metadata.uid;
  delete out.metadata.resourceVersion;
  delete out.metadata.creationTimestamp;
  for (const m of out.metadata.managedFields ?? []) delete m.time;
  if (out.kind === 'Pod') {
    delete out.spec.volumes;
    delete out.spec.serviceAccountName;
    delete out.spec.serviceAccount;
    for (const c of out.spec.containers) delete c.volumeMounts;
  }
  if (out.kind === 'Service') {
    expect(out.spec.clusterIP).toMatch(/^10\.0\.0\.(\d+)$/);
    expect(out.spec.clusterIP).not.toBe('10.0.0.1');
    expect(out.spec.clusterIPs).toEqual([out.spec.clusterIP]);
    out.spec.clusterIP = out.spec.clusterIPs = '<ip>';
  }
  return out;
}

/** Every leaf as `path = value`, so a difference names the field. */
function leaves(value: unknown, path = ''): string[] {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    if (entries.length === 0) return [`${path} = ${Array.isArray(value) ? '[]' : '{}'}`];
    return entries.flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
  }
  return [`${path} = ${JSON.stringify(value)}`];
}

describe('serve writes: defaults of the built-in kinds', () => {
  let api: ServeServer;
  beforeAll(async () => {
    api = await serve({ seed: 1 });
    const ns = await send(api.url + '/api/v1/namespaces', 'POST', { 'Content-Type': 'application/json' }, '{"metadata":{"name":"w"}}');
    expect(ns.status).toBe(201);
  });
  afterAll(() => api.close());

  async function compare(kind: string, checkOwnership: boolean) {
    const ex = writeExchange(`w1-defaults-${kind}`);
    const reply = await send(api.url + ex.path, 'POST', { 'Content-Type': 'application/json', 'User-Agent': 'probe/1.0' }, ex.requestBody);
    expect(reply.status).toBe(201);
    const expected = JSON.parse(ex.body) as Obj;
    const actual = JSON.parse(reply.body) as Obj;
    const [want, got] = [normalise(expected, expected.metadata.uid), normalise(actual, actual.metadata.uid)];
    const [wantFields, gotFields] = [want.metadata.managedFields, got.metadata.managedFields];
    delete want.metadata.managedFields;
    delete got.metadata.managedFields;
    expect(leaves(got).sort()).toEqual(leaves(want).sort());
    // The creating manager owns every field the apiserver's entry names, defaulted ones included
    // (how finely — `.` markers, atomic maps — is managedFields' own concern).
    expect(gotFields.map((e: Obj) => [e.manager, e.operation])).toEqual(wantFields.map((e: Obj) => [e.manager, e.operation]));
    if (!checkOwnership) return;
    const owned = leaves(gotFields[0].fieldsV1).map((l) => l.replace(/ = \{\}$/, '').replace(/\.\.$/, ''));
    const missing = leaves(wantFields[0].fieldsV1).map((l) => l.replace(/ = \{\}$/, '').replace(/\.\.$/, '')).filter((path) => !owned.some((o) => o === path || o.startsWith(path + '.')));
    expect(missing).toEqual([]);
  }

  // The creator owns the defaulted fields (a Service's ports keyed by the schema's list-map keys, port and protocol).
  it.each(KINDS)('%s: the stored object equals the real apiserver’s, field by field', (kind) => compare(kind, true));
});

describe('serve writes: Service addresses', () => {
  let api: ServeServer;
  beforeAll(async () => {
    api = await serve({ seed: 7 });
  });
  afterAll(() => api.close());

  const post = (body: Obj) => send(api.url + '/api/v1/namespaces/default/services', 'POST', { 'Content-Type': 'application/json' }, JSON.stringify(body));
  const svc = (name: string, spec: Obj = {}) => ({ metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } });

  it('cluster IPs come from 10.0.0.0/24, never one in use (10.0.0.1 is the kubernetes Service’s)', async () => {
    const ips = new Set<string>(['10.0.0.1']);
    for (let i = 0; i < 20; i++) {
      const reply = await post(svc(`s${i}`));
      expect(reply.status).toBe(201);
      const ip = JSON.parse(reply.body).spec.clusterIP as string;
      expect(ip).toMatch(/^10\.0\.0\.([1-9]|[1-9]\d|1\d\d|2[0-4]\d|25[0-4])$/);
      expect(ips.has(ip)).toBe(false);
      ips.add(ip);
    }
  });

  it('a requested cluster IP in use is the apiserver’s 422', async () => {
    const reply = await post(svc('taken', { clusterIP: '10.0.0.1' }));
    expect(reply.status).toBe(422);
    expect(JSON.parse(reply.body).message).toBe('Service "taken" is invalid: spec.clusterIPs: Invalid value: []string{"10.0.0.1"}: failed to allocate IP 10.0.0.1: provided IP is already allocated');
  });

  it('NodePort and LoadBalancer Services get node ports from 30000-32767, kept on update', async () => {
    const reply = await post(svc('np', { type: 'NodePort', ports: [{ port: 80, name: 'http' }, { port: 443, name: 'https' }] }));
    expect(reply.status).toBe(201);
    const created = JSON.parse(reply.body);
    const ports = created.spec.ports.map((p: Obj) => p.nodePort);
    for (const p of ports) expect(p >= 30000 && p <= 32767).toBe(true);
    expect(new Set(ports).size).toBe(2);
    expect(created.spec.externalTrafficPolicy).toBe('Cluster');
    const lb = JSON.parse((await post(svc('lb', { type: 'LoadBalancer' }))).body);
    expect(ports).not.toContain(lb.spec.ports[0].nodePort);
    expect(lb.spec.allocateLoadBalancerNodePorts).toBe(true);
    // A PUT without the allocated values keeps them.
    const put = await send(api.url + '/api/v1/namespaces/default/services/np', 'PUT', { 'Content-Type': 'application/json' },
      JSON.stringify({ metadata: { name: 'np', resourceVersion: created.metadata.resourceVersion }, spec: { type: 'NodePort', ports: [{ port: 80, name: 'http' }, { port: 443, name: 'https' }] } }));
    expect(put.status).toBe(200);
    const updated = JSON.parse(put.body);
    expect(updated.spec.clusterIP).toBe(created.spec.clusterIP);
    expect(updated.spec.ports.map((p: Obj) => p.nodePort)).toEqual(ports);
  });
});
