/**
 * Writes with protobuf bodies (what kubectl's generators and client-go's typed clients send):
 * decoded with the shipped built-in descriptors, stored, and served as JSON or protobuf
 * (reference w1-create-protobuf*).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { builtinProtobuf } from '../../src/serve/builtin-protobuf';
import { decodeEnvelope, decodeWatchEvent } from '../../src/wire/protobuf';
import { get } from '../support/http-client';
import { kubectl } from '../support/kube-clients';
import { transcript, transcriptPath } from '../support/transcripts';
import { writeCluster, type WriteCluster } from './write-cluster';
import { masked, send, writeExchange } from './write-transcripts';

const CONFIGMAP = 'k8s.io.api.core.v1.ConfigMap';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';

describe('serve writes: protobuf bodies', () => {
  let c: WriteCluster;
  beforeEach(async () => {
    c = await writeCluster();
  });
  afterEach(() => c.close());

  const post = (path: string, body: Buffer, accept: string, contentType = PROTOBUF) =>
    send(c.api.url + path, 'POST', { 'Content-Type': contentType, Accept: accept, 'User-Agent': 'probe/1.0' }, body);

  it('w1-create-protobuf: 201 with the JSON the apiserver answered, and later JSON reads show the data', async () => {
    const ex = writeExchange('w1-create-protobuf');
    const reply = await post(ex.path, readFileSync(transcriptPath('w1-create-protobuf.request.body')), 'application/json');
    expect(`${reply.status} ${masked(reply.body)}`).toBe(`${ex.status} ${masked(ex.body)}`);
    const got = await get(`${c.api.url}/api/v1/namespaces/w/configmaps/cm-pb`);
    expect(got.json).toMatchObject({ metadata: { name: 'cm-pb', labels: { app: 'w' } }, data: { k: 'v' } });
  });

  it('w1-create-protobuf-accept-protobuf: the answer is the protobuf the apiserver wrote, but for uid, resourceVersion and times', async () => {
    const expected = transcript('w1-create-protobuf-accept-protobuf');
    const reply = await rawPost(`${c.api.url}/api/v1/namespaces/w/configmaps`, readFileSync(transcriptPath('w1-create-protobuf-accept-protobuf.request.body')));
    expect(reply.status).toBe(201);
    expect(reply.contentType).toBe(PROTOBUF);
    const pb = builtinProtobuf();
    const ours = pb.decode(CONFIGMAP, decodeEnvelope(reply.body).raw);
    const theirs = pb.decode(CONFIGMAP, decodeEnvelope(expected.body).raw);
    // Theirs with our generated values must encode to exactly our bytes.
    const { uid, resourceVersion, creationTimestamp } = ours.metadata;
    theirs.metadata = { ...theirs.metadata, uid, resourceVersion, creationTimestamp };
    theirs.metadata.managedFields[0].time = ours.metadata.managedFields[0].time;
    expect(pb.encode(CONFIGMAP, { apiVersion: 'v1', kind: 'ConfigMap', ...theirs }).equals(reply.body)).toBe(true);
  });

  it('a written object is served as protobuf on get, list and watch to a protobuf client', async () => {
    const body = readFileSync(transcriptPath('w1-create-protobuf.request.body'));
    expect((await post('/api/v1/namespaces/w/configmaps', body, 'application/json')).status).toBe(201);
    const one = await rawGet(`${c.api.url}/api/v1/namespaces/w/configmaps/cm-pb`);
    expect(one.contentType).toBe(PROTOBUF);
    expect(builtinProtobuf().decode(CONFIGMAP, decodeEnvelope(one.body).raw)).toMatchObject({ metadata: { name: 'cm-pb' }, data: { k: 'v' } });
    const list = await rawGet(`${c.api.url}/api/v1/namespaces/w/configmaps`);
    expect(decodeEnvelope(list.body).kind).toBe('ConfigMapList');
    const watch = await raw(`${c.api.url}/api/v1/namespaces/w/configmaps?watch=1&timeoutSeconds=1`, 'GET', { Accept: `${PROTOBUF};stream=watch` });
    expect(watch.contentType).toBe(`${PROTOBUF};stream=watch`);
    const event = decodeWatchEvent(watch.body.subarray(4, 4 + watch.body.readUInt32BE(0)));
    expect(event.type).toBe('ADDED');
    expect(builtinProtobuf().decode(CONFIGMAP, decodeEnvelope(event.object).raw)).toMatchObject({ metadata: { name: 'cm-pb' }, data: { k: 'v' } });
  });

  it('a body without the k8s\\0 magic is a 400, and nothing is stored', async () => {
    const reply = await post('/api/v1/namespaces/w/configmaps', Buffer.from('not protobuf'), 'application/json');
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body).message).toBe(
      'the object provided is unrecognized (must be of type ConfigMap): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] (6e6f742070726f746f627566)',
    );
    expect((await get(`${c.api.url}/api/v1/namespaces/w/configmaps`)).json.items).toEqual([]);
  });

  it('a protobuf body of another kind is the conversion 400 a JSON body gets', async () => {
    const secret = builtinProtobuf().encode('k8s.io.api.core.v1.Secret', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } });
    const reply = await post('/api/v1/namespaces/w/configmaps', secret, 'application/json');
    expect([reply.status, JSON.parse(reply.body).message]).toEqual([400, 'Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion']);
  });

  it("kubectl's generators (create configmap, secret, deployment) send protobuf: created, and kubectl get -o yaml shows them", async () => {
    const kubectl = (...args: string[]) =>
      new Promise<string>((resolve, reject) =>
        execFile('kubectl', ['--kubeconfig', c.api.kubeconfigPath, '-n', 'w', ...args], { encoding: 'utf8', timeout: 30_000 }, (err, out, stderr) =>
          err ? reject(new Error(`kubectl ${args.join(' ')}: ${stderr || err.message}`)) : resolve(out),
        ),
      );
    expect(await kubectl('create', 'configmap', 'x', '--from-literal=a=b')).toBe('configmap/x created\n');
    expect(await kubectl('create', 'secret', 'generic', 's1', '--from-literal=p=q')).toBe('secret/s1 created\n');
    expect(await kubectl('create', 'deployment', 'web', '--image=nginx', '--replicas=0')).toBe('deployment.apps/web created\n');
    expect(await kubectl('get', 'cm', 'x', '-o', 'yaml')).toMatch(/^apiVersion: v1\ndata:\n {2}a: b\nkind: ConfigMap\n/);
    const secret = JSON.parse(await kubectl('get', 'secret', 's1', '-o', 'json'));
    expect([secret.data, secret.type]).toEqual([{ p: Buffer.from('q').toString('base64') }, 'Opaque']);
    const deployment = JSON.parse(await kubectl('get', 'deployment', 'web', '-o', 'json', '--show-managed-fields'));
    expect(deployment.metadata.generation).toBe(1);
    expect(deployment.metadata.managedFields[0].manager).toBe('kubectl-create');
    // What kubectl sent, decoded from protobuf, with the apiserver's defaults filled in as for a JSON body.
    expect(deployment.spec).toMatchObject({
      replicas: 0,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx', resources: {}, imagePullPolicy: 'Always' }] } },
      strategy: { type: 'RollingUpdate' },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    });
  }, 60_000);
});

describe('serve writes: protobuf of embedded structs (an empty cluster)', () => {
  let api: ServeServer;
  let cacheDir: string;
  beforeAll(async () => {
    api = await serve({});
    cacheDir = mkdtempSync(join(tmpdir(), 'kubetape-kubectl-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('kubectl create ingress (protobuf) keeps its rules; a Pod read as protobuf keeps volumes, probes and key refs', async () => {
    // IngressRule embeds IngressRuleValue: its `http` is a member of the rule in JSON.
    const created = await kubectl(api.kubeconfigPath, cacheDir, ['create', 'ingress', 'web', '--rule=a.example.com/api*=web:80']);
    expect([created.code, created.stdout, created.stderr]).toEqual([0, 'ingress.networking.k8s.io/web created\n', '']);
    const ingress = (await get(`${api.url}/apis/networking.k8s.io/v1/namespaces/default/ingresses/web`)).json as any;
    expect(ingress.spec.rules).toEqual([{ host: 'a.example.com', http: { paths: [{ path: '/api', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } }]);
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: {
        containers: [{
          name: 'app',
          image: 'nginx',
          env: [{ name: 'E', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } }],
          readinessProbe: { periodSeconds: 3, httpGet: { path: '/healthz', port: 8080 } },
          volumeMounts: [{ name: 'config', mountPath: '/etc/app' }],
        }],
        volumes: [{ name: 'config', configMap: { name: 'cm' } }],
      },
    };
    const reply = await send(`${api.url}/api/v1/namespaces/default/pods`, 'POST', { 'Content-Type': 'application/json' }, Buffer.from(JSON.stringify(pod)));
    expect(reply.status).toBe(201);
    const asJson = (await get(`${api.url}/api/v1/namespaces/default/pods/p`)).json as any;
    // Go order: the embedded ProbeHandler's members first.
    expect(Object.keys(asJson.spec.containers[0].readinessProbe)).toEqual(['httpGet', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']);
    const asProtobuf = await raw(`${api.url}/api/v1/namespaces/default/pods/p`, 'GET', { Accept: PROTOBUF });
    const decoded = builtinProtobuf().decode('k8s.io.api.core.v1.Pod', decodeEnvelope(asProtobuf.body).raw) as any;
    expect(decoded.spec.volumes).toEqual(asJson.spec.volumes);
    expect(decoded.spec.volumes[0]).toMatchObject({ name: 'config', configMap: { name: 'cm' } });
    expect(decoded.spec.containers[0].env).toEqual([{ name: 'E', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } }]);
    expect(decoded.spec.containers[0].readinessProbe).toEqual(asJson.spec.containers[0].readinessProbe);
  }, 60_000);
});

function rawPost(url: string, body: Buffer) {
  return raw(url, 'POST', { 'Content-Type': PROTOBUF, Accept: PROTOBUF, 'User-Agent': 'probe/1.0' }, body);
}

function rawGet(url: string) {
  return raw(url, 'GET', { Accept: `${PROTOBUF}, application/json` });
}

async function raw(url: string, method: string, headers: Record<string, string>, body?: Buffer) {
  const res = await fetch(url, { method, headers, body });
  return { status: res.status, contentType: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
}

