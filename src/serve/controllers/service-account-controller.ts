/** kube-controller-manager's serviceaccount controller: a ServiceAccount `default` in every active namespace. */
import type { Controller, ControllerContext } from './controller';
import { namespaceObjectController } from './namespace-object-controller';

export function serviceAccountController(ctx: ControllerContext): Controller {
  return namespaceObjectController(ctx, {
    name: 'serviceaccount',
    resource: 'serviceaccounts',
    objectName: 'default',
    build: () => ({ kind: 'ServiceAccount', apiVersion: 'v1', metadata: { name: 'default' } }),
  });
}
