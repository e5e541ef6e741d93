/**
 * The apiserver's Pod spec validation through a real serve: invalid Pods and PodTemplates are
 * 422 Invalid with one cause per field error, kubectl prints the apiserver's message, an update
 * that changes more than the image is Forbidden, and a valid Pod is still created.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { get } from '../support/http-client';

type Obj = Record<string, any>;

describe('serve writes: Pod spec validation', () => {
  let api: ServeServer;
  let dir: string;
  beforeAll(async () => {
    api = await serve({ seed: 3 });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-podval-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const send = (method: string, path: string, body: Obj) =>
    get(`${api.url}${path}`, { method, headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) });
  const createPod = (name: string, spec: Obj) => send('POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec });

  it('a Pod without an image, with a bad port and a mount of no volume: 422 with one cause each, in Go order', async () => {
    const r = await createPod('bad', {
      containers: [{ name: 'app', ports: [{ containerPort: 0 }], volumeMounts: [{ name: 'data', mountPath: '/data' }] }],
      restartPolicy: 'Sometimes',
    });
    expect(r.status).toBe(422);
    expect(r.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'Pod "bad" is invalid: [spec.containers[0].image: Required value, spec.containers[0].ports[0].containerPort: Required value, spec.containers[0].volumeMounts[0].name: Not found: "data", spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"]',
      reason: 'Invalid',
      details: {
        name: 'bad',
        kind: 'Pod',
        causes: [
          { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].image' },
          { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].ports[0].containerPort' },
          { reason: 'FieldValueNotFound', message: 'Not found: "data"', field: 'spec.containers[0].volumeMounts[0].name' },
          { reason: 'FieldValueNotSupported', message: 'Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"', field: 'spec.restartPolicy' },
        ],
      },
      code: 422,
    });
    expect((await get(`${api.url}/api/v1/namespaces/default/pods/bad`)).status).toBe(404);
  });

  it('a Deployment whose second container repeats a name and has a bad probe: the duplicate comes after the common rules, the probe once', async () => {
    const template = {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [
          { name: 'web', image: 'nginx' },
          { name: 'web', image: 'nginx', terminationMessagePolicy: 'Stdout', startupProbe: { tcpSocket: { port: 0 } } },
        ],
        initContainers: [{ name: 'init', image: 'busybox', readinessProbe: { exec: { command: ['true'] } } }],
      },
    };
    const r = await send('POST', '/apis/apps/v1/namespaces/default/deployments', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'dup' }, spec: { selector: { matchLabels: { app: 'web' } }, template } });
    expect(r.status).toBe(422);
    expect(r.json.details.causes).toEqual([
      { reason: 'FieldValueNotSupported', message: 'Unsupported value: "Stdout": supported values: "File", "FallbackToLogsOnError"', field: 'spec.template.spec.containers[1].terminationMessagePolicy' },
      { reason: 'FieldValueDuplicate', message: 'Duplicate value: "web"', field: 'spec.template.spec.containers[1].name' },
      { reason: 'FieldValueInvalid', message: 'Invalid value: 0: must be between 1 and 65535, inclusive', field: 'spec.template.spec.containers[1].startupProbe.tcpSocket.port' },
      { reason: 'FieldValueForbidden', message: 'Forbidden: may not be set for init containers', field: 'spec.template.spec.initContainers[0].readinessProbe' },
    ]);
  });

  it('requests above limits and a duplicate volume', async () => {
    const r = await createPod('res', {
      containers: [{ name: 'app', image: 'nginx', resources: { limits: { cpu: '500m' }, requests: { cpu: '2' } } }],
      volumes: [{ name: 'v', emptyDir: {} }, { name: 'v', configMap: { name: 'cm' } }],
    });
    expect(r.status).toBe(422);
    expect(r.json.message).toBe(
      'Pod "res" is invalid: [spec.volumes[1].name: Duplicate value: "v", spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit]',
    );
    expect(r.json.details.causes.map((c: Obj) => c.reason)).toEqual(['FieldValueDuplicate', 'FieldValueInvalid']);
  });

  it('a PodTemplate is checked at template.spec', async () => {
    const r = await send('POST', '/api/v1/namespaces/default/podtemplates', {
      apiVersion: 'v1',
      kind: 'PodTemplate',
      metadata: { name: 'tpl' },
      template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'app', image: 'nginx', env: [{ name: '1BAD', value: 'v' }] }] } },
    });
    expect(r.status).toBe(422);
    expect(r.json.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: `Invalid value: "1BAD": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')`,
        field: 'template.spec.containers[0].env[0].name',
      },
    ]);
  });

  it('a valid Pod is created; changing its image is allowed, changing a port is Forbidden', async () => {
    const created = await createPod('ok', { containers: [{ name: 'app', image: 'nginx:1.25', ports: [{ name: 'http', containerPort: 80 }] }] });
    expect(created.status).toBe(201);
    const pod = created.json;
    pod.spec.containers[0].image = 'nginx:1.26';
    const replaced = await send('PUT', '/api/v1/namespaces/default/pods/ok', pod);
    expect(replaced.status).toBe(200);
    expect(replaced.json.spec.containers[0].image).toBe('nginx:1.26');
    const next = replaced.json;
    next.spec.containers[0].ports[0].containerPort = 8080;
    const refused = await send('PUT', '/api/v1/namespaces/default/pods/ok', next);
    expect(refused.status).toBe(422);
    expect(refused.json.message).toBe(
      'Pod "ok" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds`, `spec.tolerations` (only additions to existing tolerations) or `spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    );
    expect(refused.json.details.causes).toEqual([{ reason: 'FieldValueForbidden', message: expect.stringMatching(/^Forbidden: pod updates may not change fields other than /), field: 'spec' }]);
    const patched = await get(`${api.url}/api/v1/namespaces/default/pods/ok`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json-patch+json', Accept: 'application/json' },
      body: JSON.stringify([{ op: 'replace', path: '/spec/containers/0/image', value: '' }]),
    });
    expect(patched.status).toBe(422);
    expect(patched.json.details.causes.map((c: Obj) => c.field)).toEqual(['spec.containers[0].image', 'spec.containers[0].image']);
  });

  it('kubectl create -f of a Pod without an image prints the apiserver message', async () => {
    const file = join(dir, 'pod.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: noimage\nspec:\n  containers:\n  - name: app\n');
    const result = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile('kubectl', ['--kubeconfig', api.kubeconfigPath, '--cache-dir', join(dir, 'cache'), '-n', 'default', 'create', '-f', file], { encoding: 'utf8', timeout: 30_000 }, (err, _out, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stderr }),
      );
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`The Pod "noimage" is invalid: spec.containers[0].image: Required value\n`);
  }, 40_000);
});
