/**
 * The API of a kube-apiserver v1.26 as shipped in data/builtin-api/ (made by
 * scripts/build-builtin-api.js from a real apiserver's answers): legacy and aggregated discovery
 * documents, OpenAPI v2 and v3. Each file is read on first use and kept: an empty serve starts
 * without reading the OpenAPI documents at all.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

type Obj = Record<string, any>;

export interface BuiltinDiscoveryDocs {
  /** APIGroupList (/apis) and APIResourceLists (/api/v1, /apis/G/V) by path, as served. */
  legacy: Record<string, Obj>;
  /** apidiscovery.k8s.io/v2beta1 APIGroupDiscoveryList for /api and /apis. */
  aggregated: Record<'/api' | '/apis', Obj>;
}

export interface BuiltinOpenApiIndex {
  /** The apiserver's gitVersion the documents come from (`info.version`). */
  gitVersion: string;
  v2: { etag: string };
  /** `/openapi/v3` as served: `{paths: {P: {serverRelativeURL: "/openapi/v3/P?hash=H"}}}`. */
  v3: { paths: Record<string, { serverRelativeURL: string }> };
}

/** The data folder beside dist/ and src/ (both two levels below the package root). */
export const BUILTIN_API_DIR = join(__dirname, '..', '..', 'data', 'builtin-api');

export class BuiltinApi {
  private discoveryDocs: BuiltinDiscoveryDocs | undefined;
  private openApiIndexDoc: BuiltinOpenApiIndex | undefined;
  /** Shipped files read so far (gzip-encoded), and their decoded bytes, by file name. */
  private readonly files = new Map<string, Buffer>();
  private readonly decoded = new Map<string, Buffer>();

  constructor(private readonly dir = BUILTIN_API_DIR) {}

  discovery(): BuiltinDiscoveryDocs {
    return (this.discoveryDocs ??= JSON.parse(gunzipSync(this.file('discovery.json.gz')).toString('utf8')) as BuiltinDiscoveryDocs);
  }

  openApiIndex(): BuiltinOpenApiIndex {
    return (this.openApiIndexDoc ??= JSON.parse(this.file('openapi.json').toString('utf8')) as BuiltinOpenApiIndex);
  }

  /** /openapi/v2 as served (JSON), or its gzip encoding. */
  openApiV2(encoding: 'identity' | 'gzip' = 'identity'): Buffer {
    return this.document('openapi-v2.json.gz', encoding);
  }

  /** The hash the v3 index gives `path` (`api/v1`, `apis/apps/v1` …), or undefined when it has none. */
  openApiV3Hash(path: string): string | undefined {
    const url = this.openApiIndex().v3.paths[path]?.serverRelativeURL;
    return url === undefined ? undefined : (new URL(url, 'http://kubetape.invalid').searchParams.get('hash') ?? undefined);
  }

  /** /openapi/v3/`path` as served (or gzip-encoded), or undefined when the index has no such path. */
  openApiV3(path: string, encoding: 'identity' | 'gzip' = 'identity'): Buffer | undefined {
    if (this.openApiV3Hash(path) === undefined) return undefined;
    return this.document(`openapi-v3/${path.replace(/\//g, '__')}.json.gz`, encoding);
  }

  private document(name: string, encoding: 'identity' | 'gzip'): Buffer {
    const gz = this.file(name);
    if (encoding === 'gzip') return gz;
    let doc = this.decoded.get(name);
    if (!doc) this.decoded.set(name, (doc = gunzipSync(gz)));
    return doc;
  }

  private file(name: string): Buffer {
    let bytes = this.files.get(name);
    if (!bytes) this.files.set(name, (bytes = readFileSync(join(this.dir, name))));
    return bytes;
  }
}

let shared: BuiltinApi | undefined;

/** The package's built-in API (one instance per process: its documents are read once). */
export function builtinApi(): BuiltinApi {
  return (shared ??= new BuiltinApi());
}
