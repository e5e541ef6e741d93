/**
 * The installed CRDs over an OpenAPI v3 index a recording holds (a real cluster's, taken before
 * the CRDs were installed in serve): the recorded index with an entry for each custom
 * group-version it lacks, pointing at the document serve builds for it (custom-openapi.ts), as
 * the apiserver's index lists every group-version it serves.
 */
import { openApiHash } from './openapi-docs';

type Obj = Record<string, any>;

/** The recorded index body with the custom documents' entries added; undefined when it is not a JSON index or lacks none. */
export function indexWithCustomDocuments(recorded: Buffer, custom: ReadonlyMap<string, Obj>): Buffer | undefined {
  let index: Obj;
  try {
    index = JSON.parse(recorded.toString('utf8')) as Obj;
  } catch {
    return undefined;
  }
  if (!index || typeof index.paths !== 'object' || index.paths === null) return undefined;
  const missing = [...custom].filter(([path]) => index.paths[path] === undefined);
  if (missing.length === 0) return undefined;
  const paths: Obj = { ...index.paths };
  for (const [path, doc] of missing) paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${openApiHash(doc)}` };
  index.paths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return Buffer.from(JSON.stringify(index), 'utf8');
}
