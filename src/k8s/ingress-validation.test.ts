import { fieldErrorText, type FieldError } from './field-errors';
import { validateIngress, validateIngressUpdate } from './ingress-validation';

type Obj = Record<string, any>;

const ing = (spec: Obj, annotations?: Obj): Obj => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { name: 'i', namespace: 'default', ...(annotations ? { annotations } : {}) },
  spec,
});
const svcBackend = (port: Obj = { number: 80 }, name = 'web') => ({ service: { name, port } });
const httpRule = (paths: Obj[], host?: string): Obj => ({ ...(host !== undefined ? { host } : {}), http: { paths } });
const path = (p: Obj = {}) => ({ path: '/', pathType: 'Prefix', backend: svcBackend(), ...p });
const texts = (errs: FieldError[]) => errs.map(fieldErrorText);
const DNS_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const WILDCARD =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('validateIngress (ValidateIngressCreate)', () => {
  it('accepts a default backend alone, rules alone, wildcard hosts, TLS and a class name', () => {
    expect(validateIngress(ing({ defaultBackend: svcBackend() }))).toEqual([]);
    expect(validateIngress(ing({ rules: [httpRule([path()], 'foo.example.com')] }))).toEqual([]);
    expect(validateIngress(ing({ rules: [httpRule([path({ pathType: 'Exact', path: '/a/b' })], '*.example.com')] }))).toEqual([]);
    expect(validateIngress(ing({ rules: [{ host: 'bare.example.com' }], tls: [{ hosts: ['*.example.com', 'a.example.com'], secretName: 'tls-cert' }], ingressClassName: 'nginx' }))).toEqual([]);
    expect(validateIngress(ing({ rules: [httpRule([path({ pathType: 'ImplementationSpecific', path: '' }), path({ pathType: 'ImplementationSpecific', path: '/.*' })])] }))).toEqual([]);
  });

  it('needs a default backend or rules: Invalid at spec with the nil or empty rule list', () => {
    expect(validateIngress(ing({}))).toEqual([
      { type: 'Invalid', field: 'spec', value: { goSyntax: '[]networking.IngressRule(nil)' }, detail: 'either `defaultBackend` or `rules` must be specified' },
    ]);
    expect(texts(validateIngress(ing({ rules: [] })))).toEqual(['spec: Invalid value: []networking.IngressRule{}: either `defaultBackend` or `rules` must be specified']);
  });

  it('a rule host may not be an IP address, a bad DNS name or a bad wildcard', () => {
    expect(texts(validateIngress(ing({ rules: [httpRule([path()], '10.0.0.1'), httpRule([path()], 'Foo_bar'), httpRule([path()], 'a.*.com'), httpRule([path()], '::1')] })))).toEqual([
      'spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address',
      `spec.rules[1].host: Invalid value: "Foo_bar": ${DNS_SUBDOMAIN}`,
      `spec.rules[2].host: Invalid value: "a.*.com": ${WILDCARD}`,
      'spec.rules[3].host: Invalid value: "::1": must be a DNS name, not an IP address',
      `spec.rules[3].host: Invalid value: "::1": ${DNS_SUBDOMAIN}`,
    ]);
  });

  it('http rules need paths; each path needs a pathType, then an absolute, clean path for Prefix and Exact', () => {
    expect(texts(validateIngress(ing({ rules: [httpRule([])] })))).toEqual(['spec.rules[0].http.paths: Required value']);
    expect(texts(validateIngress(ing({ rules: [httpRule([{ path: '/', backend: {} }])] })))).toEqual(['spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified']);
    expect(
      texts(
        validateIngress(
          ing({
            rules: [
              httpRule([path({ path: 'api' }), path({ pathType: 'Exact', path: '' }), path({ path: '/a//b/./c/..' }), path({ path: '/x%2Fy/.' })]),
              httpRule([path({ pathType: 'ImplementationSpecific', path: 'rel' }), path({ pathType: 'Regex' })]),
            ],
          }),
        ),
      ),
    ).toEqual([
      'spec.rules[0].http.paths[0].path: Invalid value: "api": must be an absolute path',
      'spec.rules[0].http.paths[1].path: Invalid value: "": must be an absolute path',
      'spec.rules[0].http.paths[2].path: Invalid value: "/a//b/./c/..": must not contain \'//\'',
      'spec.rules[0].http.paths[2].path: Invalid value: "/a//b/./c/..": must not contain \'/./\'',
      'spec.rules[0].http.paths[2].path: Invalid value: "/a//b/./c/..": cannot end with \'/..\'',
      'spec.rules[0].http.paths[3].path: Invalid value: "/x%2Fy/.": must not contain \'%2F\'',
      'spec.rules[0].http.paths[3].path: Invalid value: "/x%2Fy/.": cannot end with \'/.\'',
      'spec.rules[1].http.paths[0].path: Invalid value: "rel": must be an absolute path',
      'spec.rules[1].http.paths[1].pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"',
    ]);
  });

  it('a backend is exactly one of a service or a resource', () => {
    const resource = { apiGroup: 'k8s.example.com', kind: 'StorageBucket', name: 'static' };
    expect(validateIngress(ing({ defaultBackend: { resource } }))).toEqual([]);
    expect(validateIngress(ing({ rules: [httpRule([path({ backend: { ...svcBackend(), resource } })])] }))).toEqual([
      { type: 'Invalid', field: 'spec.rules[0].http.paths[0].backend', value: '', detail: 'cannot set both resource and service backends' },
    ]);
    expect(texts(validateIngress(ing({ defaultBackend: {} })))).toEqual(['spec.defaultBackend: Invalid value: "": resource or service backend is required']);
    expect(texts(validateIngress(ing({ defaultBackend: { resource: { apiGroup: 'Bad_Group', kind: '', name: 'a/b' } } })))).toEqual([
      `spec.defaultBackend.resource.apiGroup: Invalid value: "Bad_Group": ${DNS_SUBDOMAIN}`,
      'spec.defaultBackend.resource.kind: Required value: kind is required',
      "spec.defaultBackend.resource.name: Invalid value: \"a/b\": may not contain '/'",
    ]);
  });

  it("a service backend: a DNS-1035 name, and a port name or number, not both", () => {
    expect(texts(validateIngress(ing({ defaultBackend: svcBackend({ number: 80 }, '1web') })))).toEqual([
      "spec.defaultBackend.service.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]);
    expect(texts(validateIngress(ing({ defaultBackend: { service: { port: { name: 'http' } } } })))).toEqual(['spec.defaultBackend.service.name: Required value']);
    expect(texts(validateIngress(ing({ defaultBackend: svcBackend({ name: 'http', number: 80 }) })))).toEqual(['spec.defaultBackend: Invalid value: "": cannot set both port name & port number']);
    expect(texts(validateIngress(ing({ defaultBackend: svcBackend({}) })))).toEqual(['spec.defaultBackend: Required value: port name or number is required']);
    expect(texts(validateIngress(ing({ defaultBackend: svcBackend({ number: 70000 }) })))).toEqual([
      'spec.defaultBackend.service.port.number: Invalid value: 70000: must be between 1 and 65535, inclusive',
    ]);
    expect(texts(validateIngress(ing({ defaultBackend: svcBackend({ name: 'HTTP' }) })))).toEqual([
      'spec.defaultBackend.service.port.name: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'spec.defaultBackend.service.port.name: Invalid value: "HTTP": must contain at least one letter (a-z)',
    ]);
  });

  it('TLS hosts (indexed per entry), the TLS secret name and the class name', () => {
    expect(texts(validateIngress(ing({ defaultBackend: svcBackend(), tls: [{ hosts: ['ok.example.com'] }, { hosts: ['a.example.com', '*.*.com'], secretName: 'Bad' }], ingressClassName: 'Nginx' })))).toEqual([
      `spec.tls[1].hosts[1]: Invalid value: "*.*.com": ${WILDCARD}`,
      `spec.tls[1].secretName: Invalid value: "Bad": ${DNS_SUBDOMAIN}`,
      `spec.ingressClassName: Invalid value: "Nginx": ${DNS_SUBDOMAIN}`,
    ]);
  });

  it('the kubernetes.io/ingress.class annotation may not be set with ingressClassName, even when they are equal; alone, either is fine', () => {
    const both = ing({ defaultBackend: svcBackend(), ingressClassName: 'nginx' }, { 'kubernetes.io/ingress.class': 'nginx' });
    expect(validateIngress(both)).toEqual([
      { type: 'Invalid', field: 'annotations.kubernetes.io/ingress.class', value: 'nginx', detail: 'can not be set when the class field is also set' },
    ]);
    expect(validateIngress(ing({ defaultBackend: svcBackend() }, { 'kubernetes.io/ingress.class': 'nginx' }))).toEqual([]);
    // The annotation's error comes after the spec's.
    expect(texts(validateIngress(ing({ ingressClassName: 'nginx' }, { 'kubernetes.io/ingress.class': 'other' })))).toEqual([
      'spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified',
      'annotations.kubernetes.io/ingress.class: Invalid value: "other": can not be set when the class field is also set',
    ]);
  });
});

describe('validateIngressUpdate (ValidateIngressUpdate)', () => {
  it('runs the spec rules on the new object but not the annotation rule', () => {
    const old = ing({ defaultBackend: svcBackend() });
    expect(validateIngressUpdate(ing({ defaultBackend: svcBackend(), ingressClassName: 'a' }, { 'kubernetes.io/ingress.class': 'b' }), old)).toEqual([]);
    expect(texts(validateIngressUpdate(ing({}), old))).toEqual(['spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified']);
  });

  it('keeps accepting an invalid TLS secret name or an invalid wildcard rule the stored Ingress already has', () => {
    const badSecret = ing({ defaultBackend: svcBackend(), tls: [{ secretName: 'Bad' }] });
    expect(validateIngressUpdate(badSecret, badSecret)).toEqual([]);
    expect(texts(validateIngressUpdate(badSecret, ing({ defaultBackend: svcBackend() })))).toEqual([`spec.tls[0].secretName: Invalid value: "Bad": ${DNS_SUBDOMAIN}`]);
    const badWildcard = ing({ rules: [httpRule([path({ path: 'rel' })], '*.example.com')] });
    expect(validateIngressUpdate(badWildcard, badWildcard)).toEqual([]);
    expect(texts(validateIngressUpdate(badWildcard, ing({ rules: [httpRule([path()], '*.example.com')] })))).toEqual([
      'spec.rules[0].http.paths[0].path: Invalid value: "rel": must be an absolute path',
    ]);
  });
});
