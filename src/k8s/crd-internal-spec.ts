/**
 * A v1 CustomResourceDefinition spec as the apiserver's internal type holds it for validation
 * (apiextensions/v1 Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_…): `version` is the
 * first version's name, and a per-version schema, subresources or printer-column list that every
 * version carries identically moves to the top-level `validation`, `subresources` or
 * `additionalPrinterColumns`. Also Go's `%#v` of the internal version structs, which some errors
 * print. Pure.
 */
import { isPlainObject, sameJsonContent } from '../wire/json-object';

type Obj = Record<string, any>;

export interface InternalVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated: boolean;
  deprecationWarning?: unknown;
  schema?: Obj;
  subresources?: Obj;
  additionalPrinterColumns?: Obj[];
}

export interface InternalSpec {
  group: string;
  scope: string;
  names: Obj;
  version: string;
  versions: InternalVersion[];
  validation?: Obj;
  subresources?: Obj;
  additionalPrinterColumns?: Obj[];
  conversion?: Obj;
  preserveUnknownFields: boolean;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const objOrUndefined = (v: unknown): Obj | undefined => (isPlainObject(v) ? v : undefined);
const columnsOrUndefined = (v: unknown): Obj[] | undefined => (Array.isArray(v) && v.length > 0 ? v.map((c) => (isPlainObject(c) ? c : {})) : undefined);

export function toInternalSpec(spec: Obj): InternalSpec {
  const versions: InternalVersion[] = (Array.isArray(spec.versions) ? spec.versions : []).map((raw: unknown) => {
    const v: Obj = isPlainObject(raw) ? raw : {};
    return {
      name: str(v.name),
      served: v.served === true,
      storage: v.storage === true,
      deprecated: v.deprecated === true,
      deprecationWarning: v.deprecationWarning ?? undefined,
      schema: objOrUndefined(v.schema),
      subresources: objOrUndefined(v.subresources),
      additionalPrinterColumns: columnsOrUndefined(v.additionalPrinterColumns),
    };
  });
  const out: InternalSpec = {
    group: str(spec.group),
    scope: str(spec.scope),
    names: isPlainObject(spec.names) ? spec.names : {},
    version: versions[0]?.name ?? '',
    versions,
    conversion: objOrUndefined(spec.conversion),
    preserveUnknownFields: spec.preserveUnknownFields === true,
  };
  if (versions.length === 0) return out;
  const identical = (pick: (v: InternalVersion) => unknown) => versions.every((v) => sameJsonContent(pick(v) ?? null, pick(versions[0]!) ?? null));
  if (identical((v) => v.subresources)) {
    out.subresources = versions[0]!.subresources;
    for (const v of versions) v.subresources = undefined;
  }
  if (identical((v) => v.schema)) {
    out.validation = versions[0]!.schema;
    for (const v of versions) v.schema = undefined;
  }
  if (identical((v) => v.additionalPrinterColumns)) {
    out.additionalPrinterColumns = versions[0]!.additionalPrinterColumns;
    for (const v of versions) v.additionalPrinterColumns = undefined;
  }
  return out;
}

/** What `%#v` prints for a non-nil pointer (an address, different on every run of a real apiserver). */
const ADDRESS = '0xc000a1e000';
const ptr = (type: string, set: boolean) => `(${type})(${set ? ADDRESS : 'nil'})`;
const q = (v: unknown) => JSON.stringify(str(v));

function goColumnSyntax(c: Obj): string {
  const priority = typeof c.priority === 'number' ? c.priority : 0;
  return `apiextensions.CustomResourceColumnDefinition{Name:${q(c.name)}, Type:${q(c.type)}, Format:${q(c.format)}, Description:${q(c.description)}, Priority:${priority}, JSONPath:${q(c.jsonPath)}}`;
}

/** `%#v` of one internal CustomResourceDefinitionVersion. */
export function goCrdVersionSyntax(v: InternalVersion): string {
  const columns = v.additionalPrinterColumns
    ? `[]apiextensions.CustomResourceColumnDefinition{${v.additionalPrinterColumns.map(goColumnSyntax).join(', ')}}`
    : '[]apiextensions.CustomResourceColumnDefinition(nil)';
  return `apiextensions.CustomResourceDefinitionVersion{Name:${JSON.stringify(v.name)}, Served:${v.served}, Storage:${v.storage}, Deprecated:${v.deprecated}, `
    + `DeprecationWarning:${ptr('*string', typeof v.deprecationWarning === 'string')}, Schema:${ptr('*apiextensions.CustomResourceValidation', v.schema !== undefined)}, `
    + `Subresources:${ptr('*apiextensions.CustomResourceSubresources', v.subresources !== undefined)}, AdditionalPrinterColumns:${columns}}`;
}

/** `%#v` of the internal versions list. */
export function goCrdVersionsSyntax(versions: readonly InternalVersion[]): string {
  return `[]apiextensions.CustomResourceDefinitionVersion{${versions.map(goCrdVersionSyntax).join(', ')}}`;
}

/** `%#v` of a []string that may be nil. */
export function goStringsOrNil(values: readonly string[] | null): string {
  return values ? `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}` : '[]string(nil)';
}
