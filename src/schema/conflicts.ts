/**
 * Apply conflicts as the apiserver reports them (fieldmanager/internal/conflict.go): one cause
 * per conflicting field, `conflict with "a"` (Update managers: `"a" using v1`, a subresource:
 * `"a" with subresource "status"`), the message listing them by manager. Pure.
 */
import { applyConflict } from '../k8s/write-status';
import type { StatusError } from '../k8s/status';
import { pathString, type FieldSet } from './field-set';

/** Who holds a conflicting field: a managedFields entry's identity. */
export interface ConflictOwner {
  manager: string;
  operation: string;
  apiVersion: string;
  subresource?: string;
}

export interface Conflict {
  owner: ConflictOwner;
  path: string;
}

/** printManager: the manager quoted, with its subresource and, for Update entries, the apiVersion. */
export function ownerText(owner: ConflictOwner): string {
  let text = JSON.stringify(owner.manager);
  if (owner.subresource) text += ` with subresource ${JSON.stringify(owner.subresource)}`;
  if (owner.operation === 'Update') text += ` using ${owner.apiVersion}`;
  return text;
}

/** The conflicts of each owner's set, owners in order, each set's paths in iteration order. */
export function conflictsOf(sets: ReadonlyArray<readonly [ConflictOwner, FieldSet]>): Conflict[] {
  return sets.flatMap(([owner, set]) => set.paths().map((p) => ({ owner, path: pathString(p) })));
}

/** The 409 for `conflicts` (managers sorted in the message as the apiserver sorts them). */
export function conflictError(conflicts: readonly Conflict[]): StatusError {
  const causes = conflicts.map((c) => ({ message: `conflict with ${ownerText(c.owner)}`, field: c.path }));
  if (conflicts.length === 1) {
    const [c] = conflicts;
    return applyConflict(`Apply failed with 1 conflict: conflict with ${ownerText(c!.owner)}: ${c!.path}`, causes);
  }
  const byOwner = new Map<string, string[]>();
  for (const c of conflicts) {
    const key = ownerText(c.owner);
    if (!byOwner.has(key)) byOwner.set(key, []);
    byOwner.get(key)!.push(c.path);
  }
  const lines: string[] = [];
  for (const owner of [...byOwner.keys()].sort()) lines.push(`conflicts with ${owner}:`, ...byOwner.get(owner)!.map((p) => `- ${p}`));
  return applyConflict(`Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`, causes);
}
