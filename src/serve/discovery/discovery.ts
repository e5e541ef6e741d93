/**
 * Discovery for serve mode: `/version`, `/api`, `/apis`, `/api/v1`, `/apis/G`, `/apis/G/V`,
 * aggregated discovery (apidiscovery.k8s.io v2 / v2beta1 on `/api` and `/apis`), `/openapi/v2`
 * and `/openapi/v3…`.
 *
 * A recorded answer is served when the recording has one for that path and representation
 * (OpenAPI ones picked as recorded-openapi.ts says: a v2 protobuf client with only the JSON
 * recorded gets it encoded); otherwise the answer is built from every resource serve knows: those the recorded documents
 * describe (verbs, short names, subresources as recorded), then those reconstruction saw
 * (completed from the built-in table of well-known resources, verbs get/list/watch).
 * With the built-in API (data/builtin-api/), resources it knows that recorded discovery does not
 * describe take its facts, and OpenAPI documents the recording lacks come from it (v2, and v3
 * for its group-versions). Other OpenAPI v3 without a recorded one is built (index and per
 * group-version paths, no schemas); OpenAPI v2 without a recorded or built-in one: 404.
 * The installed CRDs' kinds join the built-in v2 document and the v3 index (recorded or not),
 * each custom group-version with a document of its own.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BuiltinApi } from '../builtin-api';
import { notAcceptable, resourceNotFound } from '../../k8s/status';
import type { Db } from '../../recording/open';
import { negotiateStatus } from '../negotiate';
import { encodeJson, indentJson, sendStatusBody, writeBody, writeRawBody } from '../response-body';
import {
  DEFAULT_VERSION_INFO,
  aggregatedDiscovery,
  apiGroup,
  apiGroupList,
  apiResourceList,
  apiVersions,
  buildModel,
  type GroupModel,
  type VersionInfo,
} from './discovery-docs';
import { READ_ONLY_VERBS, resourceKey, withBuiltinFacts, type KnownResource } from './known-resources';
import { customOpenApiV3Documents } from './custom-openapi';
import { indexWithCustomDocuments } from './custom-openapi-overlay';
import { groupVersionPath, openApiHash, openApiV3Document, openApiV3Index } from './openapi-docs';
import { builtinResources } from './builtin-discovery';
import { customGroupModel, customResourceList, withCustomAggregated, withCustomGroups, type CustomDiscoveryEntry } from './custom-discovery';
import { BuiltinOpenApi } from './builtin-openapi';
import { addToRecorded } from './recorded-additions';
export { aggregatedVersionAccepted } from './accept-clauses';
import { RecordedDiscovery, headerValue, type AggregatedVersion } from './recorded-discovery';
import { AGGREGATED_KIND, aggregatedVersionAccepted, openApiJsonAccepted } from './accept-clauses';
import { OpenApiV2Protobuf } from './openapi-v2-protobuf';
import { pickOpenApiAnswer, sendRecordedOpenApi } from './recorded-openapi';
import { ifNoneMatchHits, sendNotModified, sendOpenApiNotAcceptable } from './openapi-preconditions';

export interface DiscoveryOptions {
  /** /version when the recording has none (default: a v1.26.4 server). */
  versionInfo?: VersionInfo;
  /** Verbs of resources that recorded discovery does not describe (default get, list, watch). */
  verbs?: readonly string[];
  /** Resources served whatever the recording holds (events): added to recorded documents that leave them out. */
  alwaysListed?: readonly KnownResource[];
  /** The built-in API: facts of resources recorded discovery lacks, OpenAPI documents the recording lacks. */
  builtin?: BuiltinApi;
}

type Obj = Record<string, any>;

const JSON_TYPE = 'application/json';

export class Discovery {
  private readonly recorded: RecordedDiscovery;
  private readonly known: KnownResource[];
  private readonly byKey: Map<string, KnownResource>;
  private readonly model: GroupModel[];
  private readonly versionInfo: VersionInfo;
  private readonly builtinOpenApi: BuiltinOpenApi | undefined;
  private readonly recordedV2Protobuf = new OpenApiV2Protobuf();
  /** The custom resources installed from CRDs (read on every request: they come and go). */
  private custom: () => readonly CustomDiscoveryEntry[] = () => [];

  /**
   * @param resources what reconstruction saw (group, version, resource, kind, namespaced …)
   * @param recordedDb the recording, for its discovery exchanges (or an already-read RecordedDiscovery)
   */
  constructor(resources: readonly KnownResource[], recordedDb?: Db | RecordedDiscovery, options: DiscoveryOptions = {}) {
    this.recorded = recordedDb instanceof RecordedDiscovery ? recordedDb : recordedDb ? RecordedDiscovery.read(recordedDb) : new RecordedDiscovery();
    this.versionInfo = options.versionInfo ?? DEFAULT_VERSION_INFO;
    if (options.alwaysListed) addToRecorded(this.recorded, options.alwaysListed);
    const verbs = options.verbs ?? READ_ONLY_VERBS;
    const builtin = options.builtin ? builtinResources(options.builtin) : new Map<string, KnownResource>();
    this.builtinOpenApi = options.builtin ? new BuiltinOpenApi(options.builtin) : undefined;
    this.byKey = new Map();
    for (const r of this.recorded.resources()) this.byKey.set(resourceKey(r.group, r.version, r.resource), r);
    for (const r of resources) {
      const key = resourceKey(r.group, r.version, r.resource);
      if (!this.byKey.has(key)) this.byKey.set(key, builtin.get(key) ?? withBuiltinFacts({ ...r, verbs: r.verbs ?? verbs.slice() }));
    }
    this.known = [...this.byKey.values()];
    this.model = buildModel(this.known, this.recorded.groupVersions());
  }

  /** Where the custom resources installed from CRDs are read from. */
  setCustomResources(provider: () => readonly CustomDiscoveryEntry[]): void {
    this.custom = provider;
  }

  private customModel(): GroupModel[] {
    const entries = this.custom();
    return entries.length === 0 ? [] : customGroupModel(entries).filter((g) => !this.model.some((m) => m.name === g.name));
  }

  /**
   * Whether a built-in or recorded API serves the group/version; requests for other groups reach
   * the apiextensions handler, which answers what no CRD serves with the plain NotFound page.
   */
  servesGroupVersion(group: string, version: string): boolean {
    return this.model.some((g) => g.name === group && g.versions.some((v) => v.version === version)) || this.recorded.legacy.has(`/apis/${group}/${version}`);
  }

  /** Every resource discovery lists. */
  resources(): KnownResource[] {
    return this.known.slice();
  }

  lookup(group: string, version: string, resource: string): KnownResource | undefined {
    return this.byKey.get(resourceKey(group, version, resource));
  }

  /** Answers the request if it is a discovery or OpenAPI GET; returns whether it did. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const path = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '') || '/';
    const parts = path.split('/').slice(1);
    if (path === '/version') this.sendVersion(res);
    else if (path.startsWith('/openapi/')) return this.handleOpenApi(req, res, path);
    else if (path === '/api' || path === '/apis') this.sendGroups(req, res, path);
    else if (parts[0] === 'api' && parts.length === 2) this.sendResourceList(req, res, path, '', parts[1]!);
    else if (parts[0] === 'apis' && parts.length === 2) this.sendGroup(req, res, path, parts[1]!);
    else if (parts[0] === 'apis' && parts.length === 3) this.sendResourceList(req, res, path, parts[1]!, parts[2]!);
    else return false;
    return true;
  }

  private sendVersion(res: ServerResponse): void {
    const recorded = this.recorded.version;
    if (recorded) writeRawBody(res, 200, recorded.body, recorded.contentType || JSON_TYPE);
    else writeRawBody(res, 200, indentJson(JSON.stringify(this.versionInfo)), JSON_TYPE);
  }

  private sendGroups(req: IncomingMessage, res: ServerResponse, path: '/api' | '/apis'): void {
    const aggregated = aggregatedVersionAccepted(req.headers.accept);
    if (aggregated) return this.sendAggregated(req, res, path, aggregated);
    const recorded = this.recorded.legacy.get(path);
    const custom = path === '/apis' ? this.customModel() : [];
    if (recorded && custom.length === 0) return this.sendLegacy(req, res, recorded.body);
    if (recorded) return this.sendLegacy(req, res, withCustomGroups(JSON.parse(recorded.body.toString('utf8')) as Obj, custom));
    const local = `${req.socket.localAddress ?? '127.0.0.1'}:${req.socket.localPort ?? 0}`.replace(/^::ffff:/, '');
    this.sendLegacy(req, res, path === '/api' ? apiVersions(local) : withCustomGroups(apiGroupList(this.model), custom));
  }

  private sendGroup(req: IncomingMessage, res: ServerResponse, path: string, group: string): void {
    const recorded = this.recorded.legacy.get(path);
    if (recorded) return this.sendLegacy(req, res, recorded.body);
    const model = this.model.find((g) => g.name === group && group !== '') ?? this.customModel().find((g) => g.name === group);
    if (!model) return sendStatusBody(req, res, resourceNotFound());
    this.sendLegacy(req, res, apiGroup(model));
  }

  private sendResourceList(req: IncomingMessage, res: ServerResponse, path: string, group: string, version: string): void {
    const recorded = this.recorded.legacy.get(path);
    if (recorded) return this.sendLegacy(req, res, recorded.body);
    const resources = this.model.find((g) => g.name === group)?.versions.find((v) => v.version === version)?.resources;
    if (!resources && this.customModel().some((g) => g.name === group && g.versions.some((v) => v.version === version))) {
      return this.sendLegacy(req, res, customResourceList(group, version, this.custom()));
    }
    if (!resources && !(group === '' && version === 'v1')) return sendStatusBody(req, res, resourceNotFound());
    this.sendLegacy(req, res, apiResourceList(group, version, resources ?? []));
  }

  /** Legacy discovery documents go through WriteObjectNegotiated with no transform allowed. */
  private sendLegacy(req: IncomingMessage, res: ServerResponse, doc: Obj | Buffer): void {
    const rep = negotiateStatus(req.headers.accept, false);
    if (!rep) return sendStatusBody(req, res, notAcceptable());
    writeBody(req, res, 200, Buffer.isBuffer(doc) ? doc : encodeJson(doc), JSON_TYPE);
  }

  private sendAggregated(req: IncomingMessage, res: ServerResponse, path: '/api' | '/apis', version: AggregatedVersion): void {
    const { body, etag } = this.aggregatedBody(path, version);
    const headers = {
      'Cache-Control': 'public',
      ETag: etag,
      Vary: 'Accept',
    };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    writeBody(req, res, 200, body, `${JSON_TYPE};g=apidiscovery.k8s.io;v=${version};as=${AGGREGATED_KIND}`, headers);
  }

  private aggregatedBody(path: '/api' | '/apis', version: AggregatedVersion): { body: Buffer | string; etag: string } {
    const custom = path === '/apis' ? this.customModel() : [];
    const exact = this.recorded.aggregated.get(`${path} ${version}`);
    if (exact && custom.length === 0) return { body: exact.body, etag: headerValue(exact.headers, 'etag') ?? quotedHash(exact.body) };
    const other = exact ? undefined : this.recorded.json(this.recorded.aggregated.get(`${path} ${version === 'v2' ? 'v2beta1' : 'v2'}`));
    let doc = exact ? (JSON.parse(exact.body.toString('utf8')) as Obj) : other ? { ...other, apiVersion: `apidiscovery.k8s.io/${version}` } : aggregatedDiscovery(this.model, path, version);
    if (custom.length > 0) doc = withCustomAggregated(doc, custom, version);
    const body = encodeJson(doc);
    return { body, etag: quotedHash(body) };
  }

  private handleOpenApi(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    if (!/^\/openapi\/v[23](\/.*)?$/.test(path)) return false;
    const answers = this.recorded.openapi.get(path);
    const custom = path.startsWith('/openapi/v3') && this.custom().length > 0 ? this.customOpenApiV3() : undefined;
    if (!answers || answers.length === 0) {
      if (path !== '/openapi/v3' && this.builtinOpenApi?.handle(req, res, path, this.custom())) return true;
      if (path.startsWith('/openapi/v3') && (!this.recordedOpenApiV3() || custom?.has(path.slice('/openapi/v3/'.length)))) this.sendBuiltinOpenApiV3(req, res, path);
      else sendStatusBody(req, res, resourceNotFound());
      return true;
    }
    const picked = pickOpenApiAnswer(path, answers, req.headers.accept);
    if (!picked) {
      sendOpenApiNotAcceptable(res, path);
      return true;
    }
    const withCustom = path === '/openapi/v3' && custom && !picked.encodeV2 ? indexWithCustomDocuments(picked.answer.body, custom) : undefined;
    if (withCustom) writeRawBody(res, 200, withCustom, picked.answer.contentType || JSON_TYPE, {});
    else sendRecordedOpenApi(req, res, picked, this.recordedV2Protobuf);
    return true;
  }

  /** The custom group-versions' v3 documents by path below /openapi/v3/. */
  private customOpenApiV3(): Map<string, Obj> {
    const gitVersion = String(this.recorded.json(this.recorded.version)?.gitVersion ?? this.versionInfo.gitVersion);
    return customOpenApiV3Documents(this.custom(), gitVersion, () => this.builtinOpenApi?.metaSchemas() ?? {});
  }

  private recordedOpenApiV3(): boolean {
    return [...this.recorded.openapi.keys()].some((p) => p.startsWith('/openapi/v3'));
  }

  /** The built-in OpenAPI v3 (index and group-version documents, JSON only) when none was recorded. */
  private sendBuiltinOpenApiV3(req: IncomingMessage, res: ServerResponse, path: string): void {
    const gitVersion = String(this.recorded.json(this.recorded.version)?.gitVersion ?? this.versionInfo.gitVersion);
    let doc: Obj | undefined;
    let headers: Record<string, string> = {};
    const custom = this.customOpenApiV3();
    if (path === '/openapi/v3') {
      doc = openApiV3Index(this.model, gitVersion);
      for (const [p, d] of custom) doc.paths[p] = { serverRelativeURL: `/openapi/v3/${p}?hash=${openApiHash(d)}` };
      if (this.builtinOpenApi) doc = this.builtinOpenApi.v3Index(doc.paths);
    } else {
      doc = custom.get(path.slice('/openapi/v3/'.length));
      for (const g of doc ? [] : this.model) {
        const v = g.versions.find((x) => `/openapi/v3/${groupVersionPath(g.name, x.version)}` === path);
        if (v) doc = openApiV3Document(g.name, v.version, v.resources, gitVersion);
      }
      if (!doc) return sendStatusBody(req, res, resourceNotFound());
      // kube-openapi's group-version handler: Vary, then 406 or the ETag and ServeContent's 304.
      if (!openApiJsonAccepted(req.headers.accept)) return sendOpenApiNotAcceptable(res, path);
      headers = { Etag: `"${openApiHash(doc)}"`, Vary: 'Accept' };
      const inm = req.headers['if-none-match'];
      if (ifNoneMatchHits(Array.isArray(inm) ? inm.join(', ') : inm, headers.Etag)) return sendNotModified(res, headers);
    }
    writeRawBody(res, 200, JSON.stringify(doc), JSON_TYPE, headers);
  }
}

/** The apiserver's ETag: quoted upper-case hex SHA-512 of the JSON document. */
function quotedHash(body: Buffer | string): string {
  const text = typeof body === 'string' ? body.replace(/\n$/, '') : body;
  return `"${createHash('sha512').update(text).digest('hex').toUpperCase()}"`;
}
