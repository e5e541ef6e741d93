import { fieldErrorText, type FieldError } from './field-errors';
import { validateIngressClass, validateIngressClassUpdate } from './ingress-class-validation';

type Obj = Record<string, any>;

const ic = (spec: Obj): Obj => ({ apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', metadata: { name: 'nginx' }, spec });
const texts = (errs: FieldError[]) => errs.map(fieldErrorText);

describe('validateIngressClass (ValidateIngressClass)', () => {
  it('accepts a domain-prefixed controller with cluster- or namespace-scoped parameters', () => {
    expect(validateIngressClass(ic({ controller: 'k8s.io/ingress-nginx' }))).toEqual([]);
    expect(validateIngressClass(ic({ controller: 'example.com/a/b;c=d', parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'p' } }))).toEqual([]);
    expect(validateIngressClass(ic({ controller: 'example.com/x', parameters: { kind: 'ConfigMap', name: 'p', scope: 'Namespace', namespace: 'ingress' } }))).toEqual([]);
  });

  it('the controller is required and a domain-prefixed path', () => {
    expect(validateIngressClass(ic({}))).toEqual([{ type: 'Required', field: 'spec.controller', detail: '' }]);
    expect(texts(validateIngressClass(ic({ controller: 'nginx' })))).toEqual(['spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")']);
    expect(texts(validateIngressClass(ic({ controller: 'example.com/' })))).toEqual(['spec.controller: Invalid value: "example.com/": must be a domain-prefixed path (such as "acme.io/foo")']);
    expect(texts(validateIngressClass(ic({ controller: 'Example.com/a b' })))).toEqual([
      "spec.controller: Invalid value: \"Example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      "spec.controller: Invalid value: \"a b\": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')",
    ]);
    expect(texts(validateIngressClass(ic({ controller: `example.com/${'a'.repeat(240)}` })))).toEqual(['spec.controller: Too long: must have at most 250 bytes']);
  });

  it('parameters: kind and name, the scope Cluster or Namespace, a namespace only for Namespace', () => {
    expect(texts(validateIngressClass(ic({ controller: 'example.com/x', parameters: { apiGroup: '', kind: '', name: '..' } })))).toEqual([
      expect.stringMatching(/^spec\.parameters\.apiGroup: Invalid value: "": a lowercase RFC 1123 subdomain/),
      'spec.parameters.kind: Required value: kind is required',
      "spec.parameters.name: Invalid value: \"..\": may not be '..'",
    ]);
    expect(texts(validateIngressClass(ic({ controller: 'example.com/x', parameters: { kind: 'K', name: 'n', scope: 'Global' } })))).toEqual([
      'spec.parameters.scope: Unsupported value: "Global": supported values: "Cluster", "Namespace"',
    ]);
    expect(texts(validateIngressClass(ic({ controller: 'example.com/x', parameters: { kind: 'K', name: 'n', scope: 'Namespace' } })))).toEqual([
      "spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'",
    ]);
    expect(texts(validateIngressClass(ic({ controller: 'example.com/x', parameters: { kind: 'K', name: 'n', scope: 'Namespace', namespace: 'a.b' } })))).toEqual([
      expect.stringMatching(/^spec\.parameters\.namespace: Invalid value: "a\.b": a lowercase RFC 1123 label/),
    ]);
    expect(texts(validateIngressClass(ic({ controller: 'example.com/x', parameters: { kind: 'K', name: 'n', namespace: 'ns' } })))).toEqual([
      "spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'",
    ]);
  });
});

describe('validateIngressClassUpdate (ValidateIngressClassUpdate)', () => {
  it('the controller is immutable; the create rules run on the new object', () => {
    const old = ic({ controller: 'example.com/a' });
    expect(validateIngressClassUpdate(ic({ controller: 'example.com/a', parameters: { kind: 'K', name: 'n' } }), old)).toEqual([]);
    expect(texts(validateIngressClassUpdate(ic({ controller: 'b' }), old))).toEqual([
      'spec.controller: Invalid value: "b": field is immutable',
      'spec.controller: Invalid value: "b": must be a domain-prefixed path (such as "acme.io/foo")',
    ]);
  });
});
