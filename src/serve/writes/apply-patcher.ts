/**
 * The server-side apply Patcher (`application/apply-patch+yaml`): the body (YAML 1.1 or JSON)
 * is applied to the live object by the field manager over the kind's schema — a custom
 * resource's structural schema, else the built-in schema's type
 * (src/schema/field-manager.ts; kinds neither has get a deduced type), which also sets the
 * object's managedFields. Errors as the apiserver's applyPatcher answers them: 400 for another
 * apiVersion or managedFields in the body, 500 for fields the type does not declare, 409 for
 * conflicts.
 */
import { yaml } from '../../wire/yaml';
import { internalError } from '../../k8s/status';
import { badRequestMessage } from '../../k8s/write-status';
import { applyConfiguration, TypedValueError, type Schema } from '../../schema';
import { applyTypeErrors } from '../../schema/apply-type-errors';
import { isPlainObject } from '../../wire/json-object';
import { resourceSchemaNode } from '../resource-schema';
import type { Patcher } from './patchers';

type Obj = Record<string, any>;

export function applyPatcher(schema: () => Schema): Patcher {
  const patcher: Patcher = ({ current, patch, json, apply, resource }) => {
    if (!apply) throw internalError('apply patch without its field manager');
    const config = isPlainObject(json) ? json : decodeApplyBody(patch);
    const apiVersion = String(current.apiVersion);
    const kind = String(current.kind);
    const given = typeof config.apiVersion === 'string' ? config.apiVersion : '';
    if (given !== apiVersion) throw badRequestMessage(`Incorrect version specified in apply patch. Specified patch version: ${given}, expected: ${apiVersion}`);
    if (config.metadata?.managedFields !== undefined && config.metadata?.managedFields !== null) throw badRequestMessage('metadata.managedFields must be nil');
    try {
      const node = resource?.custom ? resourceSchemaNode(resource) : schema().typeOf(apiVersion, kind);
      const typeErrors = applyTypeErrors(config, node);
      if (typeErrors.length > 0) throw new TypedValueError(typeErrors);
      return applyConfiguration({ node, live: current, config, apiVersion, ...apply });
    } catch (err) {
      if (!(err instanceof TypedValueError)) throw err;
      const meta = (config.metadata ?? {}) as Obj;
      const group = apiVersion.includes('/') ? apiVersion : `/${apiVersion}`;
      throw internalError(`failed to create typed patch object (${meta.namespace ?? ''}/${meta.name ?? ''}; ${group}, Kind=${config.kind ?? ''}): ${err.message}`);
    }
  };
  // applyConfiguration leaves the live object as it is and shares what it does not change.
  patcher.sharesLive = true;
  return patcher;
}

/** The JSON value of an apply body that is a JSON object, as decodeApplyBody reads it; undefined for any other body. */
export function applyBodyJson(patch: Buffer): Obj | undefined {
  const text = patch.toString('utf8');
  const value = text.trimStart().startsWith('{') ? parseJson(text) : undefined;
  return isPlainObject(value) ? value : undefined;
}

/** The applied configuration: YAML 1.1 (JSON is YAML, read by JSON.parse when it parses); a repeated key keeps its last value. */
function decodeApplyBody(patch: Buffer): Obj {
  const json = applyBodyJson(patch);
  if (json) return json;
  const text = patch.toString('utf8');
  let value: unknown;
  try {
    value = yaml().parse(text, { version: '1.1', uniqueKeys: false });
  } catch (err) {
    throw badRequestMessage(`error decoding YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequestMessage('error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}');
  return value as Obj;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
