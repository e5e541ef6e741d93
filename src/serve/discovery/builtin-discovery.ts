/**
 * The built-in discovery of a kube-apiserver v1.26 (data/builtin-api/) in the shape recorded
 * discovery has: the answers a recording would hold had it asked for every document, so the
 * Discovery class serves them as it serves recorded ones (bytes, ETags, v2 relabelling).
 */
import type { BuiltinApi } from '../builtin-api';
import { encodeJson } from '../response-body';
import { resourceKey, type KnownResource } from './known-resources';
import { RecordedDiscovery } from './recorded-discovery';

const AGGREGATED_TYPE = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

/** Every built-in discovery document as a (fresh, mutable) RecordedDiscovery. */
export function builtinDiscovery(api: BuiltinApi): RecordedDiscovery {
  const docs = api.discovery();
  const discovery = new RecordedDiscovery();
  for (const [path, doc] of Object.entries(docs.legacy)) discovery.add(path, [['Content-Type', 'application/json']], Buffer.from(encodeJson(doc)));
  for (const [path, doc] of Object.entries(docs.aggregated)) discovery.add(path, [['Content-Type', AGGREGATED_TYPE]], Buffer.from(encodeJson(doc)));
  return discovery;
}

/** What the built-in discovery says of each resource (verbs, short names, subresources …), by group/version/resource. */
export function builtinResources(api: BuiltinApi): Map<string, KnownResource> {
  return new Map(builtinDiscovery(api).resources().map((r) => [resourceKey(r.group, r.version, r.resource), r]));
}
