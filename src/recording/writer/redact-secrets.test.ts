import { ProtoWriter } from '../../wire/protobuf-fields';
import { decodeEnvelope, decodeWatchEvent, encodeEnvelope, encodeWatchEvent, lengthPrefix } from '../../wire/protobuf';
import { forEachField } from '../../wire/protobuf-fields';
import { REDACTED, REDACTED_BASE64, redactBody, redactJson as redactSecretsJson, redactProtobuf as redactSecretsProtobuf, redactProtobufFrame as redactSecretsProtobufFrame, Unredactable } from './redact-secrets';

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

  test('nothing to redact: null; not JSON (a cut body): Unredactable', () => {
    expect(redactSecretsJson(Buffer.from('{"kind":"ConfigMap","data":{"a":"b"}}'))).toBeNull();
    expect(redactSecretsJson(Buffer.from('{"kind":"Secret","metadata":{"name":"empty"}}'))).toBeNull();
    expect(() => redactSecretsJson(Buffer.from('not json'))).toThrow(Unredactable);
    expect(() => redactSecretsJson(Buffer.from(JSON.stringify({ kind: 'SecretList', items: [secret, secret] }).slice(0, 300)))).toThrow(Unredactable);
  });

  test('patches sent to secrets (no kind): merge and strategic patches, JSON patches', () => {
    const merge = JSON.parse(redactBody('application/merge-patch+json', Buffer.from(JSON.stringify({ data: { a: 'c2VjcmV0' }, metadata: { annotations: { [LAST_APPLIED]: 'x' } } })), 'secret', true)!.toString());
    expect(merge).toEqual({ data: { a: REDACTED_BASE64 }, metadata: { annotations: { [LAST_APPLIED]: REDACTED } } });
    const ops = [{ op: 'replace', path: '/data/a', value: 'c2VjcmV0' }, { op: 'remove', path: '/data/b' }];
    expect(JSON.parse(redactBody('application/json-patch+json', Buffer.from(JSON.stringify(ops)), 'secret', true)!.toString())).toEqual([
      { op: 'replace', path: '/data/a', value: REDACTED }, { op: 'remove', path: '/data/b' }]);
  });

  test('YAML (Accept: application/yaml): data and last-applied; a cut or bad document is Unredactable', () => {
    const yaml = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  annotations:\n    ${LAST_APPLIED}: |\n      {"data":{"a":"c2VjcmV0"}}\ndata:\n  a: c2VjcmV0\n`;
    const out = redactBody('application/yaml', Buffer.from(yaml), 'secret')!.toString();
    expect(out).not.toContain('c2VjcmV0');
    expect(out).toContain(`a: ${REDACTED_BASE64}`);
    expect(() => redactBody('application/yaml', Buffer.from('kind: Secret\ndata:\n  a: "c2Vj'), 'secret')).toThrow(Unredactable);
  });

  test('TokenRequest status.token and TokenReview spec.token', () => {
    const answer = { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', spec: { audiences: ['a'] }, status: { token: 'eyJhbGciOi.x.y', expirationTimestamp: 't' } };
    expect(JSON.parse(redactBody('application/json', Buffer.from(JSON.stringify(answer)), 'token-request')!.toString()).status).toEqual({ token: REDACTED, expirationTimestamp: 't' });
    const review = { kind: 'TokenReview', spec: { token: 'eyJhbGciOi.x.y' } };
    expect(JSON.parse(redactBody('application/json', Buffer.from(JSON.stringify(review)), 'token-review', true)!.toString()).spec.token).toBe(REDACTED);
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

  test('a TokenRequest answer: status.token', () => {
    const status = new ProtoWriter().string(1, 'eyJhbGciOi.secret-jwt').message(2, new ProtoWriter().string(1, 'ts'));
    const body = encodeEnvelope({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest' }, new ProtoWriter().message(1, new ProtoWriter().string(1, 'sa')).message(3, status).finish());
    const out = redactBody('application/vnd.kubernetes.protobuf', body, 'token-request')!;
    expect(out.includes('secret-jwt')).toBe(false);
    expect(out.includes(REDACTED)).toBe(true);
    expect(decodeEnvelope(out).kind).toBe('TokenRequest');
  });

  test('a cut body is Unredactable', () => {
    const list = new ProtoWriter().message(1, new ProtoWriter().string(2, '7')).bytes(2, secretMessage()).bytes(2, secretMessage()).finish();
    const body = encodeEnvelope({ apiVersion: 'v1', kind: 'SecretList' }, list);
    expect(() => redactSecretsProtobuf(body.subarray(0, body.length - 20))).toThrow(Unredactable);
  });

  test('other kinds are left alone', () => {
    const cm = encodeEnvelope({ apiVersion: 'v1', kind: 'ConfigMap' }, new ProtoWriter().message(2, entry('a', 'b')).finish());
    expect(redactSecretsProtobuf(cm)).toBeNull();
  });
});
