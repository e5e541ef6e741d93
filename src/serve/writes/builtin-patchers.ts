/** The patchers serve uses unless told otherwise: merge and JSON patch, strategic merge patch and server-side apply over the built-in schema. */
import { builtinSchema } from '../builtin-schema';
import { applyPatcher } from './apply-patcher';
import { APPLY_PATCH, defaultPatchers, STRATEGIC_MERGE_PATCH, type Patchers } from './patchers';
import { strategicMergePatcher } from './strategic-merge-patcher';

export function builtinPatchers(): Patchers {
  const patchers = defaultPatchers();
  patchers.set(STRATEGIC_MERGE_PATCH, strategicMergePatcher(builtinSchema));
  patchers.set(APPLY_PATCH, applyPatcher(builtinSchema));
  return patchers;
}
