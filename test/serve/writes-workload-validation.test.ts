/**
 * The apiserver's workload spec validation through serve (an empty v1.26 cluster) with real
 * clients: a Deployment whose selector does not match its template, a missing selector, an
 * update that changes an apps/v1 selector, a Job with restartPolicy Always and a CronJob with a
 * bad schedule are 422 Invalid with the Status a v1.26 apiserver sends; kubectl prints the
 * apiserver's message; valid workloads are still created.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { request } from '../support/http-client';
import { kubectl } from '../support/kube-clients';

type Obj = Record<string, any>;

const podTemplate = (labels: Obj, restartPolicy?: string): Obj => ({
  metadata: { labels },
  spec: { containers: [{ name: 'app', image: 'nginx:1.25' }], ...(restartPolicy ? { restartPolicy } : {}) },
});
const deployment = (name: string, spec: Obj): Obj => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec });

/** The 422 Status of `errs` ([field, reason, message]) for `kind` in `group`, keys in the apiserver's order. */
function invalidStatus(kind: string, group: string, name: string, causes: Array<[string, string, string]>): string {
  const texts = [...new Set(causes.map(([field, , message]) => `${field}: ${message}`))];
  const message = `${kind}${group ? `.${group}` : ''} ${JSON.stringify(name)} is invalid: ${texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`}`;
  return JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'Invalid',
    details: { name, group, kind, causes: causes.map(([field, reason, msg]) => ({ reason, message: msg, field })) },
    code: 422,
  });
}

describe('serve writes: workload spec validation', () => {
  let api: ServeServer;
  let dir: string;
  beforeAll(async () => {
    api = await serve({ seed: 3 });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-workval-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const send = (method: string, path: string, body: Obj) =>
    request(api.url, path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

  it('a Deployment whose selector does not match its template labels is 422 Invalid', async () => {
    const res = await send('POST', DEPLOYMENTS, deployment('mismatch', { selector: { matchLabels: { app: 'api' } }, template: podTemplate({ app: 'web' }) }));
    expect(res.status).toBe(422);
    expect(res.text.trim()).toBe(
      invalidStatus('Deployment', 'apps', 'mismatch', [
        ['spec.template.metadata.labels', 'FieldValueInvalid', 'Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`'],
      ]),
    );
    expect((await request(api.url, `${DEPLOYMENTS}/mismatch`)).status).toBe(404);
  });

  it('a Deployment without a selector: selector required, and the template then matches nothing', async () => {
    const res = await send('POST', DEPLOYMENTS, deployment('noselector', { template: podTemplate({ app: 'web', tier: 'front' }) }));
    expect(res.status).toBe(422);
    expect(res.text.trim()).toBe(
      invalidStatus('Deployment', 'apps', 'noselector', [
        ['spec.selector', 'FieldValueRequired', 'Required value'],
        ['spec.template.metadata.labels', 'FieldValueInvalid', 'Invalid value: map[string]string{"app":"web", "tier":"front"}: `selector` does not match template `labels`'],
      ]),
    );
  });

  it('an update that changes an apps/v1 Deployment selector is refused: field is immutable', async () => {
    const created = await send('POST', DEPLOYMENTS, deployment('web', { selector: { matchLabels: { app: 'web' } }, template: podTemplate({ app: 'web' }) }));
    expect(created.status).toBe(201);
    const current = created.json;
    current.spec.selector = { matchLabels: { app: 'web', track: 'canary' } };
    current.spec.template.metadata.labels = { app: 'web', track: 'canary' };
    const res = await send('PUT', `${DEPLOYMENTS}/web`, current);
    expect(res.status).toBe(422);
    expect(res.text.trim()).toBe(
      invalidStatus('Deployment', 'apps', 'web', [
        [
          'spec.selector',
          'FieldValueInvalid',
          'Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "track":"canary"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
        ],
      ]),
    );
    const patched = await request(api.url, `${DEPLOYMENTS}/web`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ spec: { replicas: 3 } }),
    });
    expect(patched.status).toBe(200);
    expect(patched.json.spec.replicas).toBe(3);
  });

  it('a StatefulSet read back and scaled is updated; a changed serviceName is forbidden', async () => {
    const path = '/apis/apps/v1/namespaces/default/statefulsets';
    const sts = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec: { serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: podTemplate({ app: 'db' }) } };
    expect((await send('POST', path, sts)).status).toBe(201);
    const read = (await request(api.url, `${path}/db`)).json;
    read.spec.replicas = 2;
    const scaled = await send('PUT', `${path}/db`, read);
    expect(scaled.status).toBe(200);
    scaled.json.spec.serviceName = 'other';
    const res = await send('PUT', `${path}/db`, scaled.json);
    expect(res.status).toBe(422);
    expect(res.text.trim()).toBe(
      invalidStatus('StatefulSet', 'apps', 'db', [
        ['spec', 'FieldValueForbidden', "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"],
      ]),
    );
  });

  it('a Job with restartPolicy Always is 422: restartPolicy is required to be OnFailure or Never', async () => {
    const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'pi' }, spec: { template: podTemplate({ app: 'pi' }, 'Always') } };
    const res = await send('POST', '/apis/batch/v1/namespaces/default/jobs', job);
    expect(res.status).toBe(422);
    expect(res.text.trim()).toBe(
      invalidStatus('Job', 'batch', 'pi', [['spec.template.spec.restartPolicy', 'FieldValueRequired', 'Required value: valid values: "OnFailure", "Never"']]),
    );
  });

  it('a CronJob with a bad schedule is 422 with the cron parser message', async () => {
    const cron = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'tick' },
      spec: { schedule: '*/5 * * *', jobTemplate: { spec: { template: podTemplate({ app: 'tick' }, 'OnFailure') } } },
    };
    const res = await send('POST', '/apis/batch/v1/namespaces/default/cronjobs', cron);
    expect(res.status).toBe(422);
    expect(res.text.trim()).toBe(
      invalidStatus('CronJob', 'batch', 'tick', [['spec.schedule', 'FieldValueInvalid', 'Invalid value: "*/5 * * *": expected exactly 5 fields, found 4: [*/5 * * *]']]),
    );
  });

  it('kubectl apply and create of an invalid Deployment print the apiserver message and exit non-zero', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(
      file,
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata:',
        '  name: bad',
        'spec:',
        '  selector:',
        '    matchLabels:',
        '      app: api',
        '  template:',
        '    metadata:',
        '      labels:',
        '        app: web',
        '    spec:',
        '      containers:',
        '      - name: web',
        '        image: nginx:1.25',
        '',
      ].join('\n'),
    );
    // kubectl turns a 422 Status into `The <Kind> "<name>" is invalid: <causes>`.
    const printed = 'The Deployment "bad" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`\n';
    for (const verb of ['apply', 'create']) {
      const out = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['-n', 'default', verb, '-f', file]);
      expect([verb, out.code, out.stderr]).toEqual([verb, 1, printed]);
    }
    expect((await request(api.url, `${DEPLOYMENTS}/bad`)).status).toBe(404);
  }, 60_000);

  it('valid workloads of every validated kind are still created', async () => {
    const sel = (app: string) => ({ matchLabels: { app } });
    const writes: Array<[string, Obj]> = [
      [DEPLOYMENTS, deployment('ok-deploy', { selector: sel('d'), template: podTemplate({ app: 'd' }) })],
      ['/apis/apps/v1/namespaces/default/replicasets', { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'ok-rs' }, spec: { selector: sel('r'), template: podTemplate({ app: 'r' }) } }],
      ['/apis/apps/v1/namespaces/default/statefulsets', { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'ok-sts' }, spec: { serviceName: 'ok', selector: sel('s'), template: podTemplate({ app: 's' }) } }],
      ['/apis/apps/v1/namespaces/default/daemonsets', { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'ok-ds' }, spec: { selector: sel('ds'), template: podTemplate({ app: 'ds' }) } }],
      ['/api/v1/namespaces/default/replicationcontrollers', { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'ok-rc' }, spec: { template: podTemplate({ app: 'rc' }) } }],
      ['/apis/batch/v1/namespaces/default/jobs', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'ok-job' }, spec: { template: podTemplate({ app: 'j' }, 'Never') } }],
      [
        '/apis/batch/v1/namespaces/default/cronjobs',
        { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'ok-cron' }, spec: { schedule: '@hourly', timeZone: 'Etc/UTC', jobTemplate: { spec: { template: podTemplate({ app: 'c' }, 'OnFailure') } } } },
      ],
    ];
    for (const [path, body] of writes) {
      const res = await send('POST', path, body);
      expect([body.kind, res.status]).toEqual([body.kind, 201]);
    }
    const rc = (await request(api.url, '/api/v1/namespaces/default/replicationcontrollers/ok-rc')).json;
    expect(rc.spec.selector).toEqual({ app: 'rc' });
    const patchJob = (patch: Obj) =>
      request(api.url, '/apis/batch/v1/namespaces/default/jobs/ok-job', { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify(patch) });
    expect((await patchJob({ metadata: { labels: { team: 'x' } }, spec: { suspend: true } })).status).toBe(200);
    const immutable = await patchJob({ spec: { completions: 5 } });
    expect(immutable.status).toBe(422);
    expect(immutable.json.message).toBe('Job.batch "ok-job" is invalid: spec.completions: Invalid value: 5: field is immutable');
  });
});
