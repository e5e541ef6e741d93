/**
 * The apiserver's validation of Ingresses, IngressClasses and NetworkPolicies through a real
 * `serve`: the 422 Status (code, reason, message, details.causes) a v1.26 apiserver answers, what
 * kubectl prints of it, and valid objects still created.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { get } from '../support/http-client';
import { kubectl } from '../support/kube-clients';
import { invalidStatus, sendJson, type Cause } from './invalid-status';

type Obj = Record<string, any>;

const NETWORKING = '/apis/networking.k8s.io/v1';

describe('serve writes: Ingress, IngressClass and NetworkPolicy validation', () => {
  let api: ServeServer;
  let dir: string;
  beforeAll(async () => {
    api = await serve({ seed: 5 });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-netval-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const send = (method: string, path: string, body: Obj, contentType?: string) => sendJson(api.url, method, path, body, contentType);
  const create = (resource: string, body: Obj) => send('POST', `${NETWORKING}/namespaces/default/${resource}`, body);
  const invalid = (kind: string, name: string, causes: Cause[]) => invalidStatus(kind, 'networking.k8s.io', name, causes);
  const backend = { service: { name: 'web', port: { number: 80 } } };

  it('an Ingress without rules or a default backend is 422 Invalid at spec', async () => {
    const r = await create('ingresses', { metadata: { name: 'empty' }, spec: { ingressClassName: 'nginx' } });
    expect(r.status).toBe(422);
    expect(r.json).toEqual(
      invalid('Ingress', 'empty', [['FieldValueInvalid', 'Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified', 'spec']]),
    );
    expect((await get(`${api.url}${NETWORKING}/namespaces/default/ingresses/empty`)).status).toBe(404);
  });

  it('a Prefix path that is not absolute and a backend with both service and resource are 422', async () => {
    const resource = { apiGroup: 'k8s.example.com', kind: 'StorageBucket', name: 'static' };
    const r = await create('ingresses', {
      metadata: { name: 'paths' },
      spec: { rules: [{ host: 'shop.example.com', http: { paths: [{ path: 'api', pathType: 'Prefix', backend }, { path: '/static', pathType: 'Prefix', backend: { ...backend, resource } }] } }] },
    });
    expect(r.status).toBe(422);
    expect(r.json).toEqual(
      invalid('Ingress', 'paths', [
        ['FieldValueInvalid', 'Invalid value: "api": must be an absolute path', 'spec.rules[0].http.paths[0].path'],
        ['FieldValueInvalid', 'Invalid value: "": cannot set both resource and service backends', 'spec.rules[0].http.paths[1].backend'],
      ]),
    );
  });

  it('a valid Ingress is created; an update that empties it is 422; the class annotation next to ingressClassName is refused on create only', async () => {
    const spec = { ingressClassName: 'nginx', rules: [{ host: '*.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }], tls: [{ hosts: ['*.example.com'], secretName: 'wild' }] };
    const made = await create('ingresses', { metadata: { name: 'web' }, spec });
    expect(made.status).toBe(201);
    expect(made.json.spec).toEqual(spec);
    const emptied = await send('PATCH', `${NETWORKING}/namespaces/default/ingresses/web`, { spec: { rules: null } }, 'application/merge-patch+json');
    expect(emptied.status).toBe(422);
    expect(emptied.json.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified', field: 'spec' }]);
    const annotated = await create('ingresses', { metadata: { name: 'both', annotations: { 'kubernetes.io/ingress.class': 'nginx' } }, spec: { ingressClassName: 'nginx', defaultBackend: backend } });
    expect(annotated.status).toBe(422);
    expect(annotated.json).toEqual(invalid('Ingress', 'both', [['FieldValueInvalid', 'Invalid value: "nginx": can not be set when the class field is also set', 'annotations.kubernetes.io/ingress.class']]));
    const later = await send('PATCH', `${NETWORKING}/namespaces/default/ingresses/web`, { metadata: { annotations: { 'kubernetes.io/ingress.class': 'nginx' } } }, 'application/merge-patch+json');
    expect(later.status).toBe(200);
  });

  it('an IngressClass controller must be a domain-prefixed path, and may not change', async () => {
    const bad = await send('POST', `${NETWORKING}/ingressclasses`, { metadata: { name: 'bad' }, spec: { controller: 'nginx' } });
    expect(bad.status).toBe(422);
    expect(bad.json).toEqual(invalid('IngressClass', 'bad', [['FieldValueInvalid', 'Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")', 'spec.controller']]));
    const made = await send('POST', `${NETWORKING}/ingressclasses`, { metadata: { name: 'nginx' }, spec: { controller: 'k8s.io/ingress-nginx', parameters: { kind: 'ConfigMap', name: 'conf', scope: 'Namespace', namespace: 'ingress' } } });
    expect(made.status).toBe(201);
    const moved = await send('PATCH', `${NETWORKING}/ingressclasses/nginx`, { spec: { controller: 'example.com/other' } }, 'application/merge-patch+json');
    expect(moved.status).toBe(422);
    expect(moved.json.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: "example.com/other": field is immutable', field: 'spec.controller' }]);
  });

  it('a NetworkPolicy with a bad CIDR is 422', async () => {
    const r = await create('networkpolicies', {
      metadata: { name: 'cidr' },
      spec: { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/40' } }, { ipBlock: { cidr: '10.0.0.0/16', except: ['10.1.0.0/24'] } }] }] },
    });
    expect(r.status).toBe(422);
    expect(r.json).toEqual(
      invalid('NetworkPolicy', 'cidr', [
        ['FieldValueInvalid', 'Invalid value: "10.0.0.0/40": not a valid CIDR', 'spec.ingress[0].from[0].ipBlock.cidr'],
        ['FieldValueInvalid', 'Invalid value: "10.1.0.0/24": must be a strict subset of `cidr`', 'spec.ingress[0].from[1].ipBlock.except[0]'],
      ]),
    );
  });

  it('a NetworkPolicy with an unsupported policyType is 422; a valid one is created and an update is checked too', async () => {
    const r = await create('networkpolicies', { metadata: { name: 'types' }, spec: { podSelector: {}, policyTypes: ['Ingress', 'Outbound'] } });
    expect(r.status).toBe(422);
    expect(r.json).toEqual(invalid('NetworkPolicy', 'types', [['FieldValueNotSupported', 'Unsupported value: "Outbound": supported values: "Ingress", "Egress"', 'spec.policyTypes[1]']]));
    const spec = {
      podSelector: { matchLabels: { app: 'db' } },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [{ from: [{ namespaceSelector: { matchLabels: { team: 'a' } }, podSelector: { matchLabels: { app: 'web' } } }], ports: [{ protocol: 'TCP', port: 5432 }] }],
      egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }], ports: [{ protocol: 'UDP', port: 30000, endPort: 32767 }] }],
    };
    const made = await create('networkpolicies', { metadata: { name: 'db' }, spec });
    expect(made.status).toBe(201);
    const bad = await send('PATCH', `${NETWORKING}/namespaces/default/networkpolicies/db`, { spec: { egress: [{ ports: [{ port: 'dns', endPort: 60 }] }] } }, 'application/merge-patch+json');
    expect(bad.status).toBe(422);
    expect(bad.json.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: 60: may not be specified when `port` is non-numeric', field: 'spec.egress[0].ports[0].endPort' }]);
  });

  it('defaults as v1.26 does: policyTypes from the rules, TCP ports, an IngressClass parameters scope of Cluster', async () => {
    const ingressOnly = await create('networkpolicies', { metadata: { name: 'in-only' }, spec: { podSelector: {}, ingress: [{ ports: [{ port: 80 }] }] } });
    expect([ingressOnly.status, ingressOnly.json.spec.policyTypes, ingressOnly.json.spec.ingress[0].ports]).toEqual([201, ['Ingress'], [{ protocol: 'TCP', port: 80 }]]);
    const both = await create('networkpolicies', { metadata: { name: 'both' }, spec: { podSelector: {}, egress: [{}] } });
    expect([both.status, both.json.spec.policyTypes]).toEqual([201, ['Ingress', 'Egress']]);
    const cls = await send('POST', `${NETWORKING}/ingressclasses`, { metadata: { name: 'scoped' }, spec: { controller: 'example.com/ingress', parameters: { kind: 'Params', name: 'p' } } });
    expect([cls.status, cls.json.spec.parameters]).toEqual([201, { kind: 'Params', name: 'p', scope: 'Cluster' }]);
  });

  it("kubectl create -f of an invalid Ingress prints the apiserver's message", async () => {
    const file = join(dir, 'ing.yaml');
    writeFileSync(
      file,
      'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: bad\nspec:\n  rules:\n  - host: 10.0.0.1\n    http:\n      paths:\n      - path: /\n        pathType: Regex\n        backend:\n          service:\n            name: web\n',
    );
    const out = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['create', '-n', 'default', '-f', file]);
    expect(out.code).not.toBe(0);
    expect(out.stderr.trim()).toBe(
      'The Ingress "bad" is invalid: \n' +
        '* spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address\n' +
        '* spec.rules[0].http.paths[0].pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"\n' +
        '* spec.rules[0].http.paths[0].backend: Required value: port name or number is required',
    );
  }, 30_000);
});
