import { ProtoWriter } from '../../wire/protobuf-fields';
import { decodeEnvelope, decodeWatchEvent, encodeEnvelope, encodeWatchEvent, lengthPrefix } from '../../wire/protobuf';
import { forEachField } from '../../wire/protobuf-fields';
import { REDACTED, REDACTED_BASE64, redactSecretsJson, redactSecretsProtobuf, redactSecretsProtobufFrame } from './redact-secrets';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

describe('JSON', () => {
  const secret = { kind: 'Secret', apiVersion: 'v1', metadata: { name: 's', annotations: { [LAST_APPLIED]: '{"data":{"a":"c2VjcmV0"}}', other: 'kept' } }, data: { a: 'c2VjcmV0', b: 'eA==' }, stringData: { c: 'plain' }, type: 'Opaque' };

  test('a Secret: every data and stringData value, and last-applied; keys and the rest kept; newline kept', () => {
    const out = redactSecretsJson(Buffer.from(`${JSON.stringify(secret)}\n`))!;
    expect(out.toString().endsWith('}\n')).toBe(true);
    expect(JSON.parse(out.toString())).toEqual({
      ...secret,
      metadata: { name: 's', annotations: { [LAST_APPLIED]: REDACTED, other: 'kept' } },
      data: { a: REDACTED_BASE64, b: REDACTED_BASE64 },
      stringData: { c: REDACTED },
    });
  });

  test('SecretList items (which carry no kind), watch events, Table rows with objects', () => {
    const list = { kind: 'SecretList', apiVersion: 'v1', metadata: {}, items: [{ metadata: { name: 'x' }, data: { k: 'dg==' } }] };
    expect(JSON.parse(redactSecretsJson(Buffer.from(JSON.stringify(list)))!.toString()).items[0].data).toEqual({ k: REDACTED_BASE64 });
    const event = { type: 'ADDED', object: secret };
    expect(JSON.parse(redactSecretsJson(Buffer.from(JSON.stringify(event)))!.toString()).object.data.a).toBe(REDACTED_BASE64);
    const table = { kind: 'Table', apiVersion: 'meta.k8s.io/v1', rows: [{ cells: ['s'], object: secret }] };
    expect(JSON.parse(redactSecretsJson(Buffer.from(JSON.stringify(table)))!.toString()).rows[0].object.data.b).toBe(REDACTED_BASE64);
  });

  test('nothing to redact, or not JSON: null', () => {
    expect(redactSecretsJson(Buffer.from('{"kind":"ConfigMap","data":{"a":"b"}}'))).toBeNull();
    expect(redactSecretsJson(Buffer.from('{"kind":"Secret","metadata":{"name":"empty"}}'))).toBeNull();
    expect(redactSecretsJson(Buffer.from('not json'))).toBeNull();
  });
});

describe('protobuf (schema-less)', () => {
  const entry = (k: string, v: string) => new ProtoWriter().string(1, k).string(2, v);
  const secretMessage = () => {
    const meta = new ProtoWriter().string(1, 's').string(3, 'ns').message(12, entry(LAST_APPLIED, '{"data":{"a":"c2VjcmV0"}}')).message(12, entry('other', 'kept'));
    return new ProtoWriter().message(1, meta).message(2, entry('a', 'secret')).message(2, entry('b', 'x')).string(3, 'Opaque').message(4, entry('c', 'plain')).finish();
  };
  /** Secret fields back as [field, key, value] (map entries) or [field, value]. */
  const fields = (msg: Buffer) => {
    const out: unknown[] = [];
    forEachField(msg, 0, msg.length, (f) => {
      const value = msg.subarray(f.start, f.end);
      if (f.no === 2 || f.no === 4) {
        const kv: string[] = [];
        forEachField(value, 0, value.length, (e) => void kv.push(value.toString('utf8', e.start, e.end)));
        out.push([f.no, ...kv]);
      } else if (f.no === 1) {
        const ann: string[][] = [];
        forEachField(value, 0, value.length, (m) => {
          if (m.no !== 12) return;
          const e = value.subarray(m.start, m.end);
          const kv: string[] = [];
          forEachField(e, 0, e.length, (x) => void kv.push(e.toString('utf8', x.start, x.end)));
          ann.push(kv);
        });
        out.push([1, ann]);
      } else out.push([f.no, value.toString()]);
    });
    return out;
  };

  test('a Secret object: data and stringData values and last-applied replaced, everything else byte-identical', () => {
    const body = encodeEnvelope({ apiVersion: 'v1', kind: 'Secret' }, secretMessage());
    const out = redactSecretsProtobuf(body)!;
    expect(fields(decodeEnvelope(out).raw)).toEqual([
      [1, [[LAST_APPLIED, REDACTED], ['other', 'kept']]],
      [2, 'a', REDACTED],
      [2, 'b', REDACTED],
      [3, 'Opaque'],
      [4, 'c', REDACTED],
    ]);
    expect(out.includes('secret')).toBe(false);
  });

  test('a SecretList and a watch frame', () => {
    const list = new ProtoWriter().message(1, new ProtoWriter().string(2, '7')).bytes(2, secretMessage()).bytes(2, secretMessage()).finish();
    const out = redactSecretsProtobuf(encodeEnvelope({ apiVersion: 'v1', kind: 'SecretList' }, list))!;
    expect(out.includes('secret')).toBe(false);
    expect(out.includes('plain')).toBe(false);
    const frame = lengthPrefix(encodeWatchEvent('MODIFIED', encodeEnvelope({ apiVersion: 'v1', kind: 'Secret' }, secretMessage())));
    const redacted = redactSecretsProtobufFrame(frame)!;
    expect(redacted.readUInt32BE(0)).toBe(redacted.length - 4);
    const event = decodeWatchEvent(redacted.subarray(4));
    expect(event.type).toBe('MODIFIED');
    expect(fields(decodeEnvelope(event.object).raw)[1]).toEqual([2, 'a', REDACTED]);
  });

  test('other kinds are left alone', () => {
    const cm = encodeEnvelope({ apiVersion: 'v1', kind: 'ConfigMap' }, new ProtoWriter().message(2, entry('a', 'b')).finish());
    expect(redactSecretsProtobuf(cm)).toBeNull();
  });
});
