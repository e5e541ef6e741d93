import { fieldErrorText } from '../k8s/field-errors';
import { celValidator } from './cel-validator';
import { escapeCelName } from './cel-value';

type Obj = Record<string, any>;

const rules = (...list: (string | [string, string])[]) => list.map((r) => (typeof r === 'string' ? { rule: r } : { rule: r[0], message: r[1] }));
const root = (spec: Obj, extra: Obj = {}) => ({ type: 'object', properties: { spec }, ...extra });
const texts = (schema: Obj, obj: Obj, old?: Obj) => celValidator(schema)!(obj, old).map(fieldErrorText);

describe('escapeCelName (k8s.io/apiserver/pkg/cel Escape)', () => {
  it('escapes reserved words, __ . - / and refuses names CEL cannot reach', () => {
    expect(escapeCelName('replicas')).toBe('replicas');
    expect(escapeCelName('_x')).toBe('_x');
    expect(escapeCelName('namespace')).toBe('__namespace__');
    expect(escapeCelName('x-prop')).toBe('x__dash__prop');
    expect(escapeCelName('redact__d')).toBe('redact__underscores__d');
    expect(escapeCelName('foo.bar/baz')).toBe('foo__dot__bar__slash__baz');
    expect(escapeCelName('a___b')).toBe('a__underscores___b');
    expect(escapeCelName('1abc')).toBeUndefined();
    expect(escapeCelName('a:b')).toBeUndefined();
    expect(escapeCelName('')).toBeUndefined();
  });
});

describe('celValidator', () => {
  it('is undefined for a schema without rules', () => {
    expect(celValidator(root({ type: 'object', properties: { a: { type: 'integer' } } }))).toBeUndefined();
    expect(celValidator(undefined)).toBeUndefined();
  });

  it('types self by the schema: integers are ints, numbers doubles, date-times timestamps, durations, bytes', () => {
    const schema = root({
      type: 'object',
      properties: {
        n: { type: 'integer', 'x-kubernetes-validations': rules('self + 1 == 3', 'type(self) == int') },
        d: { type: 'number', 'x-kubernetes-validations': rules('self / 2.0 == 1.25') },
        t: { type: 'string', format: 'date-time', 'x-kubernetes-validations': rules("self > timestamp('2020-01-01T00:00:00Z')") },
        day: { type: 'string', format: 'date', 'x-kubernetes-validations': rules("self == timestamp('2021-02-03T00:00:00Z')") },
        dur: { type: 'string', format: 'duration', 'x-kubernetes-validations': rules("self == duration('90m')") },
        b: { type: 'string', format: 'byte', 'x-kubernetes-validations': rules("self == b'hi'") },
        ios: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-validations': rules("type(self) == string || self > 0") },
      },
    });
    const spec = { n: 2, d: 2.5, t: '2024-05-06T07:08:09Z', day: '2021-02-03', dur: '1h30m', b: Buffer.from('hi').toString('base64'), ios: 'x' };
    expect(texts(schema, { spec })).toEqual([]);
    expect(texts(schema, { spec: { ...spec, n: 3, ios: 0 } })).toEqual([
      'spec.n: Invalid value: "integer": failed rule: self + 1 == 3',
      'spec.ios: Invalid value: "": failed rule: type(self) == string || self > 0',
    ]);
  });

  it('a byte string CEL cannot decode (v1.26 decodes with the URL alphabet) is an error where a rule reads it, equality included', () => {
    const schema = root({
      type: 'object',
      'x-kubernetes-validations': rules(['self == oldSelf', 'immutable'], 'self.name != ""'),
      properties: { name: { type: 'string' }, ca: { type: 'string', format: 'byte', 'x-kubernetes-validations': rules('size(self) > 0') }, list: { type: 'array', items: { type: 'string', format: 'byte' }, 'x-kubernetes-validations': rules('size(self) == 2', 'self[0] == self[1]') } },
    });
    const spec = { name: 'x', ca: 'a+c=', list: ['YQ==', 'Y/=='] };
    expect(texts(schema, { spec }, { spec })).toEqual([
      'spec: Invalid value: "object": Invalid byte formatted string a+c=: illegal base64 data at input byte 1 evaluating rule: immutable',
      'spec.ca: Invalid value: "string": Invalid byte formatted string a+c=: illegal base64 data at input byte 1 evaluating rule: size(self) > 0',
      'spec.list: Invalid value: "array": Invalid byte formatted string Y/==: illegal base64 data at input byte 1 evaluating rule: self[0] == self[1]',
    ]);
    expect(texts(schema, { spec: { name: 'x', ca: 'a-c_', list: ['YQ==', 'YQ=='] } }, { spec: { name: 'x', ca: 'a-c_', list: ['YQ==', 'YQ=='] } })).toEqual([]);
  });

  it('a date-time CEL cannot parse (a lowercase t or z, which the format allows) is an error where a rule reads it', () => {
    const schema = root({ type: 'string', format: 'date-time', 'x-kubernetes-validations': rules("self > timestamp('2000-01-01T00:00:00Z')") });
    expect(texts(schema, { spec: '2024-05-06t07:08:09Z' })).toEqual([
      `spec: Invalid value: "string": Invalid date-time formatted string 2024-05-06t07:08:09Z: parsing time "2024-05-06t07:08:09Z" as "2006-01-02T15:04:05": cannot parse "t07:08:09Z" as "T" evaluating rule: self > timestamp('2000-01-01T00:00:00Z')`,
    ]);
    expect(texts(schema, { spec: '2024-05-06T07:08:09.5z' })).toEqual([
      `spec: Invalid value: "string": Invalid date-time formatted string 2024-05-06T07:08:09.5z: parsing time "2024-05-06T07:08:09.5z": extra text: "z" evaluating rule: self > timestamp('2000-01-01T00:00:00Z')`,
    ]);
  });

  it('at the root self is the resource: apiVersion, kind, metadata name/generateName only; an error at the root is <nil>', () => {
    const schema = { type: 'object', 'x-kubernetes-validations': rules("self.kind == 'W' && self.metadata.name == 'w1'"), properties: {} };
    expect(texts(schema, { apiVersion: 'x/v1', kind: 'W', metadata: { name: 'w1', labels: { a: 'b' } } })).toEqual([]);
    expect(texts(schema, { apiVersion: 'x/v1', kind: 'W', metadata: { name: 'w2' } })).toEqual([
      `<nil>: Invalid value: "object": failed rule: self.kind == 'W' && self.metadata.name == 'w1'`,
    ]);
    // labels are not in the narrowed metadata: even has() of them does not compile (a CRD written
    // to serve with this rule is refused: crd-rule-validation); a recorded CRD's rule that does
    // not compile is not evaluated, the other rules are
    const labels = { type: 'object', 'x-kubernetes-validations': rules('!has(self.metadata.labels)', "self.kind == 'W'"), properties: {} };
    expect(texts(labels, { apiVersion: 'x/v1', kind: 'W', metadata: { name: 'w1', labels: { a: 'b' } } })).toEqual([]);
    expect(texts(labels, { apiVersion: 'x/v1', kind: 'V', metadata: { name: 'w1' } })).toEqual([`<nil>: Invalid value: "object": failed rule: self.kind == 'W'`]);
  });

  it('a message replaces the rule in failures and evaluation errors (trimmed there); no such overload has its own text', () => {
    const schema = root({
      type: 'object',
      'x-kubernetes-validations': rules(['self.a > self.b', ' a must exceed b '], 'self.c.startsWith("x")'),
      properties: { a: { type: 'integer' }, b: { type: 'integer' }, c: { 'x-kubernetes-int-or-string': true } },
    });
    expect(texts(schema, { spec: { a: 1, b: 2, c: 'y' } })).toEqual([
      'spec: Invalid value: "object":  a must exceed b ',
      'spec: Invalid value: "object": failed rule: self.c.startsWith("x")',
    ]);
    expect(texts(schema, { spec: { b: 2, c: 5 } })).toEqual([
      'spec: Invalid value: "object": no such key: a evaluating rule: a must exceed b',
      `spec: Invalid value: "object": 'no such overload: startsWith': call arguments did not match a supported operator, function or macro signature for rule: self.c.startsWith("x")`,
    ]);
  });

  it('a function or operator given a value of the wrong type at run time (an int-or-string) is cel-go\'s no such overload', () => {
    const schema = root({ 'x-kubernetes-int-or-string': true, 'x-kubernetes-validations': rules("self.startsWith('x')", "self.matches('x')", "self.charAt(0) == ''", "self.find('a') == ''", 'size(self) == 1', "self + 'a' == ''") });
    const call = (overload: string, rule: string) => `spec: Invalid value: "": '${overload}': call arguments did not match a supported operator, function or macro signature for rule: ${rule}`;
    expect(texts(schema, { spec: 5 })).toEqual([
      call('no such overload: startsWith', "self.startsWith('x')"),
      call('no such overload: matches', "self.matches('x')"),
      call('no such overload: charAt(int, int)', "self.charAt(0) == ''"),
      call('no such overload: find(int, string)', "self.find('a') == ''"),
      call('no such overload: size', 'size(self) == 1'),
      call('no such overload', "self + 'a' == ''"),
    ]);
  });

  it('a blank rule (which a CRD write refuses; a recorded CRD may hold one) compiles to nothing and is skipped', () => {
    const schema = root({ type: 'string', 'x-kubernetes-validations': [{ rule: '  ' }, { rule: "self == 'a'" }] });
    expect(texts(schema, { spec: 'b' })).toEqual([`spec: Invalid value: "string": failed rule: self == 'a'`]);
  });

  it('walks list items and map values with their paths; null values are not validated', () => {
    const schema = root({
      type: 'object',
      properties: {
        list: { type: 'array', items: { type: 'string', 'x-kubernetes-validations': rules('self.size() < 3') } },
        map: { type: 'object', additionalProperties: { type: 'integer', 'x-kubernetes-validations': rules('self >= 0') } },
        opt: { type: 'string', nullable: true, 'x-kubernetes-validations': rules("self != ''") },
      },
    });
    expect(texts(schema, { spec: { list: ['ab', 'abc'], map: { k: -1, j: 1 }, opt: null } })).toEqual([
      'spec.list[1]: Invalid value: "string": failed rule: self.size() < 3',
      'spec.map[k]: Invalid value: "integer": failed rule: self >= 0',
    ]);
  });

  it('transition rules run only where an old value correlates: by field, by map key, by list-map key — never for set or atomic list items', () => {
    const fixed = { type: 'string', 'x-kubernetes-validations': rules(['self == oldSelf', 'immutable']) };
    const schema = root({
      type: 'object',
      properties: {
        name: fixed,
        byKey: { type: 'object', additionalProperties: fixed },
        ports: {
          type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } }, 'x-kubernetes-validations': rules(['self.port == oldSelf.port', 'port fixed']) },
        },
        set: { type: 'array', 'x-kubernetes-list-type': 'set', items: fixed },
        atomic: { type: 'array', items: fixed },
      },
    });
    const old = { spec: { name: 'a', byKey: { k: 'v' }, ports: [{ name: 'http', port: 80 }], set: ['x'], atomic: ['y'] } };
    expect(texts(schema, old)).toEqual([]);
    expect(texts(schema, { spec: { name: 'b', byKey: { k: 'w', new: 'z' }, ports: [{ name: 'grpc', port: 1 }, { name: 'http', port: 81 }], set: ['q'], atomic: ['r'] } }, old)).toEqual([
      'spec.name: Invalid value: "string": immutable',
      'spec.byKey[k]: Invalid value: "string": immutable',
      'spec.ports[1]: Invalid value: "object": port fixed',
    ]);
    // on create no transition rule runs
    expect(texts(schema, { spec: { name: 'b' } })).toEqual([]);
  });

  it('list-type set and map lists are equal whatever their order (v1.26 compares them as sets and by key); other lists in order', () => {
    const schema = root({
      type: 'object',
      'x-kubernetes-validations': rules(['self == oldSelf', 'spec is immutable']),
      properties: {
        set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        ints: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } },
        times: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string', format: 'date-time' } },
        ports: {
          type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' }, tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } } },
        },
        atomic: { type: 'array', items: { type: 'string' } },
      },
    });
    const old = { spec: { set: ['a', 'b'], ints: [1, 2], times: ['2020-01-01T00:00:00Z', '2021-01-01T00:00:00Z'], ports: [{ name: 'http', port: 80, tags: ['x', 'y'] }, { name: 'grpc', port: 90 }], atomic: ['p', 'q'] } };
    const reordered = { spec: { set: ['b', 'a'], ints: [2, 1], times: ['2021-01-01T00:00:00Z', '2020-01-01T00:00:00Z'], ports: [{ port: 90, name: 'grpc' }, { name: 'http', port: 80, tags: ['y', 'x'] }], atomic: ['p', 'q'] } };
    expect(texts(schema, reordered, old)).toEqual([]);
    expect(texts(schema, { spec: { ...reordered.spec, atomic: ['q', 'p'] } }, old)).toEqual(['spec: Invalid value: "object": spec is immutable']);
    expect(texts(schema, { spec: { ...reordered.spec, ports: [{ name: 'grpc', port: 91 }, old.spec.ports[0]] } }, old)).toEqual(['spec: Invalid value: "object": spec is immutable']);
    // the lists are still lists: indexed, sized, searched, summed in their order
    const lists = root({ ...schema.properties.spec, 'x-kubernetes-validations': rules("self.set[1] == 'a' && self.set.size() == 2 && self.ints.sum() == 3 && self.ints.indexOf(1) == 1 && !self.ints.isSorted() && self.ports[0].name == 'grpc' && self.ports.exists(p, p.port == 80)") });
    expect(texts(lists, reordered)).toEqual([]);
  });

  // Each expectation below is what v0.26.15's validator answers for the same schema and objects.
  it('a set list plus a list is their union in the set\'s order; a map list plus one is merged by key; a literal list first concatenates', () => {
    const set = root({
      type: 'object',
      properties: { tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } },
      'x-kubernetes-validations': rules(
        ["size(self.tags + ['a', 'z']) == 3 && (self.tags + ['a', 'z'])[2] == 'z'", 'union'],
        ["(self.tags + ['z', 'z']).size() == 3 && (self.tags + self.tags).size() == 2", 'deduplicated'],
        ["(['a', 'z'] + self.tags).size() == 4 && (['a', 'z'] + self.tags)[2] == 'x'", 'literal first'],
        ["(self.tags + ['z'] + ['z', 'q']).size() == 4", 'still a set'],
        ["self.tags + ['z'] == ['z', 'x', 'a'] && self.tags + ['z'] == ['x', 'a', 'z']", 'a set compares in any order'],
        ["['a', 'x'] == self.tags", 'a literal compares in order'],
        ["[] + self.tags == ['a', 'x'] && size([] + self.tags + ['a']) == 2 && self.tags.filter(t, false) + self.tags == ['a', 'x']", 'an empty list plus a set is the set'],
      ),
    });
    expect(texts(set, { spec: { tags: ['x', 'a'] } })).toEqual(['spec: Invalid value: "object": a literal compares in order']);
    const item = { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' }, v: { type: 'integer' } } };
    const map = (keys: string[], ...list: (string | [string, string])[]) =>
      root({ type: 'object', 'x-kubernetes-validations': rules(...list), properties: { items: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keys, items: item } } });
    const byName = map(
      ['name'],
      ["size(self.items + self.items) == 2 && size(self.items + oldSelf.items) == 3", 'merged'],
      ["(self.items + oldSelf.items)[0].v == 9 && (self.items + oldSelf.items)[2].name == 'c'", 'right wins, left places'],
      ["(oldSelf.items + self.items)[0].v == 1 && (oldSelf.items + self.items)[1].name == 'c'", 'the other way'],
      ["(self.items + oldSelf.items + self.items).size() == 3 && (self.items + oldSelf.items + self.items)[0].v == 1", 'chained'],
      ['self.items + oldSelf.items == oldSelf.items + self.items', 'not commutative'],
    );
    const now = { spec: { items: [{ name: 'a', v: 1 }, { name: 'b', v: 2 }] } };
    const before = { spec: { items: [{ name: 'a', v: 9 }, { name: 'c', v: 3 }] } };
    expect(texts(byName, now, before)).toEqual(['spec: Invalid value: "object": not commutative']);
    const twoKeys = map(['name', 'port'], ['(self.items + oldSelf.items).size() == 3 && (self.items + oldSelf.items)[0].v == 9', 'two keys']);
    expect(texts(twoKeys, { spec: { items: [{ name: 'a', port: 1, v: 1 }, { name: 'a', port: 2, v: 2 }] } }, { spec: { items: [{ name: 'a', port: 1, v: 9 }, { name: 'b', port: 1, v: 3 }] } })).toEqual([]);
  });

  it('a list-map item whose key is missing or not a scalar correlates with no old item', () => {
    const schema = root({
      type: 'object',
      properties: {
        ports: {
          type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'proto'],
          items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { name: { type: 'string' }, proto: { type: 'string' }, port: { type: 'integer' } }, 'x-kubernetes-validations': rules(['self.port == oldSelf.port', 'port fixed']) },
        },
      },
    });
    const old = { spec: { ports: [{ port: 1 }, { name: 'a', proto: 'TCP', port: 2 }] } };
    expect(texts(schema, { spec: { ports: [{ port: 9 }, { name: 'a', proto: 'TCP', port: 3 }] } }, old)).toEqual(['spec.ports[1]: Invalid value: "object": port fixed']);
  });

  it('equality sees what CEL cannot name: unknown fields kept by x-kubernetes-preserve-unknown-fields, an embedded resource\'s whole metadata, unescapable properties', () => {
    const immutable = rules(['self == oldSelf', 'immutable']);
    const schema = root({
      type: 'object',
      properties: {
        config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { mode: { type: 'string' } }, 'x-kubernetes-validations': immutable },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { n: { type: 'integer' } } } }, 'x-kubernetes-validations': immutable },
        odd: { type: 'object', properties: { '9lives': { type: 'integer' } }, 'x-kubernetes-validations': immutable },
      },
    });
    const old = { spec: { config: { mode: 'a', extra: { x: 1 } }, template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: '1' } }, spec: { n: 1 } }, odd: { '9lives': 9 } } };
    expect(texts(schema, structuredClone(old), old)).toEqual([]);
    expect(texts(schema, { spec: { config: { mode: 'a', extra: { x: 2 } }, template: { ...old.spec.template, metadata: { name: 'p', labels: { a: '2' } } }, odd: { '9lives': 8 } } }, old)).toEqual([
      'spec.config: Invalid value: "object": immutable',
      'spec.template: Invalid value: "object": immutable',
      'spec.odd: Invalid value: "object": immutable',
    ]);
  });

  it('escaped property names reach their fields; a property CEL cannot name is invisible to its parent', () => {
    const schema = root({
      type: 'object',
      'x-kubernetes-validations': rules('self.x__dash__y == 1 && self.__namespace__ == "n"', '!has(self.a__underscores__b) || self.a__underscores__b'),
      properties: { 'x-y': { type: 'integer' }, namespace: { type: 'string' }, a__b: { type: 'boolean' }, '9lives': { type: 'integer' } },
    });
    expect(texts(schema, { spec: { 'x-y': 1, namespace: 'n', a__b: true, '9lives': 9 } })).toEqual([]);
    expect(texts(schema, { spec: { 'x-y': 2, namespace: 'n', a__b: false } })).toHaveLength(2);
  });

  it('evaluation errors in cel-go v0.12\'s words: modulus by zero, failed conversions', () => {
    const schema = root({ type: 'object', properties: { n: { type: 'integer' }, s: { type: 'string' } }, 'x-kubernetes-validations': rules('self.n % 0 == 1', 'int(self.s) == 1', 'duration(self.s) > duration(\'1s\')', 'timestamp(self.s) > timestamp(\'2020-01-01T00:00:00Z\')') });
    expect(texts(schema, { spec: { n: 5, s: '1d' } })).toEqual([
      'spec: Invalid value: "object": modulus by zero evaluating rule: self.n % 0 == 1',
      "spec: Invalid value: \"object\": type conversion error from 'string' to 'int' evaluating rule: int(self.s) == 1",
      "spec: Invalid value: \"object\": type conversion error from 'string' to 'google.protobuf.Duration' evaluating rule: duration(self.s) > duration('1s')",
      "spec: Invalid value: \"object\": type conversion error from 'string' to 'google.protobuf.Timestamp' evaluating rule: timestamp(self.s) > timestamp('2020-01-01T00:00:00Z')",
    ]);
  });

  it('regular expressions are RE2\'s: flags, \\A and \\z, POSIX classes; a bad pattern made at run time is Go\'s parse error', () => {
    const schema = root({
      type: 'object',
      properties: { s: { type: 'string' }, p: { type: 'string' } },
      'x-kubernetes-validations': rules("self.s.matches('(?i)^ab[[:digit:]]+$') && self.s.matches('\\\\AaB') && !self.s.matches('b\\\\z') && self.s.find('(?i)B[0-9]') == 'B1'", 'self.s.matches(self.p)', "self.s.find(self.p) == ''"),
    });
    expect(texts(schema, { spec: { s: 'aB12', p: 'x' } })).toEqual(['spec: Invalid value: "object": failed rule: self.s.matches(self.p)']);
    expect(texts(schema, { spec: { s: 'aB12', p: '(' } })).toEqual([
      'spec: Invalid value: "object": error parsing regexp: missing closing ): `(` evaluating rule: self.s.matches(self.p)',
      "spec: Invalid value: \"object\": Illegal regex: error parsing regexp: missing closing ): `(` evaluating rule: self.s.find(self.p) == ''",
    ]);
  });

  it('the strings extension as cel-go v0.12 has it: code-point indexes, ASCII-only case changes, its range errors', () => {
    const check = (rule: string, value: string) => texts(root({ type: 'string', 'x-kubernetes-validations': rules(rule) }), { spec: value });
    expect(check("self.indexOf('ö') == 7 && self.indexOf('o', 5) == -1 && self.indexOf('', 3) == 3 && self.lastIndexOf('l') == 9 && self.lastIndexOf('l', 8) == 3 && self.lastIndexOf('') == 11", 'héllo wörld')).toEqual([]);
    expect(check("self.lowerAscii() == 'Àb' && self.upperAscii() == 'ÀB' && self.substring(1) == 'B' && self.substring(0, 1) == 'À'", 'ÀB')).toEqual([]);
    expect(check("self.indexOf('a') == -1", '')).toEqual(["spec: Invalid value: \"string\": index out of range: 0 evaluating rule: self.indexOf('a') == -1"]);
    expect(check("self.indexOf('a', 9) == -1", 'abc')).toEqual(["spec: Invalid value: \"string\": index out of range: 9 evaluating rule: self.indexOf('a', 9) == -1"]);
    expect(check("self.lastIndexOf('a') == -1", '')).toEqual(["spec: Invalid value: \"string\": index out of range: -1 evaluating rule: self.lastIndexOf('a') == -1"]);
    expect(check("self.substring(2, 1) == ''", 'abc')).toEqual(["spec: Invalid value: \"string\": invalid substring range. start: 2, end: 1 evaluating rule: self.substring(2, 1) == ''"]);
    expect(check("self.substring(4) == ''", 'abc')).toEqual(["spec: Invalid value: \"string\": index out of range: 4 evaluating rule: self.substring(4) == ''"]);
    expect(check("self.substring(1, 5) == ''", 'abc')).toEqual(["spec: Invalid value: \"string\": index out of range: 5 evaluating rule: self.substring(1, 5) == ''"]);
    // the lists' indexOf is untouched
    expect(texts(root({ type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': rules("self.indexOf('b') == 1 && self.lastIndexOf('a') == 2") }), { spec: ['a', 'b', 'a'] })).toEqual([]);
  });

  it('timestamps and durations convert to strings and ints as cel-go converts them', () => {
    const schema = root({
      type: 'object',
      properties: { t: { type: 'string', format: 'date-time' }, d: { type: 'string', format: 'duration' } },
      'x-kubernetes-validations': rules("string(self.t) == '2020-01-01T00:00:00.5Z' && string(self.d) == '5400s' && int(self.t) == 1577836800 && string(timestamp('2021-06-01T10:00:00Z')) == '2021-06-01T10:00:00Z'"),
    });
    expect(texts(schema, { spec: { t: '2020-01-01T00:00:00.500Z', d: '90m' } })).toEqual([]);
  });

  it('join() of a list taken from the object fails as in v1.26 (its elements do not convert to []string); of a literal or a macro\'s list it joins', () => {
    const schema = root({
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string' } }, set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } },
      'x-kubernetes-validations': rules("self.tags.join(',') == 'a,b'", "self.set.join() == 'ab'", "self.tags.filter(t, true).join('-') == 'a-b' && ['x', 'y'].join() == 'xy' && self.tags.map(t, t).join() == 'ab'"),
    });
    expect(texts(schema, { spec: { tags: ['a', 'b'], set: ['a', 'b'] } })).toEqual([
      "spec: Invalid value: \"object\": internal error: interface conversion: interface {} is []interface {}, not []string evaluating rule: self.tags.join(',') == 'a,b'",
      "spec: Invalid value: \"object\": internal error: interface conversion: interface {} is []interface {}, not []string evaluating rule: self.set.join() == 'ab'",
    ]);
  });

  it('the Kubernetes library: lists, regex, URLs, strings', () => {
    const check = (rule: string, value: unknown, type: Obj = { type: 'array', items: { type: 'integer' } }) =>
      texts(root({ ...type, 'x-kubernetes-validations': rules(rule) }), { spec: value });
    expect(check('self.isSorted() && self.sum() == 6 && self.min() == 1 && self.max() == 3 && self.indexOf(2) == 1 && self.lastIndexOf(9) == -1', [1, 2, 3])).toEqual([]);
    expect(check('self.max() > 0', [])).toEqual(['spec: Invalid value: "array": max called on empty list evaluating rule: self.max() > 0']);
    expect(check("[1u, 2u].sum() == 3u && [duration('1s'), duration('90m')].sum() == duration('5401s') && self.sum() == 0", [])).toEqual([]);
    expect(check('self.sum() > 0', [9223372036854775807, 1])).toEqual(['spec: Invalid value: "array": integer overflow evaluating rule: self.sum() > 0']);
    expect(check('[18446744073709551615u, 1u].sum() > 0u', [])).toEqual(['spec: Invalid value: "array": unsigned integer overflow evaluating rule: [18446744073709551615u, 1u].sum() > 0u']);
    const str = { type: 'string' };
    expect(check("self.find('[0-9]+') == '123' && self.findAll('[a-z]') == ['a', 'b'] && self.findAll('[a-z]', 1) == ['a']", 'a123b', str)).toEqual([]);
    expect(check("self.charAt(1) == 'é' && self.replace('a', 'o') == 'oéo' && self.replace('a', 'o', 1) == 'oéa'", 'aéa', str)).toEqual([]);
    expect(check("self.charAt(9) == ''", 'abc', str)).toEqual(["spec: Invalid value: \"string\": index out of range: 9 evaluating rule: self.charAt(9) == ''"]);
    expect(
      check("isURL(self) && url(self).getScheme() == 'https' && url(self).getHost() == '[::1]:8443' && url(self).getHostname() == '::1' && url(self).getPort() == '8443' && url(self).getEscapedPath() == '/a%20b' && url(self).getQuery()['k'] == ['1', '2']", 'https://[::1]:8443/a%20b?k=1&k=2', str),
    ).toEqual([]);
    expect(check('isURL(self)', '../relative', str)).toEqual(['spec: Invalid value: "string": failed rule: isURL(self)']);
    expect(check("url(self).getScheme() == 'x'", 'rel/ative', str)).toEqual([
      `spec: Invalid value: "string": URL parse error during conversion from string: parse "rel/ative": invalid URI for request evaluating rule: url(self).getScheme() == 'x'`,
    ]);
  });

  it('reads a date-time with nanoseconds and an offset (v1.26: strfmt.ParseDateTime), keeping milliseconds', () => {
    const schema = root({ type: 'object', properties: { t: { type: 'string', format: 'date-time', 'x-kubernetes-validations': rules('self.getSeconds() == 59', 'self.getHours() == 9', "self - self == duration('0s')") } } });
    expect(texts(schema, { spec: { t: '2024-06-30T23:59:59.999999999+14:00' } })).toEqual([]);
  });
});
