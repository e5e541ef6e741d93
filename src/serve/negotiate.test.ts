import { StatusError } from '../k8s/status';
import { negotiate, negotiateStatus, parseAccept, type NegotiationTarget } from './negotiate';

const KUBECTL_TABLE =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const CLIENT_GO_PROTOBUF = 'application/vnd.kubernetes.protobuf, application/json';
const METADATA_LIST =
  'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
const METADATA_WATCH =
  'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
const NOT_ACCEPTABLE = 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf';

function rep(accept: string | undefined, target: NegotiationTarget = 'list', protobufAvailable = true) {
  return negotiate(accept, { target, protobufAvailable });
}

function refusal(accept: string | undefined, target: NegotiationTarget = 'list', protobufAvailable = true): StatusError {
  try {
    negotiate(accept, { target, protobufAvailable });
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error(`negotiate(${accept}) did not refuse`);
}

describe('negotiate', () => {
  test.each([
    ['no Accept', undefined],
    ['empty Accept', ''],
    ['curl */*', '*/*'],
    ['python application/json', 'application/json'],
    ['application/*', 'application/*'],
    ['json with charset', 'application/json; charset=utf-8'],
  ])('%s → plain JSON', (_name, accept) => {
    expect(rep(accept)).toEqual({ format: 'json', contentType: 'application/json' });
  });

  test('kubectl get: Table v1 as JSON', () => {
    expect(rep(KUBECTL_TABLE)).toEqual({ format: 'json', contentType: 'application/json', as: 'Table', asVersion: 'v1', asGroup: 'meta.k8s.io' });
    expect(rep(KUBECTL_TABLE, 'object').as).toBe('Table');
    expect(rep(KUBECTL_TABLE, 'watch')).toEqual({ format: 'json', contentType: 'application/json', as: 'Table', asVersion: 'v1', asGroup: 'meta.k8s.io' });
  });

  test('Table v1beta1', () => {
    expect(rep('application/json;as=Table;g=meta.k8s.io;v=v1beta1')).toMatchObject({ format: 'json', as: 'Table', asVersion: 'v1beta1' });
  });

  test('client-go protobuf, json: protobuf when the objects were recorded as protobuf, else JSON', () => {
    expect(rep(CLIENT_GO_PROTOBUF, 'list', true)).toEqual({ format: 'protobuf', contentType: 'application/vnd.kubernetes.protobuf' });
    expect(rep(CLIENT_GO_PROTOBUF, 'watch', true)).toEqual({ format: 'protobuf', contentType: 'application/vnd.kubernetes.protobuf;stream=watch' });
    expect(rep(CLIENT_GO_PROTOBUF, 'list', false)).toEqual({ format: 'json', contentType: 'application/json' });
    expect(rep(CLIENT_GO_PROTOBUF, 'watch', false)).toEqual({ format: 'json', contentType: 'application/json' });
  });

  test('protobuf only, not available → 406', () => {
    const err = refusal('application/vnd.kubernetes.protobuf', 'list', false);
    expect(err.status).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: NOT_ACCEPTABLE, reason: 'NotAcceptable', code: 406 });
  });

  test('f4: Table as protobuf → 406 with the apiserver message', () => {
    const err = refusal('application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1');
    expect(err.code).toBe(406);
    expect(err.reason).toBe('NotAcceptable');
    expect(err.status.message).toBe(NOT_ACCEPTABLE);
  });

  test('f6: unknown v= → 406', () => {
    expect(refusal('application/json;as=Table;g=meta.k8s.io;v=v9').status.message).toBe(NOT_ACCEPTABLE);
  });

  test('as=Table needs g and v; a bad clause falls through to the next acceptable one', () => {
    expect(refusal('application/json;as=Table').code).toBe(406);
    expect(refusal('application/json;as=Table;g=example.com;v=v1').code).toBe(406);
    expect(rep('application/json;as=Table;g=meta.k8s.io;v=v9, application/json')).toEqual({ format: 'json', contentType: 'application/json' });
    expect(rep('application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1, application/json;as=Table;g=meta.k8s.io;v=v1')).toMatchObject({ format: 'json', as: 'Table' });
    expect(refusal('application/json;as=Foo;g=meta.k8s.io;v=v1').code).toBe(406);
  });

  test('q orders the clauses; equal q keeps the header order', () => {
    expect(rep('application/json;q=0.5, application/vnd.kubernetes.protobuf').format).toBe('protobuf');
    expect(rep('application/json, application/vnd.kubernetes.protobuf').format).toBe('json');
    expect(rep('application/vnd.kubernetes.protobuf;q=0.9, application/json;q=0.8').format).toBe('protobuf');
    // goautoneg: the more specific wins a tie, whatever the order
    expect(rep('*/*, application/vnd.kubernetes.protobuf').format).toBe('protobuf');
  });

  test('metadata informer: PartialObjectMetadataList for lists, PartialObjectMetadata for watches', () => {
    expect(rep(METADATA_LIST, 'list', true)).toEqual({
      format: 'protobuf', contentType: 'application/vnd.kubernetes.protobuf', as: 'PartialObjectMetadataList', asVersion: 'v1', asGroup: 'meta.k8s.io',
    });
    expect(rep(METADATA_LIST, 'list', false)).toMatchObject({ format: 'json', as: 'PartialObjectMetadataList' });
    expect(rep(METADATA_WATCH, 'watch', false)).toMatchObject({ format: 'json', contentType: 'application/json', as: 'PartialObjectMetadata' });
    expect(rep(METADATA_WATCH, 'watch', true)).toMatchObject({ format: 'protobuf', contentType: 'application/vnd.kubernetes.protobuf;stream=watch' });
  });

  test('PartialObjectMetadata on a list, PartialObjectMetadataList on an object → 406 with transformObject messages', () => {
    expect(refusal('application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1', 'list').status.message).toBe(
      'you requested PartialObjectMetadata, but the requested object is a list (*unstructured.UnstructuredList)',
    );
    const err = refusal('application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1', 'object');
    expect(err.code).toBe(406);
    expect(err.status.message).toMatch(/^you requested PartialObjectMetadataList, but the requested object is not a list/);
  });

  test('YAML for gets and lists, never for watches; stream and sv parameters are checked', () => {
    expect(rep('application/yaml')).toEqual({ format: 'yaml', contentType: 'application/yaml' });
    expect(rep('application/yaml', 'object').format).toBe('yaml');
    expect(rep('application/yaml, application/json').format).toBe('yaml');
    expect(refusal('application/yaml', 'watch').code).toBe(406);
    expect(rep('application/yaml, application/json', 'watch').format).toBe('json');
    expect(rep('application/json;stream=watch', 'watch')).toEqual({ format: 'json', contentType: 'application/json' });
    expect(refusal('application/json;stream=other').code).toBe(406);
    expect(rep('application/json;sv=v1').format).toBe('json');
    expect(refusal('application/json;sv=v2').code).toBe(406);
    expect(refusal('text/html').code).toBe(406);
  });
});

describe('negotiateStatus (how an error body is encoded)', () => {
  test('a transform-only Accept gets no negotiated serializer (raw indented JSON)', () => {
    expect(negotiateStatus('application/json;as=Table;g=meta.k8s.io;v=v9')).toBeUndefined();
    expect(negotiateStatus('application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1', false)).toBeUndefined();
  });
  test('kubectl and curl get JSON; protobuf clients get protobuf when allowed', () => {
    expect(negotiateStatus(KUBECTL_TABLE)).toEqual({ format: 'json', contentType: 'application/json' });
    expect(negotiateStatus('*/*')).toEqual({ format: 'json', contentType: 'application/json' });
    expect(negotiateStatus(CLIENT_GO_PROTOBUF, true)).toEqual({ format: 'protobuf', contentType: 'application/vnd.kubernetes.protobuf' });
    expect(negotiateStatus(CLIENT_GO_PROTOBUF, false)).toEqual({ format: 'json', contentType: 'application/json' });
  });
});

describe('parseAccept (goautoneg)', () => {
  test('parameters, q, and ordering', () => {
    const clauses = parseAccept('text/plain;q=0.5, application/json;as=Table;g=meta.k8s.io;v=v1, */*;q=0.1, bogus');
    expect(clauses.map((c) => `${c.type}/${c.subType}`)).toEqual(['application/json', 'text/plain', '*/*']);
    expect(clauses[0]!.params).toEqual({ as: 'Table', g: 'meta.k8s.io', v: 'v1' });
    expect(clauses[1]!.q).toBe(0.5);
  });
  test('an unparsable q is 0, as strconv.ParseFloat errors give', () => {
    expect(parseAccept('application/json;q=abc')[0]!.q).toBe(0);
    expect(parseAccept('*')[0]).toMatchObject({ type: '*', subType: '*' });
  });
});
