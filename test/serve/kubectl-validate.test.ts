/**
 * `kubectl create -f` of a manifest with misspelt fields against serve's empty cluster, under each
 * `--validate` value: what kubectl prints is what it prints against a real cluster (Strict: the
 * apiserver's 400, w6-kubectl-create-unknown-field-v8; Warn: its Warning headers; Ignore: nothing),
 * and the stored object never holds the unknown fields.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { get } from '../support/http-client';
import { kubectl } from '../support/kube-clients';

const manifest = (name: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: 1
  selectr:
    matchLabels:
      app: x
  selector:
    matchLabels:
      app: x
  template:
    metadata:
      labels:
        app: x
    spec:
      containers:
      - name: c
        image: busybox
        imagePullPolice: Always
`;

describe('kubectl create with misspelt fields, each --validate value', () => {
  let api: ServeServer;
  let dir: string;
  beforeAll(async () => {
    api = await serve({ seed: 5 });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-validate-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const create = (name: string, validate?: string) => {
    const file = join(dir, `${name}.yaml`);
    writeFileSync(file, manifest(name));
    return kubectl(api.kubeconfigPath, join(dir, 'cache'), ['create', ...(validate ? [`--validate=${validate}`] : []), '-f', file]);
  };
  const stored = async (name: string) => (await get(`${api.url}/apis/apps/v1/namespaces/default/deployments/${name}`)).json as Record<string, any>;

  it('strict (the default): the apiserver’s 400 naming every unknown field; nothing created', async () => {
    for (const [name, validate] of [['d-default', undefined], ['d-strict', 'strict']] as const) {
      const r = await create(name, validate);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(
        `Error from server (BadRequest): error when creating "${join(dir, `${name}.yaml`)}": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.selectr", unknown field "spec.template.spec.containers[0].imagePullPolice"`,
      );
      expect((await get(`${api.url}/apis/apps/v1/namespaces/default/deployments/${name}`)).status).toBe(404);
    }
  });

  it('warn: created, one warning per unknown field; the fields are not stored', async () => {
    const r = await create('d-warn', 'warn');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('deployment.apps/d-warn created');
    expect(r.stderr).toContain('Warning: unknown field "spec.selectr"');
    expect(r.stderr).toContain('Warning: unknown field "spec.template.spec.containers[0].imagePullPolice"');
    const d = await stored('d-warn');
    expect(d.spec.selectr).toBeUndefined();
    expect(d.spec.template.spec.containers[0].imagePullPolice).toBeUndefined();
    expect(d.spec.template.spec.containers[0].imagePullPolicy).toBe('Always');
  });

  it('ignore and false: created silently, the fields pruned', async () => {
    for (const [name, validate] of [['d-ignore', 'ignore'], ['d-false', 'false']] as const) {
      const r = await create(name, validate);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect((await stored(name)).spec.selectr).toBeUndefined();
    }
  });
});
