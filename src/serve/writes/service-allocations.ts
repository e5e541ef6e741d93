/** The Service cluster IPs and node ports in use at the store's head (read when a Service is written). */
import { serviceAddresses, type ServiceAllocations } from '../../k8s/service-allocation';
import type { WriteDeps } from './write-deps';
import { objectOf } from './written-object';

export function serviceAllocations(deps: WriteDeps): ServiceAllocations {
  const used: ServiceAllocations = { clusterIPs: new Set(), nodePorts: new Set() };
  const services = deps.resources.find('', 'v1', 'services');
  if (!services) return used;
  for (const rev of services.store.snapshot(deps.store.head, '')) {
    const held = serviceAddresses(objectOf(rev.value, services.codec.type).spec);
    for (const ip of held.clusterIPs) used.clusterIPs.add(ip);
    for (const p of held.nodePorts) used.nodePorts.add(p);
  }
  return used;
}
