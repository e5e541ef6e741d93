import {
  JSON_TYPE,
  PROTOBUF_TYPE,
  PROTOBUF_WATCH_TYPE,
  formatMediaType,
  isJson,
  isProtobuf,
  isWatchStream,
  isYaml,
  parseAccept,
  parseMediaType,
  rangeCovers,
} from './media-types';

describe('parseMediaType', () => {
  it('splits type, subtype and parameters, lowercasing names but keeping values', () => {
    expect(parseMediaType('Application/JSON;as=Table;g=meta.k8s.io;v=v1')).toEqual({
      type: 'application',
      subtype: 'json',
      params: { as: 'Table', g: 'meta.k8s.io', v: 'v1' },
    });
  });

  it('tolerates spaces, quotes and empty parameters', () => {
    expect(parseMediaType(' application/vnd.kubernetes.protobuf ; Stream = "watch" ; ;x')).toEqual({
      type: 'application',
      subtype: 'vnd.kubernetes.protobuf',
      params: { stream: 'watch', x: '' },
    });
    expect(parseMediaType('text/plain; charset="utf-8;x"')).toEqual({ type: 'text', subtype: 'plain', params: { charset: 'utf-8;x' } });
  });

  it('handles missing or partial values', () => {
    expect(parseMediaType(undefined)).toEqual({ type: '', subtype: '', params: {} });
    expect(parseMediaType('')).toEqual({ type: '', subtype: '', params: {} });
    expect(parseMediaType('*/*')).toEqual({ type: '*', subtype: '*', params: {} });
    expect(parseMediaType('application')).toEqual({ type: 'application', subtype: '', params: {} });
  });

  it('formats back', () => {
    expect(formatMediaType(parseMediaType(PROTOBUF_WATCH_TYPE))).toBe(PROTOBUF_WATCH_TYPE);
  });
});

describe('parseAccept', () => {
  it("keeps kubectl's Table preference order (f2 transcript)", () => {
    const ranges = parseAccept(
      'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json',
    );
    expect(ranges.map((r) => [r.subtype, r.params.v ?? '', r.q])).toEqual([
      ['json', 'v1', 1],
      ['json', 'v1beta1', 1],
      ['json', '', 1],
    ]);
    expect(ranges[0].params).toEqual({ as: 'Table', v: 'v1', g: 'meta.k8s.io' });
  });

  it('sorts by q descending, stable for equal q, and removes q from params', () => {
    const ranges = parseAccept('application/json;q=0.5, application/yaml;q=0.9, */*;q=0.5, application/vnd.kubernetes.protobuf');
    expect(ranges.map((r) => `${r.type}/${r.subtype}@${r.q}`)).toEqual([
      'application/vnd.kubernetes.protobuf@1',
      'application/yaml@0.9',
      'application/json@0.5',
      '*/*@0.5',
    ]);
    expect(ranges.every((r) => !('q' in r.params))).toBe(true);
  });

  it('treats junk q as 1, clamps, drops empty entries, accepts arrays', () => {
    expect(parseAccept('a/b;q=x,,c/d;q=7, ,e/f;q=-1').map((r) => r.q)).toEqual([1, 1, 0]);
    expect(parseAccept(['application/json', 'application/yaml']).map((r) => r.subtype)).toEqual(['json', 'yaml']);
    expect(parseAccept(undefined)).toEqual([]);
  });

  it('matches wildcards', () => {
    const json = parseMediaType(JSON_TYPE);
    expect(rangeCovers(parseMediaType('*/*'), json)).toBe(true);
    expect(rangeCovers(parseMediaType('application/*'), json)).toBe(true);
    expect(rangeCovers(parseMediaType('application/yaml'), json)).toBe(false);
  });
});

describe('content type predicates', () => {
  it('recognises protobuf, JSON, YAML and watch streams', () => {
    expect(isProtobuf(PROTOBUF_TYPE)).toBe(true);
    expect(isProtobuf(PROTOBUF_WATCH_TYPE)).toBe(true);
    expect(isProtobuf('application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1')).toBe(true);
    expect(isProtobuf('application/com.github.proto-openapi.spec.v3@v1.0+protobuf')).toBe(false);
    expect(isProtobuf(undefined)).toBe(false);
    expect(isJson('application/json')).toBe(true);
    expect(isJson('Application/JSON; charset=utf-8')).toBe(true);
    expect(isJson('application/merge-patch+json')).toBe(true);
    expect(isJson(PROTOBUF_TYPE)).toBe(false);
    expect(isJson(undefined)).toBe(false);
    expect(isYaml('application/yaml')).toBe(true);
    expect(isWatchStream(PROTOBUF_WATCH_TYPE)).toBe(true);
    expect(isWatchStream('application/json;stream=watch')).toBe(true);
    expect(isWatchStream(JSON_TYPE)).toBe(false);
  });
});
