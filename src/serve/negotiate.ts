/**
 * Content negotiation for serve mode, the way kube-apiserver does it
 * (apiserver `pkg/endpoints/handlers/negotiation`, `RequestScope.AllowsMediaTypeTransform`):
 *
 * - Accept clauses are parsed and ordered by goautoneg (q first, then specific before wildcard,
 *   its comparator and Go's insertion sort reproduced so ties land where Go puts them);
 *   the first clause, in that order, that one of our serializers accepts wins. No Accept → JSON.
 * - `as=Table` needs `g=meta.k8s.io` and `v=v1|v1beta1` and JSON: Table as protobuf, or an
 *   unknown version, does not match that clause (f4, f6). PartialObjectMetadata(List) may be
 *   JSON or protobuf.
 * - Protobuf is offered only when the objects were recorded as protobuf (`protobufAvailable`);
 *   otherwise a protobuf clause is skipped, so client-go's `protobuf, json` falls back to JSON.
 * - Nothing acceptable → `notAcceptable()` (406, the apiserver's message).
 *
 * YAML is served for gets and lists (converted from the JSON body), never for watches: the
 * apiserver has no YAML stream serializer, so a YAML-only watch is a 406.
 */
import { StatusError, failure, notAcceptable } from '../k8s/status';

export const JSON_CONTENT_TYPE = 'application/json';
export const YAML_CONTENT_TYPE = 'application/yaml';
export const PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';
export const PROTOBUF_WATCH_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf;stream=watch';

export const NEGOTIATION_TARGETS = ['object', 'list', 'watch'] as const;
export type NegotiationTarget = (typeof NEGOTIATION_TARGETS)[number];

export type TransformKind = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';
export type MetaVersion = 'v1' | 'v1beta1';

export interface Representation {
  format: 'json' | 'yaml' | 'protobuf';
  /** The response Content-Type: `application/json`, `application/yaml`, protobuf, or protobuf `;stream=watch` for watches. */
  contentType: string;
  as?: TransformKind;
  asVersion?: MetaVersion;
  asGroup?: 'meta.k8s.io';
}

export interface NegotiateOptions {
  target: NegotiationTarget;
  /** Whether the objects can be sent as protobuf (they were recorded as protobuf). */
  protobufAvailable: boolean;
}

/** One clause of an Accept header as goautoneg parses it. */
export interface AcceptClause {
  type: string;
  subType: string;
  q: number;
  params: Record<string, string>;
}

interface Serializer {
  type: 'application';
  subType: 'json' | 'yaml' | 'vnd.kubernetes.protobuf';
  format: Representation['format'];
}

const JSON_SERIALIZER: Serializer = { type: 'application', subType: 'json', format: 'json' };
const YAML_SERIALIZER: Serializer = { type: 'application', subType: 'yaml', format: 'yaml' };
const PROTOBUF_SERIALIZER: Serializer = { type: 'application', subType: 'vnd.kubernetes.protobuf', format: 'protobuf' };

/** Chooses how to answer a get (`object`), list or watch, or throws the apiserver's 406. */
export function negotiate(acceptHeader: string | undefined, opts: NegotiateOptions): Readonly<Representation> {
  const key = `${opts.target}\n${opts.protobufAvailable ? 1 : 0}\n${acceptHeader ?? ''}`;
  let rep = negotiated.get(key);
  if (!rep) {
    rep = Object.freeze(negotiateAccept(acceptHeader, opts));
    if (negotiated.size >= MAX_NEGOTIATED) negotiated.clear();
    negotiated.set(key, rep);
  }
  return rep;
}

/** Representations negotiated per target, protobuf availability and Accept header (shared, frozen; a 406 is not kept). */
const negotiated = new Map<string, Readonly<Representation>>();
const MAX_NEGOTIATED = 256;

function negotiateAccept(acceptHeader: string | undefined, opts: NegotiateOptions): Representation {
  // The apiserver's order: JSON, YAML, protobuf. YAML has no stream serializer, so never for a watch.
  const serializers = [JSON_SERIALIZER];
  if (opts.target !== 'watch') serializers.push(YAML_SERIALIZER);
  if (opts.protobufAvailable) serializers.push(PROTOBUF_SERIALIZER);
  const match = negotiateClause(acceptHeader, serializers, allowsResourceTransform);
  if (!match) throw notAcceptable();
  const rep = representation(match.serializer, opts.target);
  if (match.convert) {
    checkTransformTarget(match.convert.kind, opts.target);
    rep.as = match.convert.kind;
    rep.asVersion = match.convert.version;
    rep.asGroup = 'meta.k8s.io';
  }
  return rep;
}

/**
 * How an error Status is written (responsewriters.ErrorNegotiated): negotiated again with no
 * transform allowed, protobuf always possible (Status has a fixed schema). `undefined` when no
 * clause fits (e.g. only `…;as=Table`): the apiserver then writes the Status as indented JSON
 * whatever the client (WriteRawJSON), which is why f6's 406 body is pretty-printed.
 */
export function negotiateStatus(acceptHeader: string | undefined, protobufAvailable = true): Representation | undefined {
  const serializers = protobufAvailable ? [JSON_SERIALIZER, PROTOBUF_SERIALIZER] : [JSON_SERIALIZER];
  const match = negotiateClause(acceptHeader, serializers, (_s, convert) => convert === undefined);
  return match ? representation(match.serializer, 'object') : undefined;
}

function representation(serializer: Serializer, target: NegotiationTarget): Representation {
  if (serializer.format === 'json') return { format: 'json', contentType: JSON_CONTENT_TYPE };
  if (serializer.format === 'yaml') return { format: 'yaml', contentType: YAML_CONTENT_TYPE };
  return { format: 'protobuf', contentType: target === 'watch' ? PROTOBUF_WATCH_CONTENT_TYPE : PROTOBUF_CONTENT_TYPE };
}

/** The checks transformObject makes once the object is known (messages as the apiserver's). */
function checkTransformTarget(kind: TransformKind, target: NegotiationTarget): void {
  if (kind === 'PartialObjectMetadata' && target === 'list') {
    throw notAcceptableBecause('you requested PartialObjectMetadata, but the requested object is a list (*unstructured.UnstructuredList)');
  }
  if (kind === 'PartialObjectMetadataList' && target !== 'list') {
    throw notAcceptableBecause('you requested PartialObjectMetadataList, but the requested object is not a list (*unstructured.Unstructured)');
  }
}

function notAcceptableBecause(message: string): StatusError {
  return new StatusError(failure(406, 'NotAcceptable', message));
}

interface Convert {
  kind: string;
  group: string;
  version: string;
}

interface Match {
  serializer: Serializer;
  convert?: { kind: TransformKind; version: MetaVersion };
}

type TransformRestriction = (serializer: Serializer, convert: Convert | undefined) => boolean;

/** RequestScope.AllowsMediaTypeTransform for a resource endpoint with a table convertor. */
function allowsResourceTransform(serializer: Serializer, convert: Convert | undefined): boolean {
  if (!convert) return true;
  if (convert.group !== 'meta.k8s.io' || (convert.version !== 'v1' && convert.version !== 'v1beta1')) return false;
  if (convert.kind === 'Table') return serializer.format === 'json';
  return convert.kind === 'PartialObjectMetadata' || convert.kind === 'PartialObjectMetadataList';
}

/** negotiation.NegotiateMediaTypeOptions: clauses in goautoneg order, serializers in server order. */
function negotiateClause(header: string | undefined, serializers: Serializer[], allows: TransformRestriction): Match | undefined {
  if (!header) return { serializer: serializers[0]! };
  for (const clause of parseAccept(header)) {
    for (const serializer of serializers) {
      const covers =
        (clause.type === serializer.type && (clause.subType === serializer.subType || clause.subType === '*')) ||
        (clause.type === '*' && clause.subType === '*');
      if (!covers) continue;
      const match = acceptClause(clause, serializer, allows);
      if (match) return match;
    }
  }
  return undefined;
}

/** acceptMediaTypeOptions: the clause's parameters must suit the serializer and the endpoint. */
function acceptClause(clause: AcceptClause, serializer: Serializer, allows: TransformRestriction): Match | undefined {
  let convert: Convert | undefined;
  for (const [key, value] of Object.entries(clause.params)) {
    switch (key) {
      case 'as':
        convert = { ...(convert ?? { group: '', version: '' }), kind: value };
        break;
      case 'g':
        convert = { ...(convert ?? { kind: '', version: '' }), group: value };
        break;
      case 'v':
        convert = { ...(convert ?? { kind: '', group: '' }), version: value };
        break;
      case 'stream':
        if (value !== '' && value !== 'watch') return undefined;
        break;
      case 'sv':
        if (value !== '' && value !== 'v1') return undefined;
        break;
    }
  }
  if (!allows(serializer, convert)) return undefined;
  if (!convert) return { serializer };
  return { serializer, convert: { kind: convert.kind as TransformKind, version: convert.version as MetaVersion } };
}

/** goautoneg.ParseAccept, including its comparator and Go's insertion sort (stable for the short lists clients send). */
export function parseAccept(header: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (const rawPart of header.split(',')) {
    const part = trimSpaces(rawPart);
    const [range = '', ...params] = part.split(';');
    const sp = range.split('/');
    const type = trimSpaces(sp[0]!);
    let subType: string;
    if (sp.length === 1 && type === '*') subType = '*';
    else if (sp.length === 2) subType = trimSpaces(sp[1]!);
    else continue;
    const clause: AcceptClause = { type, subType, q: 1, params: {} };
    for (const param of params) {
      const eq = param.indexOf('=');
      if (eq < 0) continue;
      const token = trimSpaces(param.slice(0, eq));
      if (token === 'q') clause.q = parseGoFloat(param.slice(eq + 1));
      else clause.params[token] = trimSpaces(param.slice(eq + 1));
    }
    clauses.push(clause);
  }
  for (let i = 1; i < clauses.length; i++) {
    for (let j = i; j > 0 && goautonegLess(clauses[j]!, clauses[j - 1]!); j--) {
      [clauses[j], clauses[j - 1]] = [clauses[j - 1]!, clauses[j]!];
    }
  }
  return clauses;
}

function goautonegLess(a: AcceptClause, b: AcceptClause): boolean {
  if (a.q > b.q) return true;
  if (a.type !== '*' && b.type === '*') return true;
  if (a.subType !== '*' && b.subType === '*') return true;
  return false;
}

/** strconv.ParseFloat as goautoneg uses it: no trimming, and 0 on a parse error. */
function parseGoFloat(s: string): number {
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return 0;
  return Number(s);
}

/** strings.Trim(s, " "): spaces only, not tabs. */
function trimSpaces(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s.charCodeAt(start) === 32) start++;
  while (end > start && s.charCodeAt(end - 1) === 32) end--;
  return s.slice(start, end);
}
