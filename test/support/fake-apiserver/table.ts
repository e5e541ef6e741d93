/** meta.k8s.io Table answers, with the columns and cells the apiserver's printers produce. */
import type { KObject } from './objects';
import type { ResourceDef } from './resources';

interface Column {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
  cell: (o: KObject, now: Date) => unknown;
}

const NAME_DESC =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: http://kubernetes.io/docs/user-guide/identifiers#names';
const CREATED_DESC =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';
const CM_DATA_DESC =
  "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.";
const SECRET_DATA_DESC =
  "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4";

/** Go's duration.HumanDuration, which the printers use for Age. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 365 * 8) return days % 365 === 0 ? `${Math.floor(days / 365)}y` : `${Math.floor(days / 365)}y${days % 365}d`;
  return `${Math.floor(days / 365)}y`;
}

const age = (o: KObject, now: Date) =>
  o.metadata?.creationTimestamp ? humanDuration(now.getTime() - Date.parse(o.metadata.creationTimestamp)) : '<unknown>';
const col = (name: string, type: string, description: string, cell: Column['cell'], priority = 0, format = ''): Column => ({
  name, type, format, description, priority, cell,
});
const nameCol = col('Name', 'string', NAME_DESC, (o) => o.metadata?.name ?? '', 0, 'name');
const ageCol = col('Age', 'string', CREATED_DESC, age);
const count = (m: unknown) => (m && typeof m === 'object' ? Object.keys(m).length : 0);
const none = (v: unknown) => (v === undefined || v === null || v === '' ? '<none>' : v);

function podStatus(o: KObject): string {
  if (o.metadata?.deletionTimestamp) return 'Terminating';
  return o.status?.reason ?? o.status?.phase ?? 'Pending';
}

const COLUMNS: Record<string, Column[]> = {
  ConfigMap: [nameCol, col('Data', 'string', CM_DATA_DESC, (o) => count(o.data) + count(o.binaryData)), ageCol],
  Secret: [
    nameCol,
    col('Type', 'string', 'Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types', (o) => o.type ?? ''),
    col('Data', 'string', SECRET_DATA_DESC, (o) => count(o.data)),
    ageCol,
  ],
  Namespace: [nameCol, col('Status', 'string', 'The status of the namespace', (o) => o.status?.phase ?? ''), ageCol],
  Pod: [
    nameCol,
    col('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.', (o) => {
      const statuses: KObject[] = o.status?.containerStatuses ?? [];
      const total = o.spec?.containers?.length ?? statuses.length;
      return `${statuses.filter((s) => s.ready).length}/${total}`;
    }),
    col('Status', 'string', 'The aggregate status of the containers in this pod.', podStatus),
    col('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.', (o) =>
      String((o.status?.containerStatuses ?? []).reduce((n: number, s: KObject) => n + (s.restartCount ?? 0), 0))),
    ageCol,
    col('IP', 'string', 'IP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', (o) => none(o.status?.podIP), 1),
    col('Node', 'string', 'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName.', (o) => none(o.spec?.nodeName), 1),
    col('Nominated Node', 'string', 'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot schedule right away as preemption victims receive their graceful termination periods.', (o) => none(o.status?.nominatedNodeName), 1),
    col('Readiness Gates', 'string', 'If specified, all readiness gates will be evaluated for pod readiness.', (o) => none(o.spec?.readinessGates?.length ? `0/${o.spec.readinessGates.length}` : undefined), 1),
  ],
};

/** CRDs without additionalPrinterColumns print Name and Age (a date column rendered as an age). */
const CUSTOM_COLUMNS: Column[] = [
  nameCol,
  col('Age', 'date', 'Custom resource definition column (in JSONPath format): .metadata.creationTimestamp', age),
];

/** The default table convertor for types without printers: Name, Created At. */
const DEFAULT_COLUMNS: Column[] = [nameCol, col('Created At', 'date', CREATED_DESC, (o) => o.metadata?.creationTimestamp ?? null)];

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export function tableFor(
  def: ResourceDef,
  objects: KObject[],
  listMeta: KObject,
  version: 'v1' | 'v1beta1',
  includeObject: IncludeObject,
  now: Date,
  noHeaders = false,
): KObject {
  const columns = def.custom ? CUSTOM_COLUMNS : COLUMNS[def.kind] ?? DEFAULT_COLUMNS;
  const apiVersion = `meta.k8s.io/${version}`;
  const table: KObject = { kind: 'Table', apiVersion, metadata: listMeta };
  if (!noHeaders) table.columnDefinitions = columns.map(({ cell: _c, ...c }) => c);
  table.rows = objects.map((o) => ({
    cells: columns.map((c) => c.cell(o, now)),
    object:
      includeObject === 'None'
        ? null
        : includeObject === 'Object'
          ? { kind: def.kind, apiVersion: o.apiVersion, ...o }
          : { kind: 'PartialObjectMetadata', apiVersion, metadata: o.metadata },
  }));
  return table;
}

export function parseIncludeObject(value: string | null): IncludeObject {
  return value === 'None' || value === 'Object' ? value : 'Metadata';
}
