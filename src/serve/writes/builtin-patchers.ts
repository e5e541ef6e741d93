/** The patchers serve uses unless told otherwise: merge and JSON patch, and strategic merge patch over the built-in schema. */
import { builtinSchema } from '../builtin-schema';
import { defaultPatchers, STRATEGIC_MERGE_PATCH, type Patchers } from './patchers';
import { strategicMergePatcher } from './strategic-merge-patcher';

export function builtinPatchers(): Patchers {
  const patchers = defaultPatchers();
  patchers.set(STRATEGIC_MERGE_PATCH, strategicMergePatcher(builtinSchema));
  return patchers;
}
