import { fieldErrorText } from '../k8s/field-errors';
import { celValidator } from './cel-validator';

type Obj = Record<string, any>;

// Expected texts are kube-apiserver v1.26's (apiextensions-apiserver v0.26.15 cel.Validator with cel-go v0.12.7, run on the same objects).
const schema = (rule: string) => ({
  type: 'object',
  properties: { spec: { type: 'object', properties: { s: { type: 'string' }, n: { type: 'number' }, i: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule }] } },
});
const errors = (rule: string, spec: Obj) => celValidator(schema(rule))!({ spec }).map(fieldErrorText);
const conversionError = (to: string, rule: string) => [`spec: Invalid value: "object": type conversion error from 'string' to '${to}' evaluating rule: ${rule}`];

describe("cel-go's conversions in CRD validation rules", () => {
  it('int() of a string is strconv.ParseInt base 10: a sign, digits, nothing else', () => {
    const rule = 'int(self.s) == 1';
    expect(errors(rule, { s: '+1' })).toEqual([]);
    expect(errors(rule, { s: '-1' })).toEqual(['spec: Invalid value: "object": failed rule: int(self.s) == 1']);
    for (const s of ['', '0x10', '0X1f', '0b11', '0o7', '1e3', ' 1', '1_0', '9223372036854775808']) expect(errors(rule, { s })).toEqual(conversionError('int', rule));
  });

  it('uint() of a string takes no sign; uint() of a negative int or double is an unsigned integer overflow', () => {
    expect(errors('uint(self.s) == 1u', { s: '1' })).toEqual([]);
    for (const s of ['+1', '-0', '', '1.0', '18446744073709551616']) expect(errors('uint(self.s) == 1u', { s })).toEqual(conversionError('uint', 'uint(self.s) == 1u'));
    expect(errors('uint(self.i) == 1u', { i: -1 })).toEqual(['spec: Invalid value: "object": unsigned integer overflow evaluating rule: uint(self.i) == 1u']);
    expect(errors('uint(self.n) == 1u', { n: -0.5 })).toEqual(['spec: Invalid value: "object": unsigned integer overflow evaluating rule: uint(self.n) == 1u']);
  });

  it('double() of a string is strconv.ParseFloat: underscores between digits, hex with an exponent, inf, no overflow', () => {
    const rule = 'double(self.s) == 1000.0';
    expect(errors(rule, { s: '1_000' })).toEqual([]);
    expect(errors(rule, { s: '0x1p-2' })).toEqual([`spec: Invalid value: "object": failed rule: ${rule}`]);
    expect(errors(rule, { s: '+Inf' })).toEqual([`spec: Invalid value: "object": failed rule: ${rule}`]);
    for (const s of ['', '0x10', '1e400', ' 1', '1__0', 'abc']) expect(errors(rule, { s })).toEqual(conversionError('double', rule));
  });

  it('bool() of a string is strconv.ParseBool; duration() of a string is time.ParseDuration (a bare 0)', () => {
    expect(errors('bool(self.s)', { s: 'T' })).toEqual([]);
    expect(errors('bool(self.s)', { s: 'yes' })).toEqual(conversionError('bool', 'bool(self.s)'));
    const rule = "duration(self.s) == duration('0s')";
    expect(errors(rule, { s: '0' })).toEqual([]);
    expect(errors(rule, { s: '-0' })).toEqual([]);
    expect(errors(rule, { s: '.5s' })).toEqual([`spec: Invalid value: "object": failed rule: ${rule}`]);
    expect(errors(rule, { s: '1d' })).toEqual(conversionError('google.protobuf.Duration', rule));
  });

  it('int() of a double outside (-2^63, 2^63) is an integer overflow; string() of a double is Go %g', () => {
    expect(errors('int(self.n) == 1', { n: 1.9 })).toEqual([]);
    for (const n of [1e19, -9223372036854775808]) expect(errors('int(self.n) == 1', { n })).toEqual(['spec: Invalid value: "object": integer overflow evaluating rule: int(self.n) == 1']);
    for (const [n, s] of [[1e19, '1e+19'], [1000000.5, '1.0000005e+06'], [100000, '100000'], [0.00001, '1e-05'], [123456789, '1.23456789e+08'], [0.5, '0.5']] as const) {
      expect(errors('string(self.n) == self.s', { n, s })).toEqual([]);
    }
  });
});
