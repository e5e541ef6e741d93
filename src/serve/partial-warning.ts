/**
 * Objects the recording holds only as Table rows or PartialObjectMetadata (a client that ran
 * `kubectl get` saw no more): a request for the full object is answered in the apiserver's shape,
 * with the fields the recording lacks left out, and one `Warning: 299` header saying so.
 */
import type { ServerResponse } from 'node:http';
import type { SeenResource, StoredObject } from '../reconstruct';
import type { Representation } from './negotiate';
import { addWarnings } from './writes/field-validation';

type PartialForm = 'metadata' | 'table-row';

const SEEN_AS: Record<PartialForm, string> = { 'table-row': 'Table rows', metadata: 'PartialObjectMetadata' };

/** Whether the resource has any object known only partially (cheap: counted at rebuild). */
export function hasPartialObjects(info: SeenResource): boolean {
  return info.partial.tableRows + info.partial.metadata > 0;
}

/** The warning for one object (`configmaps demo/cm-1`), or undefined when it is whole or not asked for whole. */
export function partialObjectWarning(info: SeenResource, rep: Representation, key: string, value: StoredObject): string | undefined {
  if (rep.as || !hasPartialObjects(info)) return undefined;
  const form = value.form;
  if (form === 'object') return undefined;
  return `kubetape: the recording holds only the metadata of ${qualifiedName(info)} ${key} (seen as ${SEEN_AS[form]}); its other fields are missing`;
}

/** The warning for a list or a watch's objects, naming the resource and how many are partial. */
export function partialListWarning(info: SeenResource, rep: Representation, values: Iterable<StoredObject>): string | undefined {
  if (rep.as || !hasPartialObjects(info)) return undefined;
  let count = 0;
  const forms = new Set<PartialForm>();
  for (const v of values) {
    const form = v.form;
    if (form === 'object') continue;
    count++;
    forms.add(form);
  }
  if (count === 0) return undefined;
  const seenAs = (['table-row', 'metadata'] as const).filter((f) => forms.has(f)).map((f) => SEEN_AS[f]).join(' and ');
  const subject = count === 1 ? `1 of the ${qualifiedName(info)} (seen as ${seenAs}); its` : `${count} ${qualifiedName(info)} (seen as ${seenAs}); their`;
  return `kubetape: the recording holds only the metadata of ${subject} other fields are missing`;
}

/** Adds the warning, if any, to the response (before its head is written). */
export function warnPartial(res: ServerResponse, warning: string | undefined): void {
  if (warning) addWarnings(res, [warning]);
}

/** `configmaps`, `deployments.apps`. */
export function qualifiedName(info: { group: string; resource: string }): string {
  return info.group ? `${info.resource}.${info.group}` : info.resource;
}

/** One line per resource with partial objects, for serve's start-up log. */
export function partialResources(resources: Iterable<SeenResource>): Array<{ resource: string; tableRows: number; metadata: number }> {
  const out = [];
  for (const info of resources) {
    if (hasPartialObjects(info)) out.push({ resource: `${qualifiedName(info)}/${info.version}`, ...info.partial });
  }
  return out;
}
