/**
 * admissionregistration.k8s.io/v1 Validating- and MutatingWebhookConfigurations through a real
 * `serve`: what a v1.26 apiserver stores (the v1 defaults, in Go's field order) and what it
 * refuses (the 422 and kubectl's printed text).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { get } from '../support/http-client';
import { kubectl } from '../support/kube-clients';
import { invalidStatus, sendJson } from './invalid-status';

type Obj = Record<string, any>;

const GROUP = 'admissionregistration.k8s.io';
const BASE = `/apis/${GROUP}/v1`;

/** A manifest of one webhook configuration: `hooks` are YAML list items, indented under `webhooks:`. */
const manifest = (kind: string, name: string, hooks: string) => `apiVersion: ${GROUP}/v1\nkind: ${kind}\nmetadata:\n  name: ${name}\nwebhooks:\n${hooks}`;

const serviceHook = (name: string, extra = '') =>
  `- name: ${name}\n  clientConfig:\n    service:\n      namespace: hooks\n      name: checker\n      path: /validate\n  rules:\n  - operations: ["CREATE", "UPDATE"]\n    apiGroups: ["apps"]\n    apiVersions: ["v1"]\n    resources: ["deployments"]\n  admissionReviewVersions: ["v1"]\n${extra}`;

describe('serve writes: webhook configurations', () => {
  let api: ServeServer;
  let dir: string;
  beforeAll(async () => {
    api = await serve({ seed: 7 });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-whcfg-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let files = 0;
  async function kubectlCreate(yaml: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const file = join(dir, `m${files++}.yaml`);
    writeFileSync(file, yaml);
    return kubectl(api.kubeconfigPath, join(dir, 'cache'), ['create', '-f', file]);
  }
  const getJson = async (resource: string, name: string): Promise<Obj> => {
    const out = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['get', resource, name, '-o', 'json']);
    expect(out.stderr).toBe('');
    return JSON.parse(out.stdout) as Obj;
  };

  it('kubectl create of a ValidatingWebhookConfiguration stores the v1 defaults, in Go field order', async () => {
    const out = await kubectlCreate(manifest('ValidatingWebhookConfiguration', 'deploy-check', serviceHook('deploy.check.example.com', '  sideEffects: None\n')));
    expect([out.code, out.stdout.trim()]).toEqual([0, 'validatingwebhookconfiguration.admissionregistration.k8s.io/deploy-check created']);
    const got = await getJson('validatingwebhookconfigurations', 'deploy-check');
    expect(got.metadata.generation).toBe(1);
    const stored = [
      {
        name: 'deploy.check.example.com',
        clientConfig: { service: { namespace: 'hooks', name: 'checker', path: '/validate', port: 443 } },
        rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], scope: '*' }],
        failurePolicy: 'Fail',
        matchPolicy: 'Equivalent',
        namespaceSelector: {},
        objectSelector: {},
        sideEffects: 'None',
        timeoutSeconds: 10,
        admissionReviewVersions: ['v1'],
      },
    ];
    expect(got.webhooks).toEqual(stored);
    // kubectl sorts the keys it prints; the apiserver's own body has them in the Go struct's order.
    const raw = await get(`${api.url}${BASE}/validatingwebhookconfigurations/deploy-check`);
    expect(JSON.stringify((JSON.parse(raw.body.toString('utf8')) as Obj).webhooks)).toBe(JSON.stringify(stored));
  }, 30_000);

  it('kubectl create of a MutatingWebhookConfiguration adds reinvocationPolicy Never and keeps what was set', async () => {
    const hooks = `- name: inject.example.com\n  clientConfig:\n    url: https://injector.example.com/mutate\n  sideEffects: NoneOnDryRun\n  timeoutSeconds: 5\n  failurePolicy: Ignore\n  admissionReviewVersions: ["v1", "v1beta1"]\n`;
    const out = await kubectlCreate(manifest('MutatingWebhookConfiguration', 'injector', hooks));
    expect([out.code, out.stdout.trim()]).toEqual([0, 'mutatingwebhookconfiguration.admissionregistration.k8s.io/injector created']);
    const got = await getJson('mutatingwebhookconfigurations', 'injector');
    expect(got.webhooks).toEqual([
      {
        name: 'inject.example.com',
        clientConfig: { url: 'https://injector.example.com/mutate' },
        failurePolicy: 'Ignore',
        matchPolicy: 'Equivalent',
        namespaceSelector: {},
        objectSelector: {},
        sideEffects: 'NoneOnDryRun',
        timeoutSeconds: 5,
        admissionReviewVersions: ['v1', 'v1beta1'],
        reinvocationPolicy: 'Never',
      },
    ]);
  }, 30_000);

  it("an http URL, a missing sideEffects, a bad timeout, a two-segment and a duplicate name: kubectl prints the apiserver's 422", async () => {
    const hooks =
      `- name: first.example.com\n  clientConfig:\n    url: http://hooks.example.com/check\n  admissionReviewVersions: ["v1"]\n  timeoutSeconds: 45\n` +
      `- name: example.com\n  clientConfig:\n    url: https://hooks.example.com/check\n  sideEffects: None\n  admissionReviewVersions: ["v1"]\n` +
      `- name: first.example.com\n  clientConfig:\n    url: https://hooks.example.com/check\n  sideEffects: None\n  admissionReviewVersions: ["v1"]\n`;
    const out = await kubectlCreate(manifest('ValidatingWebhookConfiguration', 'bad', hooks));
    expect(out.code).not.toBe(0);
    expect(out.stderr.trim()).toBe(
      'The ValidatingWebhookConfiguration "bad" is invalid: \n' +
        '* webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun\n' +
        '* webhooks[0].timeoutSeconds: Invalid value: 45: the timeout value must be between 1 and 30 seconds\n' +
        "* webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]\n" +
        '* webhooks[1].name: Invalid value: "example.com": should be a domain with at least three segments separated by dots\n' +
        '* webhooks[2].name: Duplicate value: "first.example.com"',
    );
    const listed = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['get', 'validatingwebhookconfigurations', 'bad']);
    expect(listed.stderr.trim()).toBe('Error from server (NotFound): validatingwebhookconfigurations.admissionregistration.k8s.io "bad" not found');
  }, 30_000);

  it('a MutatingWebhookConfiguration with a bad reinvocationPolicy and no clientConfig is the 422 Status with its causes', async () => {
    const r = await sendJson(api.url, 'POST', `${BASE}/mutatingwebhookconfigurations`, {
      apiVersion: `${GROUP}/v1`,
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'm-bad' },
      webhooks: [{ name: 'm.example.com', sideEffects: 'None', admissionReviewVersions: ['v1'], reinvocationPolicy: 'Always' }],
    });
    expect(r.status).toBe(422);
    expect(r.json).toEqual(
      invalidStatus('MutatingWebhookConfiguration', GROUP, 'm-bad', [
        ['FieldValueNotSupported', 'Unsupported value: "Always": supported values: "IfNeeded", "Never"', 'webhooks[0].reinvocationPolicy'],
        ['FieldValueRequired', 'Required value: exactly one of url or service is required', 'webhooks[0].clientConfig'],
      ]),
    );
  });

  it('an update is validated too; generation moves with the webhooks', async () => {
    const path = `${BASE}/validatingwebhookconfigurations/deploy-check`;
    const bad = await sendJson(api.url, 'PATCH', path, { webhooks: [{ name: 'deploy.check.example.com', clientConfig: { url: 'https://x.example.com' }, sideEffects: 'Some', admissionReviewVersions: ['v1'] }] }, 'application/merge-patch+json');
    expect(bad.status).toBe(422);
    expect(bad.json.details.causes).toEqual([{ reason: 'FieldValueNotSupported', message: 'Unsupported value: "Some": supported values: "None", "NoneOnDryRun"', field: 'webhooks[0].sideEffects' }]);
    const ok = await sendJson(api.url, 'PATCH', path, { webhooks: [{ name: 'deploy.check.example.com', clientConfig: { url: 'https://x.example.com' }, sideEffects: 'None', admissionReviewVersions: ['v1'] }] }, 'application/merge-patch+json');
    expect(ok.status).toBe(200);
    expect([ok.json.metadata.generation, ok.json.webhooks[0].timeoutSeconds, ok.json.webhooks[0].failurePolicy]).toEqual([2, 10, 'Fail']);
  });
});
