import { fieldErrorText } from '../k8s/field-errors';
import { celValidator } from './cel-validator';

type Obj = Record<string, any>;

// Expected texts are kube-apiserver v1.26's (apiextensions-apiserver v0.26.15 cel.Validator with cel-go v0.12.7, run on the same objects).
const schema = (rule: string) => ({
  type: 'object',
  properties: { spec: { type: 'object', properties: { s: { type: 'string' }, n: { type: 'number' }, i: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule }] } },
});
const errors = (rule: string, spec: Obj) => celValidator(schema(rule))!({ spec }).map(fieldErrorText);
const failed = (rule: string) => [`spec: Invalid value: "object": failed rule: ${rule}`];

describe("cel-go's operators in CRD validation rules", () => {
  it('x in [constants] is false, not an error, for a missing field, and false for an empty list', () => {
    expect(errors("self.s in ['a', '']", {})).toEqual(failed("self.s in ['a', '']"));
    expect(errors('self.s in []', {})).toEqual(failed('self.s in []'));
    expect(errors("self.s in ['a', 'b'] || self.i > 0", {})).toEqual(["spec: Invalid value: \"object\": no such key: i evaluating rule: self.s in ['a', 'b'] || self.i > 0"]);
    expect(errors('self.i in [-1, 1]', { i: -1 })).toEqual([]);
  });

  it('x in [constants] matches numbers across int and double where the conversion is lossless', () => {
    expect(errors('dyn(self.i) in [1.0, 2.5]', { i: 1 })).toEqual([]);
    expect(errors('dyn(self.i) in [1.0, 2.5]', { i: 2 })).toEqual(failed('dyn(self.i) in [1.0, 2.5]'));
    expect(errors('dyn(self.n) in [1, 2]', { n: 1 })).toEqual([]);
    expect(errors('dyn(self.n) in [1, 2]', { n: 1.5 })).toEqual(failed('dyn(self.n) in [1, 2]'));
  });

  it('reports the leftmost failing operand, receiver before arguments, and the left side of && and || when both fail', () => {
    const missing = (field: string, rule: string) => [`spec: Invalid value: "object": no such key: ${field} evaluating rule: ${rule}`];
    expect(errors('self.i > 0 || self.n > 0.0', {})).toEqual(missing('i', 'self.i > 0 || self.n > 0.0'));
    expect(errors('self.i > 0 && self.n > 0.0', {})).toEqual(missing('i', 'self.i > 0 && self.n > 0.0'));
    expect(errors('self.i > 0 || self.n > 0.0', { n: 1 })).toEqual([]);
    expect(errors('self.i > 0 && self.n > 0.0', { n: -1 })).toEqual(failed('self.i > 0 && self.n > 0.0'));
    expect(errors('self.s.substring(self.i, 1) == ""', {})).toEqual(missing('s', 'self.s.substring(self.i, 1) == ""'));
    expect(errors('self.s.substring(self.i, 1) == ""', { s: 'a' })).toEqual(missing('i', 'self.s.substring(self.i, 1) == ""'));
    expect(errors('[self.s, string(self.i)].size() == 2', {})).toEqual(missing('s', '[self.s, string(self.i)].size() == 2'));
    expect(errors('self.s.startsWith(self.s) || self.i > 1', {})).toEqual(missing('s', 'self.s.startsWith(self.s) || self.i > 1'));
  });

  it('orders no NaN, and the lowest int divided by -1 overflows', () => {
    expect(errors('self.n / 0.0 > 1.0', { n: 0 })).toEqual(['spec: Invalid value: "object": NaN values cannot be ordered evaluating rule: self.n / 0.0 > 1.0']);
    expect(errors('self.n / 0.0 > 1.0', { n: 1 })).toEqual([]);
    expect(errors('(-9223372036854775807 - 1) / (self.i - 2) > 0', { i: 1 })).toEqual(['spec: Invalid value: "object": integer overflow evaluating rule: (-9223372036854775807 - 1) / (self.i - 2) > 0']);
    expect(errors('(-9223372036854775807 - 1) % (self.i - 2) == 0', { i: 1 })).toEqual(['spec: Invalid value: "object": integer overflow evaluating rule: (-9223372036854775807 - 1) % (self.i - 2) == 0']);
  });

  it('checks time arithmetic as cel-go does: durations in int64 nanoseconds, timestamps in years 1 to 9999', () => {
    const time = (rule: string, spec: Obj) =>
      celValidator({ type: 'object', properties: { spec: { type: 'object', properties: { t: { type: 'string', format: 'date-time' }, d: { type: 'string', format: 'duration' } }, 'x-kubernetes-validations': [{ rule }] } } })!({ spec }).map(fieldErrorText);
    const error = (text: string, rule: string) => [`spec: Invalid value: "object": ${text} evaluating rule: ${rule}`];
    expect(time('self.d + self.d > self.d', { d: '2562047h' })).toEqual(error('integer overflow', 'self.d + self.d > self.d'));
    expect(time('self.d + self.d > self.d', { d: '1h' })).toEqual([]);
    expect(time("timestamp('9999-12-31T23:59:59Z') + self.d > self.t", { d: '1h', t: '2024-01-01T00:00:00Z' })).toEqual(error('timestamp overflow', "timestamp('9999-12-31T23:59:59Z') + self.d > self.t"));
    expect(time('self.t - self.d < self.t', { d: '1h', t: '0001-01-01T00:30:00Z' })).toEqual(error('timestamp overflow', 'self.t - self.d < self.t'));
    expect(time("self.t - timestamp('0001-01-01T00:00:00Z') > self.d", { d: '1h', t: '9999-01-01T00:00:00Z' })).toEqual(error('integer overflow', "self.t - timestamp('0001-01-01T00:00:00Z') > self.d"));
    expect(time('self.t + self.d > self.t', { d: '1h', t: '9999-12-31T22:00:00Z' })).toEqual([]);
  });
});
