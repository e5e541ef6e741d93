/**
 * The representation a request asks for, from its Accept header, as one short string that is
 * equal for requests the apiserver would answer alike:
 * `json`, `protobuf`, `yaml`, `table;g=meta.k8s.io;v=v1`, `table;g=meta.k8s.io;v=v1beta1`,
 * `json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1`, or any other media type with its
 * parameters sorted (`json;as=APIGroupDiscoveryList;g=apidiscovery.k8s.io;v=v2` for kubectl's
 * aggregated discovery).
 *
 * The server answers with the first media range it can produce, so the first entry decides.
 * A missing Accept, `*\/*` and `application/*` get JSON from the apiserver and are `json` here.
 */
export function representationOf(accept: string | undefined): string {
  if (!accept) return 'json';
  let known = seen.get(accept);
  if (known === undefined) {
    known = classify(accept);
    if (seen.size >= SEEN_LIMIT) seen.clear();
    seen.set(accept, known);
  }
  return known;
}

/** Clients send a handful of distinct Accept headers: each is classified once. */
const seen = new Map<string, string>();
const SEEN_LIMIT = 256;

function classify(accept: string): string {
  const first = accept.split(',', 1)[0]!;
  const parts = first.split(';');
  const type = parts[0]!.trim().toLowerCase();
  const params: [string, string][] = [];
  let as = '';
  let group = '';
  let version = '';
  for (let i = 1; i < parts.length; i++) {
    const eq = parts[i]!.indexOf('=');
    if (eq < 0) continue;
    const name = parts[i]!.slice(0, eq).trim().toLowerCase();
    const value = parts[i]!.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    if (name === 'q') continue;
    if (name === 'as') as = value;
    else if (name === 'g') group = value;
    else if (name === 'v') version = value;
    else params.push([name, value]);
  }
  const base = baseType(type);
  if (as === 'Table' && base === 'json') return `table;g=${group || 'meta.k8s.io'};v=${version || 'v1'}`;
  let out = base;
  if (as) out += `;as=${as};g=${group};v=${version}`;
  params.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (const [name, value] of params) out += `;${name}=${value}`;
  return out;
}

function baseType(type: string): string {
  switch (type) {
    case '':
    case '*/*':
    case 'application/*':
    case 'application/json':
      return 'json';
    case 'application/vnd.kubernetes.protobuf':
      return 'protobuf';
    case 'application/yaml':
      return 'yaml';
    default:
      return type;
  }
}
