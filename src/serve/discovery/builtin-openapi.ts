/**
 * `/openapi/v2` and `/openapi/v3/P` from the built-in API (data/builtin-api/), with the headers
 * kube-apiserver v1.26 sends (reference/openapi/HEADERS.txt): `Content-Type: text/plain;
 * charset=utf-8` (http.ServeContent sniffs the JSON), the document's hash as `Etag` (304 on an
 * `If-None-Match` that matches it as ServeContent compares), `Vary: Accept` (v2: `Vary:
 * Accept-Encoding` before it), `Cache-Control: public, immutable` and a year's `Expires` for a v3 document
 * asked for by its current `?hash=`. `/openapi/v2` is also served as protobuf (gnostic's
 * `openapi.v2.Document`, encoded from the JSON document: openapi-v2-protobuf.ts) to a client that
 * asks for `application/com.github.proto-openapi.spec.v2@v1.0+protobuf` (client-go's
 * OpenAPISchema), with the JSON's ETag and `Content-Type: application/octet-stream` (sniffed, as
 * v1.26 sends it); the first Accept clause (goautoneg order) that either form matches decides.
 * The v3 documents are JSON only: a client that accepts nothing but protobuf gets kube-openapi's
 * empty 406 (openapi-preconditions.ts). Gzip-encoded
 * (the shipped bytes) for clients that accept it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BuiltinApi } from '../builtin-api';
import { parseAccept } from '../negotiate';
import { acceptsGzip, writeRawBody } from '../response-body';
import { isOpenApiJsonClause, isOpenApiProtobufClause, openApiJsonAccepted } from './accept-clauses';
import type { CustomDiscoveryEntry } from './custom-discovery';
import { CustomOpenApiV2 } from './custom-openapi-v2';
import { OpenApiV2Protobuf } from './openapi-v2-protobuf';
import { ifNoneMatchHits, openApiVary, sendNotModified, sendOpenApiNotAcceptable } from './openapi-preconditions';

const SNIFFED_JSON = 'text/plain; charset=utf-8';
const SNIFFED_BINARY = 'application/octet-stream';
const YEAR_MS = 365 * 24 * 3600 * 1000;

export class BuiltinOpenApi {
  private meta: Record<string, unknown> | undefined;
  private readonly customV2 = new CustomOpenApiV2(() => this.api.openApiV2('identity'));
  private readonly protobufV2 = new OpenApiV2Protobuf();

  constructor(private readonly api: BuiltinApi) {}

  /** The apimachinery schemas (ObjectMeta, ListMeta, Status …) a group-version document refers to, from a small built-in one. */
  metaSchemas(): Record<string, unknown> {
    if (this.meta) return this.meta;
    const doc = JSON.parse(this.api.openApiV3('apis/coordination.k8s.io/v1', 'identity')!.toString('utf8')) as { components: { schemas: Record<string, unknown> } };
    return (this.meta = Object.fromEntries(Object.entries(doc.components.schemas).filter(([name]) => name.startsWith('io.k8s.apimachinery.'))));
  }

  /**
   * The v3 index: the built-in one, plus the entries of `built` (documents serve makes for the
   * group-versions a recording adds) for group-versions the built-in API does not have. The
   * built-in index leaves some of its own out (apiregistration.k8s.io/v1, served by the
   * aggregator): those stay out.
   */
  v3Index(built: Record<string, { serverRelativeURL: string }>): { paths: Record<string, { serverRelativeURL: string }> } {
    const legacy = this.api.discovery().legacy;
    const paths = { ...this.api.openApiIndex().v3.paths };
    for (const [path, entry] of Object.entries(built)) if (!legacy[`/${path}`]) paths[path] = entry;
    return { paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
  }

  /**
   * Answers `/openapi/v2` (with the definitions of `custom`, the installed CRDs' kinds) or
   * `/openapi/v3/P` when the built-in API has that document; returns whether it did.
   */
  handle(req: IncomingMessage, res: ServerResponse, path: string, custom: readonly CustomDiscoveryEntry[] = []): boolean {
    if (path === '/openapi/v2') {
      const merged = this.customV2.document(custom);
      const hash = merged ? merged.hash : this.api.openApiIndex().v2.etag;
      const gzip = encodingFor(req) === 'gzip';
      const json = (): Buffer => (merged ? (gzip ? merged.gzip() : merged.body) : this.api.openApiV2(gzip ? 'gzip' : 'identity'));
      const protobuf = (): Buffer => {
        const doc = this.protobufV2.document(hash, () => merged?.body ?? this.api.openApiV2('identity'));
        return gzip ? doc.gzip() : doc.body;
      };
      const format = v2Format(req.headers.accept);
      const answer = format === 'json' ? { body: json, type: SNIFFED_JSON } : format === 'protobuf' ? { body: protobuf, type: SNIFFED_BINARY } : undefined;
      this.send(req, res, answer, hash, {}, openApiVary(path), path);
      return true;
    }
    const v3 = /^\/openapi\/v3\/(.+)$/.exec(path)?.[1];
    const hash = v3 === undefined ? undefined : this.api.openApiV3Hash(v3);
    if (v3 === undefined || hash === undefined) return false;
    const asked = new URL(req.url ?? '/', 'http://kubetape.invalid').searchParams.get('hash');
    const caching: Record<string, string> = asked === hash ? { 'Cache-Control': 'public, immutable', Expires: new Date(Date.now() + YEAR_MS).toUTCString().replace('GMT', 'UTC') } : {};
    const answer = openApiJsonAccepted(req.headers.accept) ? { body: () => this.api.openApiV3(v3, encodingFor(req))!, type: SNIFFED_JSON } : undefined;
    // kube-openapi's v3 handler sets `Vary: Accept`; kubetape also gzips it, so Accept-Encoding too.
    this.send(req, res, answer, hash, caching, encodingFor(req) === 'gzip' ? ['Accept', 'Accept-Encoding'] : 'Accept', path);
    return true;
  }

  /** 406 without `answer` (kube-openapi checks Accept first), else 304 for a matching `If-None-Match`, else `answer` (made only now). */
  private send(
    req: IncomingMessage,
    res: ServerResponse,
    answer: { body: () => Buffer; type: string } | undefined,
    hash: string,
    headers: Record<string, string>,
    vary: string | string[],
    path: string,
  ): void {
    const etag = `"${hash}"`;
    if (!answer) return sendOpenApiNotAcceptable(res, path);
    if (ifNoneMatchHits(header(req, 'if-none-match'), etag)) return sendNotModified(res, { ...headers, Etag: etag, Vary: vary });
    const encoding: Record<string, string> = encodingFor(req) === 'gzip' ? { 'Content-Encoding': 'gzip' } : {};
    writeRawBody(res, 200, answer.body(), answer.type, { ...headers, ...encoding, Etag: etag, Vary: vary });
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function encodingFor(req: IncomingMessage): 'identity' | 'gzip' {
  return acceptsGzip(req) ? 'gzip' : 'identity';
}

/** The form of `/openapi/v2` the first Accept clause either form matches asks for (kube-openapi's handler: JSON, then protobuf). */
function v2Format(accept: string | undefined): 'json' | 'protobuf' | undefined {
  for (const clause of parseAccept(accept || '*/*')) {
    if (isOpenApiJsonClause(clause)) return 'json';
    if (isOpenApiProtobufClause(clause, 'v2')) return 'protobuf';
  }
  return undefined;
}
