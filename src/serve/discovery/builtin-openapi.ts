/**
 * `/openapi/v2` and `/openapi/v3/P` from the built-in API (data/builtin-api/), with the headers
 * kube-apiserver v1.26 sends (reference/openapi/HEADERS.txt): `Content-Type: text/plain;
 * charset=utf-8` (http.ServeContent sniffs the JSON), the document's hash as `Etag` (304 on
 * `If-None-Match`), `Cache-Control: public, immutable` and a year's `Expires` for a v3 document
 * asked for by its current `?hash=`. JSON only: a client that accepts nothing but the protobuf
 * encodings gets 406. Gzip-encoded (the shipped bytes) for clients that accept it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { notAcceptable } from '../../k8s/status';
import type { BuiltinApi } from '../builtin-api';
import { parseAccept } from '../negotiate';
import { acceptsGzip, sendStatusBody, writeRawBody } from '../response-body';
import type { CustomDiscoveryEntry } from './custom-discovery';
import { CustomOpenApiV2 } from './custom-openapi-v2';

const SNIFFED_JSON = 'text/plain; charset=utf-8';
const YEAR_MS = 365 * 24 * 3600 * 1000;

export class BuiltinOpenApi {
  private meta: Record<string, unknown> | undefined;
  private readonly customV2 = new CustomOpenApiV2(() => this.api.openApiV2('identity'));

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
      if (merged) this.send(req, res, encodingFor(req) === 'gzip' ? merged.gzip() : merged.body, merged.hash, {});
      else this.send(req, res, this.api.openApiV2(encodingFor(req)), this.api.openApiIndex().v2.etag, {});
      return true;
    }
    const v3 = /^\/openapi\/v3\/(.+)$/.exec(path)?.[1];
    const hash = v3 === undefined ? undefined : this.api.openApiV3Hash(v3);
    if (v3 === undefined || hash === undefined) return false;
    const asked = new URL(req.url ?? '/', 'http://kubetape.invalid').searchParams.get('hash');
    const caching: Record<string, string> = asked === hash ? { 'Cache-Control': 'public, immutable', Expires: new Date(Date.now() + YEAR_MS).toUTCString().replace('GMT', 'UTC') } : {};
    this.send(req, res, this.api.openApiV3(v3, encodingFor(req))!, hash, caching);
    return true;
  }

  private send(req: IncomingMessage, res: ServerResponse, body: Buffer, hash: string, headers: Record<string, string>): void {
    const etag = `"${hash}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { ...headers, Etag: etag });
      res.end();
      return;
    }
    if (!jsonAccepted(req.headers.accept)) return sendStatusBody(req, res, notAcceptable());
    const encoding: Record<string, string> = encodingFor(req) === 'gzip' ? { 'Content-Encoding': 'gzip' } : {};
    writeRawBody(res, 200, body, SNIFFED_JSON, { ...headers, ...encoding, Etag: etag, Vary: 'Accept-Encoding' });
  }
}

function encodingFor(req: IncomingMessage): 'identity' | 'gzip' {
  return acceptsGzip(req) ? 'gzip' : 'identity';
}

function jsonAccepted(accept: string | undefined): boolean {
  if (!accept) return true;
  return parseAccept(accept).some(
    (c) => (c.type === '*' && c.subType === '*') || (c.type === 'application' && (c.subType === '*' || c.subType === 'json')) || (c.type === 'text' && c.subType === 'plain'),
  );
}
