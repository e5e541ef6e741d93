/**
 * The Pod subresources schedulers, drain and `kubectl debug` use, through a real serve: a
 * Binding sets spec.nodeName (a watcher sees MODIFIED) and a second one is 409; an eviction
 * deletes (201 Status) unless a PodDisruptionBudget forbids it (429 with the apiserver's message
 * and cause); an allowed one decrements the budget; dry run changes nothing; `kubectl drain`
 * evicts a node's pods; `kubectl debug` adds an ephemeral container.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { get, watch } from '../support/http-client';

type Obj = Record<string, any>;

describe('serve: pod binding, eviction and ephemeral containers', () => {
  let api: ServeServer;
  let dir: string;
  beforeAll(async () => {
    api = await serve({ seed: 5 });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-podsub-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const send = (method: string, path: string, body: Obj, type = 'application/json') =>
    get(`${api.url}${path}`, { method, headers: { 'Content-Type': type, Accept: 'application/json' }, body: JSON.stringify(body) });
  const ns = (name: string) => send('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  const pod = async (namespace: string, name: string, labels: Obj = {}, nodeName?: string) => {
    const spec: Obj = { containers: [{ name: 'app', image: 'nginx' }], terminationGracePeriodSeconds: 0 };
    if (nodeName) spec.nodeName = nodeName;
    const r = await send('POST', `/api/v1/namespaces/${namespace}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec });
    expect(r.status).toBe(201);
    return r.json;
  };
  /** What a kubelet would report: Running and Ready. */
  const running = async (namespace: string, name: string) => {
    const r = await send('PATCH', `/api/v1/namespaces/${namespace}/pods/${name}/status`, { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } }, 'application/merge-patch+json');
    expect(r.status).toBe(200);
  };
  const readPod = (namespace: string, name: string) => get(`${api.url}/api/v1/namespaces/${namespace}/pods/${name}`);
  const bind = (namespace: string, name: string, node: string, extra: Obj = {}) =>
    send('POST', `/api/v1/namespaces/${namespace}/pods/${name}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name, ...extra }, target: { apiVersion: 'v1', kind: 'Node', name: node } });
  const evict = (namespace: string, name: string, extra: Obj = {}, query = '') =>
    send('POST', `/api/v1/namespaces/${namespace}/pods/${name}/eviction${query}`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace }, ...extra });
  const pdb = async (namespace: string, name: string, selector: Obj, status?: Obj) => {
    const r = await send('POST', `/apis/policy/v1/namespaces/${namespace}/poddisruptionbudgets`, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { minAvailable: 1, selector: { matchLabels: selector } } });
    expect(r.status).toBe(201);
    if (!status) return r.json;
    // No disruption controller runs in serve: the test writes the status it would.
    const s = await send('PUT', `/apis/policy/v1/namespaces/${namespace}/poddisruptionbudgets/${name}/status`, { ...r.json, status: { observedGeneration: 1, ...status } });
    expect(s.status).toBe(200);
    return s.json;
  };
  const SUCCESS = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

  it('a binding sets nodeName, the annotations and PodScheduled (a watcher sees MODIFIED); a second binding is 409', async () => {
    await ns('bind');
    const created = await pod('bind', 'p1');
    const w = watch(`${api.url}/api/v1/namespaces/bind/pods?watch=1&resourceVersion=${created.metadata.resourceVersion}`);
    try {
      const r = await bind('bind', 'p1', 'node-a', { annotations: { 'scheduler.example/by': 'test' } });
      expect(r.status).toBe(201);
      expect(r.json).toEqual(SUCCESS);
      const [line] = await w.waitFor(1);
      const event = JSON.parse(line!);
      expect(event.type).toBe('MODIFIED');
      expect(event.object.spec.nodeName).toBe('node-a');
      expect(event.object.metadata.annotations).toEqual({ 'scheduler.example/by': 'test' });
      const scheduled = event.object.status.conditions.find((c: Obj) => c.type === 'PodScheduled');
      expect(scheduled).toEqual({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: expect.stringMatching(/Z$/) });
      expect(event.object.metadata.managedFields).toEqual(created.metadata.managedFields);
    } finally {
      w.close();
    }
    const again = await bind('bind', 'p1', 'node-b');
    expect(again.status).toBe(409);
    expect(again.json).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'Operation cannot be fulfilled on pods/binding "p1": pod p1 is already assigned to node "node-a"',
      reason: 'Conflict', details: { name: 'p1', kind: 'pods/binding' }, code: 409,
    });
    expect((await readPod('bind', 'p1')).json.spec.nodeName).toBe('node-a');
  });

  it('the bindings resource binds the pod its body names; missing pods 404; bad bindings as Go answers them', async () => {
    await ns('bind2');
    await pod('bind2', 'p2');
    const r = await send('POST', '/api/v1/namespaces/bind2/bindings', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p2' }, target: { kind: 'Node', name: 'node-c' } });
    expect(r.status).toBe(201);
    expect((await readPod('bind2', 'p2')).json.spec.nodeName).toBe('node-c');
    const missing = await bind('bind2', 'nope', 'node-a');
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe('pods "nope" not found');
    const mismatch = await send('POST', '/api/v1/namespaces/bind2/pods/p2/binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'other' }, target: { name: 'n' } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.message).toBe('name in URL does not match name in Binding object');
    await pod('bind2', 'p3');
    // BindingREST returns ValidatePodBinding's errors as a plain error: a 500 with their text.
    const invalid = await send('POST', '/api/v1/namespaces/bind2/pods/p3/binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p3' }, target: { kind: 'Pod' } });
    expect(invalid.status).toBe(500);
    expect(invalid.json.message).toBe('[target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>", target.name: Required value]');
    expect((await readPod('bind2', 'p3')).json.spec.nodeName).toBeUndefined();
    expect((await get(`${api.url}/api/v1/namespaces/bind2/bindings`)).status).toBe(405);
  });

  it('an eviction without a budget deletes the pod (201 Status); dry run leaves it', async () => {
    await ns('ev');
    await pod('ev', 'e1', { app: 'x' }, 'node-a');
    await running('ev', 'e1');
    const dry = await evict('ev', 'e1', {}, '?dryRun=All');
    expect(dry.status).toBe(201);
    expect(dry.json).toEqual(SUCCESS);
    expect((await readPod('ev', 'e1')).status).toBe(200);
    const before = (await readPod('ev', 'e1')).json;
    const w = watch(`${api.url}/api/v1/namespaces/ev/pods?watch=1&resourceVersion=${before.metadata.resourceVersion}`);
    try {
      const r = await evict('ev', 'e1');
      expect(r.status).toBe(201);
      expect(r.json).toEqual(SUCCESS);
      // PodDisruptionConditions: DisruptionTarget first, then the delete (grace 0: marked, then gone).
      const events = (await w.waitFor(3)).map((l) => JSON.parse(l));
      expect(events.map((e) => e.type)).toEqual(['MODIFIED', 'MODIFIED', 'DELETED']);
      expect(events[0].object.status.conditions).toContainEqual({ type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: expect.any(String), reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' });
      expect(events[0].object.metadata.deletionTimestamp).toBeUndefined();
    } finally {
      w.close();
    }
    expect((await readPod('ev', 'e1')).status).toBe(404);
  });

  it('a malformed eviction is the decode 400 and evicts nothing; a negative grace period on a pending deletion counts as 1', async () => {
    await ns('ev2');
    await pod('ev2', 'm1', {}, 'node-a');
    const bad = await evict('ev2', 'm1', { deleteOptions: { dryRun: 'All' } });
    expect([bad.status, bad.json.message]).toEqual([400, 'Eviction in version "v1" cannot be handled as a Eviction: json: cannot unmarshal string into Go struct field DeleteOptions.deleteOptions.dryRun of type []string']);
    expect((await readPod('ev2', 'm1')).status).toBe(200);
    // A policy/v1beta1 Eviction in YAML is read in its version.
    const yaml = await get(`${api.url}/api/v1/namespaces/ev2/pods/m1/eviction`, { method: 'POST', headers: { 'Content-Type': 'application/yaml', Accept: 'application/json' }, body: 'apiVersion: policy/v1beta1\nkind: Eviction\nmetadata:\n  name: m1\n' });
    expect([yaml.status, yaml.json]).toEqual([201, SUCCESS]);
    expect((await readPod('ev2', 'm1')).status).toBe(404);
    // A pod on a node with a grace period: the first DELETE marks it, a negative one shortens it to 1 s, not 0.
    const graceful = await send('POST', '/api/v1/namespaces/ev2/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'g1' }, spec: { nodeName: 'node-a', containers: [{ name: 'app', image: 'nginx' }], terminationGracePeriodSeconds: 30 } });
    expect(graceful.status).toBe(201);
    expect((await send('DELETE', '/api/v1/namespaces/ev2/pods/g1', {})).status).toBe(200);
    expect((await send('DELETE', '/api/v1/namespaces/ev2/pods/g1?gracePeriodSeconds=-5', {})).status).toBe(200);
    const kept = await readPod('ev2', 'g1');
    expect([kept.status, kept.json.metadata.deletionGracePeriodSeconds]).toEqual([200, 1]);
  });

  it('a budget that allows no disruption is 429 with its cause and the pod stays; one that allows one is decremented', async () => {
    await ns('pdb');
    await pod('pdb', 'b1', { app: 'db' }, 'node-a');
    await pod('pdb', 'b2', { app: 'db' }, 'node-a');
    await running('pdb', 'b1');
    await running('pdb', 'b2');
    // A budget the disruption controller has not seen yet.
    await pdb('pdb', 'fresh', { app: 'db' });
    const unseen = await evict('pdb', 'b1');
    expect(unseen.status).toBe(429);
    expect(unseen.headers['retry-after']).toBe('10');
    expect(unseen.json).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: 'TooManyRequests',
      details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget fresh is still being processed by the server.' }], retryAfterSeconds: 10 },
      code: 429,
    });
    await send('DELETE', '/apis/policy/v1/namespaces/pdb/poddisruptionbudgets/fresh', {});
    await pdb('pdb', 'db', { app: 'db' }, { disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2, expectedPods: 2 });
    const blocked = await evict('pdb', 'b1');
    expect(blocked.status).toBe(429);
    expect(blocked.json.details).toEqual({ causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget db needs 2 healthy pods and has 2 currently' }] });
    expect((await readPod('pdb', 'b1')).status).toBe(200);

    const current = (await get(`${api.url}/apis/policy/v1/namespaces/pdb/poddisruptionbudgets/db`)).json;
    current.status = { ...current.status, disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1 };
    expect((await send('PUT', '/apis/policy/v1/namespaces/pdb/poddisruptionbudgets/db/status', current)).status).toBe(200);
    const dry = await evict('pdb', 'b1', { deleteOptions: { dryRun: ['All'] } });
    expect(dry.status).toBe(201);
    expect((await readPod('pdb', 'b1')).status).toBe(200);
    expect((await get(`${api.url}/apis/policy/v1/namespaces/pdb/poddisruptionbudgets/db`)).json.status.disruptionsAllowed).toBe(1);

    const allowed = await evict('pdb', 'b1');
    expect(allowed.status).toBe(201);
    expect((await readPod('pdb', 'b1')).status).toBe(404);
    const after = (await get(`${api.url}/apis/policy/v1/namespaces/pdb/poddisruptionbudgets/db`)).json;
    expect(after.status.disruptionsAllowed).toBe(0);
    expect(Object.keys(after.status.disruptedPods)).toEqual(['b1']);
    expect(after.status.conditions).toEqual([expect.objectContaining({ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', observedGeneration: 1 })]);
    expect(after.metadata.managedFields.map((e: Obj) => [e.manager, e.subresource])).toContainEqual(['kube-apiserver', 'status']);
    // The budget is spent: the next pod stays.
    expect((await evict('pdb', 'b2')).status).toBe(429);

    await pdb('pdb', 'second', { app: 'db' }, { disruptionsAllowed: 1 });
    const two = await evict('pdb', 'b2');
    expect(two.status).toBe(500);
    expect(two.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 });
  });

  it('a pending pod ignores the budget; preconditions that fail are 409', async () => {
    await ns('pend');
    await pod('pend', 'q1', { app: 'q' });
    await pdb('pend', 'q', { app: 'q' }, { disruptionsAllowed: 0 });
    const stale = await evict('pend', 'q1', { deleteOptions: { preconditions: { uid: 'not-the-uid' } } });
    expect(stale.status).toBe(409);
    expect(stale.json.message).toMatch(/^Operation cannot be fulfilled on Pod "q1": the UID in the precondition \(not-the-uid\) does not match the UID in record/);
    const beta = await send('POST', '/api/v1/namespaces/pend/pods/q1/eviction', { apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name: 'q1' } });
    expect(beta.status).toBe(201);
    expect((await readPod('pend', 'q1')).status).toBe(404);
    const mismatch = await send('POST', '/api/v1/namespaces/pend/pods/q1/eviction', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'other' } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.message).toBe('name in URL does not match name in Eviction object');
    expect((await evict('pend', 'q1')).status).toBe(404);
    expect((await get(`${api.url}/api/v1/namespaces/pend/pods/q1/eviction`)).status).toBe(405);
  });
  const kubectl = (...args: string[]): Promise<string> =>
    new Promise((resolve, reject) => {
      execFile('kubectl', ['--kubeconfig', api.kubeconfigPath, '--cache-dir', join(dir, 'cache'), ...args], { encoding: 'utf8', timeout: 30_000 }, (err, out, stderr) =>
        err ? reject(new Error(`kubectl ${args.join(' ')}: ${stderr || err.message}`)) : resolve(out + stderr),
      );
    });

  it('kubectl drain evicts the selected pods of a node through their budget (a stand-in kubelet finishes the graceful deletes)', async () => {
    await ns('drain');
    expect((await send('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-d' } })).status).toBe(201);
    const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } };
    const rs = await send('POST', '/apis/apps/v1/namespaces/drain/replicasets', { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template } });
    expect(rs.status).toBe(201);
    const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.json.metadata.uid, controller: true, blockOwnerDeletion: true };
    for (const name of ['web-1', 'web-2']) {
      const r = await send('POST', '/api/v1/namespaces/drain/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'web' }, ownerReferences: [owner] }, spec: { nodeName: 'node-d', containers: [{ name: 'app', image: 'nginx' }] } });
      expect(r.status).toBe(201);
      await running('drain', name);
    }
    await pod('drain', 'other', { app: 'other' }, 'node-d');
    await pdb('drain', 'web', { app: 'web' }, { disruptionsAllowed: 2, currentHealthy: 2, desiredHealthy: 0, expectedPods: 2 });
    // No kubelet runs in serve: this one ends each graceful deletion on node-d as a kubelet would.
    let busy = false;
    const kubelet = setInterval(async () => {
      if (busy) return;
      busy = true;
      try {
        const pods = (await get(`${api.url}/api/v1/namespaces/drain/pods?fieldSelector=spec.nodeName%3Dnode-d`)).json.items as Obj[];
        for (const p of pods.filter((x) => x.metadata.deletionTimestamp)) await send('DELETE', `/api/v1/namespaces/drain/pods/${p.metadata.name}`, { gracePeriodSeconds: 0 });
      } finally {
        busy = false;
      }
    }, 100);
    try {
      const out = await kubectl('drain', 'node-d', '--pod-selector', 'app=web', '--ignore-daemonsets', '--delete-emptydir-data', '--timeout', '10s');
      expect(out).toContain('node/node-d cordoned');
      expect(out).toContain('evicting pod drain/web-1');
      expect(out).toContain('pod/web-2 evicted');
      expect(out).toContain('node/node-d drained');
    } finally {
      clearInterval(kubelet);
    }
    const left = (await get(`${api.url}/api/v1/namespaces/drain/pods`)).json.items.map((p: Obj) => p.metadata.name);
    expect(left).toEqual(['other']);
    expect((await get(`${api.url}/api/v1/nodes/node-d`)).json.spec.unschedulable).toBe(true);
    const budget = (await get(`${api.url}/apis/policy/v1/namespaces/drain/poddisruptionbudgets/web`)).json;
    expect(budget.status.disruptionsAllowed).toBe(0);
    expect(Object.keys(budget.status.disruptedPods).sort()).toEqual(['web-1', 'web-2']);
  });

  it('kubectl debug adds an ephemeral container; the subresource changes nothing else and keeps existing ones', async () => {
    await ns('dbg');
    await pod('dbg', 'app');
    const out = await kubectl('-n', 'dbg', 'debug', 'app', '--image=busybox', '--target=app', '--container=debugger');
    expect(out).toContain('Targeting container "app"');
    const debugged = (await readPod('dbg', 'app')).json;
    expect(debugged.spec.ephemeralContainers).toEqual([
      { name: 'debugger', image: 'busybox', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'Always', targetContainerName: 'app' },
    ]);
    const entry = debugged.metadata.managedFields.find((e: Obj) => e.subresource === 'ephemeralcontainers');
    expect(entry).toMatchObject({ manager: 'kubectl', operation: 'Update', subresource: 'ephemeralcontainers' });
    expect((await get(`${api.url}/api/v1/namespaces/dbg/pods/app/ephemeralcontainers`)).json.metadata.uid).toBe(debugged.metadata.uid);

    const path = '/api/v1/namespaces/dbg/pods/app/ephemeralcontainers';
    // Only spec.ephemeralContainers is taken: the label and image change are dropped.
    const patched = await send('PATCH', path, { metadata: { labels: { x: 'y' } }, spec: { containers: [{ name: 'app', image: 'redis' }], ephemeralContainers: [debugged.spec.ephemeralContainers[0], { name: 'second', image: 'busybox' }] } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    expect(patched.json.metadata.labels).toBeUndefined();
    expect(patched.json.spec.containers[0].image).toBe('nginx');
    expect(patched.json.spec.ephemeralContainers.map((c: Obj) => c.name)).toEqual(['debugger', 'second']);

    const removed = await send('PUT', path, { ...patched.json, spec: { ...patched.json.spec, ephemeralContainers: [patched.json.spec.ephemeralContainers[1]] } });
    expect(removed.status).toBe(422);
    expect(removed.json.message).toBe('Pod "app" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "debugger" may not be removed\n');
    const invalid = await send('PATCH', path, { spec: { ephemeralContainers: [...patched.json.spec.ephemeralContainers, { name: 'app', image: 'busybox', ports: [{ containerPort: 80 }], targetContainerName: 'missing' }] } }, 'application/merge-patch+json');
    expect(invalid.status).toBe(422);
    expect(invalid.json.details.causes.map((c: Obj) => `${c.field}: ${c.reason}`)).toEqual([
      'spec.ephemeralContainers[2].name: FieldValueDuplicate',
      'spec.ephemeralContainers[2].targetContainerName: FieldValueNotFound',
      'spec.ephemeralContainers[2].ports: FieldValueForbidden',
    ]);
    expect((await send('POST', path, {})).status).toBe(405);
    expect((await get(`${api.url}/apis/apps/v1/namespaces/dbg/deployments/x/ephemeralcontainers`)).status).toBe(404);
  });
});
