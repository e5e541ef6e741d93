/**
 * GET pods/NAME/log as the apiserver answers it where no kubelet runs (pkg/registry/core/pod
 * LogLocation): the container named or the only one (a Pod with several needs `?container=`,
 * else 400 naming them), an unknown container 400; a Pod no node runs yet has an empty log
 * (200, text/plain, nothing), as a Pending pod has; a Pod bound to a node the store does not
 * hold is the node's 404, one bound to a node that exists the kubelet's unreachable port (500):
 * serve runs no kubelet.
 */
import { badRequest, notFound, statusFor } from '../k8s/status';
import type { ResourceRequest } from './resource-request';
import { writeRawBody } from './response-body';
import { liveObject } from './live-object';
import type { WriteDeps } from './writes';

type Obj = Record<string, any>;

export async function handlePodLog(ctx: ResourceRequest, deps: WriteDeps): Promise<void> {
  const name = ctx.info.name;
  const pod = liveObject(deps, '', 'v1', 'pods', ctx.info.namespace, name);
  if (!pod) throw notFound('pods', name);
  const container = ctx.info.query.get('container') ?? '';
  const chosen = logContainer(pod, container);
  const nodeName = pod.spec?.nodeName;
  if (!nodeName) {
    writeRawBody(ctx.res, 200, '', 'text/plain');
    return;
  }
  const node = liveObject(deps, '', 'v1', 'nodes', '', nodeName);
  if (!node) throw notFound('nodes', nodeName);
  const address = nodeAddress(node) ?? nodeName;
  const port = node.status?.daemonEndpoints?.kubeletEndpoint?.Port ?? 10250;
  const host = address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
  throw statusFor(500, `Get "https://${host}/containerLogs/${ctx.info.namespace}/${name}/${chosen}": dial tcp ${host}: connect: connection refused`);
}

/** validateContainer: the named container (any kind), or the only one. */
function logContainer(pod: Obj, container: string): string {
  const names = (list: unknown) => (Array.isArray(list) ? list.map((c: Obj) => String(c?.name ?? '')) : []);
  const containers = names(pod.spec?.containers);
  const init = names(pod.spec?.initContainers);
  const name = pod.metadata?.name;
  if (container === '') {
    if (containers.length === 1) return containers[0]!;
    if (containers.length === 0) throw badRequest(`a container name must be specified for pod ${name}`);
    let message = `a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]`;
    if (init.length > 0) message += ` or one of the init containers: [${init.join(' ')}]`;
    throw badRequest(message);
  }
  if (![...containers, ...init, ...names(pod.spec?.ephemeralContainers)].includes(container)) throw badRequest(`container ${container} is not valid for pod ${name}`);
  return container;
}

/** The address the apiserver dials a kubelet at: the first of the preferred address types the node has. */
function nodeAddress(node: Obj): string | undefined {
  const addresses = Array.isArray(node.status?.addresses) ? (node.status.addresses as Obj[]) : [];
  for (const type of ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP']) {
    const found = addresses.find((a) => a?.type === type && typeof a.address === 'string');
    if (found) return found.address;
  }
  return undefined;
}
