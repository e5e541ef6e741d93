import type { StoredObject } from '../../reconstruct';
import { commitWrite } from '../../store/commit';
import { systemClock } from '../../store/clock';
import { objectKey } from '../../store/revision';
import { Store } from '../../store/store';
import { WrittenObject } from '../writes/written-object';
import { CrdController, CRD_RESOURCE_ID } from './crd-controller';
import type { CustomResources } from './custom-resources';

describe('CrdController', () => {
  it('a CRD whose resource cannot be served rejects the waits for it (--crds and api.crds() fail instead of waiting forever)', async () => {
    const store = new Store<StoredObject>({ clock: systemClock });
    store.resource(CRD_RESOURCE_ID);
    const failing = { install: () => { throw new Error('schema could not be compiled'); }, isInstalled: () => false, uninstall: () => undefined, servedOf: () => [] } as unknown as CustomResources;
    const controller = new CrdController(store, failing, () => Date.now());
    const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'things.example.com' }, spec: { group: 'example.com', names: { plural: 'things', kind: 'Thing' }, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true }] }, status: { conditions: null } };
    const waiting = controller.established('things.example.com');
    commitWrite(store, [{ resource: CRD_RESOURCE_ID, key: objectKey('', 'things.example.com'), value: (rev) => new WrittenObject({ ...crd, metadata: { ...crd.metadata, resourceVersion: String(rev) } }) }]);
    await expect(waiting).rejects.toThrow('custom resource definition things.example.com cannot be served: schema could not be compiled');
  });
});
