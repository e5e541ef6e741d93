/**
 * What a JSON `null` in a built-in kind's object becomes once the apiserver has decoded it into
 * the Go struct (null sets a pointer, slice or map to nil and leaves any other type at its zero
 * value) and encoded it again with the json tags (an `omitempty` field at its zero value is left
 * out; a struct is never left out). The schema says which Go type a field has: openapi-gen gives
 * every non-pointer struct field `default: {}` and every non-omitempty scalar field its zero value
 * as default, and lists the fields without `+optional` (non-omitempty) as required; the few
 * optional pointer, slice and map fields without omitempty are listed below. Pure.
 */
import type { SchemaNode } from './schema-node';

/**
 * Optional (not required) pointer, slice and map fields whose json tag has no omitempty, so a nil
 * one is encoded as null: k8s.io/api v0.26 types.go against the schema's required lists.
 */
const NIL_KEPT: Readonly<Record<string, readonly string[]>> = {
  'io.k8s.api.authentication.v1.TokenRequestSpec': ['expirationSeconds', 'boundObjectRef'],
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus': ['currentMetrics'],
  'io.k8s.api.batch.v1.PodFailurePolicyOnExitCodesRequirement': ['containerName'],
  'io.k8s.api.batch.v1.PodFailurePolicyRule': ['onExitCodes', 'onPodConditions'],
  'io.k8s.api.core.v1.AzureFilePersistentVolumeSource': ['secretNamespace'],
  'io.k8s.api.core.v1.ContainerImage': ['names'],
  'io.k8s.api.core.v1.ProjectedVolumeSource': ['sources'],
  'io.k8s.api.core.v1.TypedLocalObjectReference': ['apiGroup'],
  'io.k8s.api.core.v1.TypedObjectReference': ['apiGroup'],
  'io.k8s.api.discovery.v1.EndpointSlice': ['ports'],
  'io.k8s.api.flowcontrol.v1beta2.ResourcePolicyRule': ['namespaces'],
  'io.k8s.api.flowcontrol.v1beta3.ResourcePolicyRule': ['namespaces'],
  'io.k8s.api.networking.v1.IngressClassParametersReference': ['scope'],
  'io.k8s.api.rbac.v1.ClusterRole': ['rules'],
  'io.k8s.api.rbac.v1.Role': ['rules'],
  'io.k8s.api.storage.v1.CSINodeDriver': ['topologyKeys'],
};

/** Whether a nil field `name` of `parent` is encoded (as null): no omitempty. */
function keepsNil(parent: SchemaNode, name: string): boolean {
  if (parent.required?.includes(name)) return true;
  const kept = parent.definition === undefined ? undefined : NIL_KEPT[parent.definition];
  return kept !== undefined && kept.includes(name);
}

/** The field is left out. */
export const OMIT: unique symbol = Symbol('omit');

/**
 * What field `name` (of type `field`) of an object of type `parent` holds after the round trip
 * when it was null: its zero value, null (a nil pointer, slice or map without omitempty), or OMIT.
 */
export function goNullField(parent: SchemaNode, name: string, field: SchemaNode): unknown {
  const d = field.default;
  if (d === undefined) return keepsNil(parent, name) ? null : OMIT;
  if (isEmptyObject(d)) return goZeroStruct(field, 0);
  // A scalar's default is openapi-gen's zero value (no omitempty) or a `+default` (omitempty).
  const zero = scalarZero(field);
  return zero !== undefined && d === zero ? zero : OMIT;
}

/** What a null list element or map value of type `element` holds after the round trip (elements are never left out). */
export function goNullElement(element: SchemaNode | undefined): unknown {
  const d = element?.default;
  if (!element || d === undefined) return null;
  if (isEmptyObject(d)) return goZeroStruct(element, 0);
  return scalarZero(element) ?? null;
}

/** How deep value structs nest at most (Go value structs cannot nest without end; a guard against odd schemas). */
const MAX_DEPTH = 32;

/** The encoding of a zero non-pointer struct of type `node` (Time: null; IntOrString: 0; Quantity: "0"). */
function goZeroStruct(node: SchemaNode, depth: number): unknown {
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth >= MAX_DEPTH) return out;
      for (const [name, field] of node.properties ?? []) {
        const d = field.default;
        const value = d !== undefined && isEmptyObject(d) ? goZeroStruct(field, depth + 1) : goNullField(node, name, field);
        if (value !== OMIT) out[name] = value;
      }
      return out;
    }
    case 'int-or-string':
      return 0;
    case 'quantity':
      return '0';
    default:
      return null;
  }
}

function scalarZero(node: SchemaNode): unknown {
  switch (node.type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      return undefined;
  }
}

function isEmptyObject(v: unknown): boolean {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  for (const _ in v) return false;
  return true;
}
