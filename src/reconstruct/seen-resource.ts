/** What the recording tells about one resource (group/version/resource): what discovery serves and how objects are encoded. */
export interface SeenResource {
  /** `group/version/resource` (group '' for the core group). */
  readonly id: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  /** `ConfigMap`; undefined when only Tables or PartialObjectMetadata were recorded. */
  kind: string | undefined;
  /** `ConfigMapList`, when a typed list was recorded. */
  listKind: string | undefined;
  /** undefined when the recording does not tell (no object, no namespaced request). */
  namespaced: boolean | undefined;
  /** Recorded Table columnDefinitions, when the recording has a Table of this resource. */
  columns: unknown[] | undefined;
  /** Objects were recorded as JSON / as protobuf. */
  json: boolean;
  protobuf: boolean;
  /** JSON objects carry `{"apiVersion":…,"kind":…` first (unstructured: custom resources). */
  unstructured: boolean;
  /** Objects whose every recorded state is a Table row / a PartialObjectMetadata (no full object): their other fields are unknown. */
  partial: { tableRows: number; metadata: number };
  /** Earliest revision with a complete state: below it the resource behaves as compacted. */
  floor: number;
}

export function resourceId(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}

export function newSeenResource(group: string, version: string, resource: string): SeenResource {
  return {
    id: resourceId(group, version, resource),
    group,
    version,
    resource,
    kind: undefined,
    listKind: undefined,
    namespaced: undefined,
    columns: undefined,
    json: false,
    protobuf: false,
    unstructured: false,
    partial: { tableRows: 0, metadata: 0 },
    floor: 0,
  };
}

/** `apps/v1` or `v1`. */
export function groupVersion(r: { group: string; version: string }): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}
