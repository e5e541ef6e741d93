/**
 * Rules of the kinds operators' CRDs carry (sibling comparisons, immutability, has(), ternaries,
 * macros over lists and map keys, enums, int-or-string, timestamps, durations, the root's name)
 * compile at CRD time and hold for an object that satisfies them — a guard against refusing
 * what v1.26 accepts.
 */
import { fieldErrorText } from '../k8s/field-errors';
import { celValidator } from './cel-validator';
import { crdValidationRuleErrors } from './crd-rule-validation';

const v = (rule: string) => ({ rule });
const spec = {
  type: 'object',
  'x-kubernetes-validations': [
    v('self.minReplicas <= self.maxReplicas'), v('!has(oldSelf.mode) || has(self.mode)'), v('has(self.tls) ? self.port == 443 : true'),
    v('self.replicas >= 0 && self.replicas <= 100'), v('self.ratio >= 0.0 && self.ratio <= 1.0'), v('self.expiry > self.issued'),
    v("duration(self.timeout) < duration('1h')"), v('self.items.map(x, x.name).size() == self.items.size()'), v('self.items.filter(x, x.weight > 0).size() > 0'),
    v('self.items.exists_one(x, x.primary == true)'), v("self.labels.all(k, k.startsWith('x'))"), v("self.mode in ['A', 'B']"),
    v("type(self.pct) == string ? self.pct.matches('^[0-9]+%$') : self.pct >= 0"), v('self.names.all(n, n.matches("^[a-z]+$"))'),
    v("self.items.all(i, i.name != '') && self.names.size() <= 10"), v('self.mode == oldSelf.mode'), v('self.tls == oldSelf.tls'),
  ],
  properties: {
    minReplicas: { type: 'integer' }, maxReplicas: { type: 'integer' }, replicas: { type: 'integer' }, mode: { type: 'string' },
    tls: { type: 'object', properties: { secret: { type: 'string' } } }, port: { type: 'integer' }, ratio: { type: 'number' },
    expiry: { type: 'string', format: 'date-time' }, issued: { type: 'string', format: 'date-time' }, timeout: { type: 'string' },
    items: { type: 'array', maxItems: 10, items: { type: 'object', properties: { name: { type: 'string' }, weight: { type: 'integer' }, primary: { type: 'boolean' } } } },
    labels: { type: 'object', additionalProperties: { type: 'string' } }, pct: { 'x-kubernetes-int-or-string': true },
    // Bounded: matches() over a list of strings without maxItems and maxLength exceeds v1.26's estimated cost limit.
    names: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 63 } },
  },
};
const schema = { type: 'object', 'x-kubernetes-validations': [v('self.metadata.name.size() <= 63'), v('self.spec.replicas == 0 || has(self.spec.mode)')], properties: { spec } };

it('operators\' common rules compile and hold for an object that satisfies them', () => {
  expect(crdValidationRuleErrors({ spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: schema } }] } }).map(fieldErrorText)).toEqual([]);
  const obj = {
    apiVersion: 'x/v1', kind: 'X', metadata: { name: 'n' },
    spec: {
      minReplicas: 1, maxReplicas: 2, replicas: 3, mode: 'A', tls: { secret: 's' }, port: 443, ratio: 0.5, expiry: '2025-01-02T00:00:00Z', issued: '2024-01-02T00:00:00Z',
      timeout: '5m', items: [{ name: 'a', weight: 1, primary: true }], labels: { xa: 'b' }, pct: '50%', names: ['ab'],
    },
  };
  expect(celValidator(schema)!(obj, obj).map(fieldErrorText)).toEqual([]);
  const changed = { ...obj, spec: { ...obj.spec, maxReplicas: 0, mode: 'B', tls: { secret: 't' } } };
  expect(celValidator(schema)!(changed, obj).map(fieldErrorText)).toEqual([
    'spec: Invalid value: "object": failed rule: self.minReplicas <= self.maxReplicas',
    'spec: Invalid value: "object": failed rule: self.mode == oldSelf.mode',
    'spec: Invalid value: "object": failed rule: self.tls == oldSelf.tls',
  ]);
});

it('has() of a field of an index or a call compiles and tests presence (cel-go\'s has() takes any operand of a selection)', () => {
  // As gateway-api's HTTPRoute rules: `!has(self.matches[0].path)`, and inside a macro.
  const route = {
    type: 'object',
    'x-kubernetes-validations': [
      v("size(self.matches) != 1 || !has(self.matches[0].path) || self.matches[0].path.type == 'PathPrefix'"),
      v('self.matches.all(m, !has(m.path) || has(self.matches.filter(x, has(x.path))[0].path.type))'),
      v("self.matches.filter(m, has(m.path))[0].path.type != '' || true"),
    ],
    properties: {
      matches: { type: 'array', maxItems: 8, items: { type: 'object', properties: { path: { type: 'object', properties: { type: { type: 'string', maxLength: 20 } } } } } },
    },
  };
  const schema = { type: 'object', properties: { spec: route } };
  expect(crdValidationRuleErrors({ spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: schema } }] } }).map(fieldErrorText)).toEqual([]);
  const validate = celValidator(schema)!;
  expect(validate({ spec: { matches: [{}] } }, undefined).map(fieldErrorText)).toEqual([]);
  expect(validate({ spec: { matches: [{ path: { type: 'PathPrefix' } }] } }, undefined).map(fieldErrorText)).toEqual([]);
  expect(validate({ spec: { matches: [{ path: { type: 'Exact' } }] } }, undefined).map(fieldErrorText)).toEqual([
    `spec: Invalid value: "object": failed rule: size(self.matches) != 1 || !has(self.matches[0].path) || self.matches[0].path.type == 'PathPrefix'`,
  ]);
  // An undefined field is still refused, as cel-go refuses it.
  const typo = { type: 'object', properties: { spec: { ...route, 'x-kubernetes-validations': [v('has(self.matches[0].pth)')] } } };
  expect(crdValidationRuleErrors({ spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: typo } }] } }).map(fieldErrorText)).toEqual([
    expect.stringContaining("compilation failed: ERROR: <input>:1:4: undefined field 'pth'"),
  ]);
});
