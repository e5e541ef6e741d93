/**
 * Installs CustomResourceDefinitions the way a client creating them would (`--crds`,
 * `api.crds(paths)`): each created through the write path's create step (defaults, validation,
 * managedFields of manager `kubetape`), committed as one revision, then established by the
 * controller; resolves once every one is. A CRD that exists already is left as it is.
 */
import { UsageError } from '../../errors/usage-error';
import { loadCelLibrary } from '../../schema';
import type { Random } from '../../k8s/names';
import { orderObject } from '../../k8s/object-order';
import { StatusError } from '../../k8s/status';
import type { StoredObject } from '../../reconstruct';
import { commitWrite } from '../../store/commit';
import { objectKey } from '../../store/revision';
import type { Store } from '../../store/store';
import type { ServedResources } from '../served-resources';
import { prepareCreate } from '../writes/prepare';
import { resourceRules } from '../writes/resource-rules';
import { WrittenObject } from '../writes/written-object';
import type { CrdController } from './crd-controller';
import { readCrdFiles } from './crd-files';

export interface CrdInstallDeps {
  store: Store<StoredObject>;
  resources: ServedResources;
  controller: CrdController;
  random: Random;
  now(): number;
}

/** How many field errors of an invalid CRD the one-line error names. */
const ERRORS_SHOWN = 3;

/** The apiserver's message, or for a CRD with many field errors its first ones and how many more there are. */
function installError(err: StatusError): string {
  const causes = err.status.details?.causes ?? [];
  if (err.status.reason !== 'Invalid' || causes.length <= ERRORS_SHOWN) return err.message;
  const shown = causes.slice(0, ERRORS_SHOWN).map((c) => `${c.field}: ${c.message}`);
  const subject = err.message.slice(0, Math.max(0, err.message.indexOf(' is invalid: ')));
  return `${subject} is invalid: ${shown.join(', ')} (and ${causes.length - ERRORS_SHOWN} more)`;
}

/** Creates the CRDs found in `paths`; returns their names once all are established. */
export async function installCrds(paths: readonly string[], deps: CrdInstallDeps): Promise<string[]> {
  const served = deps.resources.find('apiextensions.k8s.io', 'v1', 'customresourcedefinitions');
  if (!served) throw new UsageError('--crds: this server serves no apiextensions.k8s.io/v1 customresourcedefinitions');
  const names: string[] = [];
  await loadCelLibrary();
  for (const { file, crd } of readCrdFiles(paths)) {
    const name = String(crd.metadata?.name ?? '');
    names.push(name);
    const key = objectKey('', name);
    if (served.store.get(key, deps.store.head)) continue;
    let prepared: Record<string, any>;
    try {
      crd.apiVersion = 'apiextensions.k8s.io/v1';
      prepared = prepareCreate(crd, { resource: served, rules: resourceRules('apiextensions.k8s.io', 'customresourcedefinitions', true), namespace: '' }, { manager: 'kubetape', now: deps.now(), random: deps.random });
    } catch (err) {
      if (err instanceof StatusError) throw new UsageError(`--crds ${file}: ${installError(err)}`);
      throw err;
    }
    commitWrite(deps.store, [{ resource: served.store.id, key, value: (rev) => new WrittenObject(orderObject({ ...prepared, metadata: { ...prepared.metadata, resourceVersion: String(rev) } })) }]);
  }
  await Promise.all(names.map((n) => deps.controller.established(n))).catch((err: Error) => {
    throw new UsageError(`--crds: ${err.message}`);
  });
  return names;
}
