/**
 * kube-controller-manager's root-ca-cert-publisher: a ConfigMap `kube-root-ca.crt` in every
 * active namespace, key `ca.crt` = the cluster's CA, with the description annotation v1.26 sets.
 */
import type { Controller, ControllerContext } from './controller';
import { namespaceObjectController } from './namespace-object-controller';

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
export const ROOT_CA_DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

export function rootCaController(ctx: ControllerContext): Controller {
  return namespaceObjectController(ctx, {
    name: 'root-ca',
    resource: 'configmaps',
    objectName: ROOT_CA_CONFIGMAP,
    build: () => ({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: ROOT_CA_CONFIGMAP, annotations: { 'kubernetes.io/description': ROOT_CA_DESCRIPTION } },
      data: { 'ca.crt': ctx.caPem },
    }),
  });
}
