/**
 * The strategic merge patch Patcher: the schema of the object's kind gives merge keys and
 * strategies (src/schema/strategic-merge-patch.ts); a kind the schema lacks (a custom resource)
 * is answered with the apiserver's 415 listing the patch types it does take for them.
 */
import { goFormatValue } from '../../k8s/go-value-format';
import { StatusError, failure } from '../../k8s/status';
import { badRequestMessage, patchRejected, unsupportedBodyType } from '../../k8s/write-status';
import { StrategicMergePatchError, strategicMergePatch, type Schema } from '../../schema';
import { APPLY_PATCH, decodePatch, goKind, JSON_PATCH, MERGE_PATCH, type Patcher } from './patchers';

type Obj = Record<string, any>;

/** What the apiserver accepts for a custom resource. */
const CUSTOM_RESOURCE_PATCH_TYPES = [JSON_PATCH, MERGE_PATCH, APPLY_PATCH];

export function strategicMergePatcher(schema: () => Schema): Patcher {
  const patcher: Patcher = ({ current, patch, report }) => {
    const root = schema().typeOf(String(current.apiVersion), String(current.kind));
    if (!root) throw unsupportedBodyType(CUSTOM_RESOURCE_PATCH_TYPES);
    const parsed = decodePatch(patch);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw badRequestMessage(`error decoding patch: json: cannot unmarshal ${goKind(parsed)} into Go value of type map[string]interface {}`);
    }
    try {
      const patched = strategicMergePatch(current, parsed as Obj, root);
      // The apiserver prints the patch map (as the merge left it) with %+v.
      if (report) report.strictValue = () => goFormatValue(parsed);
      return patched;
    } catch (err) {
      if (!(err instanceof StrategicMergePatchError)) throw err;
      if (err.code === 400) throw badRequestMessage(err.message);
      if (err.code === 422) throw patchRejected();
      // An error the apiserver does not map to a Status: ErrorToAPIStatus's 500 with reason Unknown.
      throw new StatusError(failure(500, 'Unknown', err.message));
    }
  };
  // strategicMergePatch is copy-on-write.
  patcher.sharesLive = true;
  return patcher;
}
