/**
 * `as=Table` bodies (meta.k8s.io/v1 and v1beta1), shaped as kube-apiserver's asTable writes them
 * (transcripts f1, f2, f5): kind, apiVersion, metadata (ListMeta), columnDefinitions, rows
 * (cells, conditions when any, object).
 *
 * - With recorded column definitions, a row's cells are the recorded ones (Age recomputed at
 *   `now`, as the printers compute it per request); an object without a recorded row gets the
 *   cells serve can derive (table-cells.ts).
 * - Without recorded columns, a built-in kind's printer columns and cells (builtin-table-rows.ts:
 *   namespaces, pods, deployments …); for other kinds the default table of
 *   `pkg/registry/rest/table.go`: Name (string, format name) and Created At (date, RFC 3339 UTC).
 * - `includeObject`: Metadata (default) → PartialObjectMetadata in the Table's version; Object →
 *   the full object with kind/apiVersion; None → `"object":null` (a nil RawExtension encodes as null).
 * - `noHeaders` (watch events after the first) → `"columnDefinitions":null`.
 */
import { badRequest } from '../k8s/status';
import type { MetaVersion } from './negotiate';
import { deriveCells, refreshCells } from './table-cells';
import type { TableColumnDefinition } from './table-column';
import { DEFAULT_TABLE_COLUMNS } from './table-default-columns';
import { builtinTable } from './builtin-table-rows';
import { listMeta, toPartialObjectMetadata, type ListMetaInput } from './table-metadata';

export type { TableColumnDefinition } from './table-column';
export { DEFAULT_TABLE_COLUMNS } from './table-default-columns';
export { toPartialObjectMetadata, renderPartialObjectMetadataList, type ListMetaInput } from './table-metadata';

type Obj = Record<string, any>;

export const INCLUDE_OBJECT = ['None', 'Metadata', 'Object'] as const;
export type IncludeObject = (typeof INCLUDE_OBJECT)[number];

/** A row as recorded from a real Table (the `table-row` observation's `{cells, conditions}`). */
export interface RecordedRow {
  cells: unknown[];
  conditions?: unknown[];
}

export interface RenderTableOptions {
  /** Objects (`{metadata, …}`; a PartialObjectMetadata when only a Table row was recorded). */
  items: readonly Obj[];
  /**
   * Recorded columnDefinitions for this resource (a custom resource's carry the `jsonPath` their
   * cells are computed from); absent → the default Name / Created At table.
   */
  columns?: readonly (Partial<TableColumnDefinition> & { jsonPath?: string })[] | null;
  /** Recorded rows keyed by tableRowKey(namespace, name). */
  recordedRows?: ReadonlyMap<string, RecordedRow>;
  includeObject: IncludeObject;
  version: MetaVersion;
  listMeta: ListMetaInput;
  /** Omit the column definitions (every watch event after the first). */
  noHeaders?: boolean;
  /** The resource's apiVersion and kind, for includeObject=Object on list items that lack them. */
  typeMeta?: { apiVersion: string; kind: string };
  /** ms since the epoch for Age cells (default Date.now()). */
  now?: number;
}

export function tableRowKey(namespace: string | undefined, name: string | undefined): string {
  return `${namespace ?? ''}/${name ?? ''}`;
}

/**
 * `includeObject` from the query of an `as=Table` request: absent → Metadata; an unknown value
 * → 400 as ValidateTableOptions answers.
 */
export function parseIncludeObject(value: string | null | undefined): IncludeObject {
  if (value === null || value === undefined || value === '') return 'Metadata';
  if ((INCLUDE_OBJECT as readonly string[]).includes(value)) return value as IncludeObject;
  throw badRequest(
    `Unable to convert to Table as requested: includeObject: Unsupported value: ${goQuote(value)}: supported values: "Metadata", "None", "Object"`,
  );
}

export function renderTable(opts: RenderTableOptions): Obj {
  const now = opts.now ?? Date.now();
  const recorded = opts.columns && opts.columns.length > 0 ? opts.columns.map(columnDefinition) : undefined;
  const printer = recorded ? undefined : builtinTable(opts.typeMeta);
  const columns = recorded ?? printer?.columns ?? DEFAULT_TABLE_COLUMNS;
  const kind = opts.typeMeta?.kind ?? opts.items.find((i) => i.kind && i.kind !== 'PartialObjectMetadata')?.kind;
  const rows = opts.items.map((item) => {
    let cells: unknown[];
    let conditions: unknown[] | undefined;
    if (recorded) {
      const row = opts.recordedRows?.get(tableRowKey(item.metadata?.namespace, item.metadata?.name));
      cells = row ? refreshCells(row.cells, recorded, item, now) : deriveCells(recorded, item, kind, now, opts.columns!.map((c) => c.jsonPath));
      conditions = row?.conditions;
    } else if (printer) {
      // An object known only by its metadata prints with its spec and status fields unset.
      ({ cells, conditions } = printer.row(item, now));
    } else {
      cells = [item.metadata?.name ?? '', createdAt(item)];
    }
    const out: Obj = { cells };
    if (conditions && conditions.length > 0) out.conditions = conditions;
    out.object = rowObject(item, opts);
    return out;
  });
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${opts.version}`,
    metadata: listMeta(opts.listMeta),
    columnDefinitions: opts.noHeaders ? null : columns,
    // printers build rows with make(…, 0, n): `[]`; the default convertor appends to nil: `null`.
    rows: rows.length === 0 && !recorded && !printer ? null : rows,
  };
}

function rowObject(item: Obj, opts: RenderTableOptions): Obj | null {
  switch (opts.includeObject) {
    case 'None':
      return null;
    case 'Object':
      if (item.kind === 'PartialObjectMetadata') return item;
      return withTypeMeta(item, opts.typeMeta);
    default:
      return toPartialObjectMetadata(item, opts.version);
  }
}

/** The object as ConvertToVersion leaves it: kind and apiVersion first. */
function withTypeMeta(item: Obj, typeMeta: RenderTableOptions['typeMeta']): Obj {
  const { kind, apiVersion, ...rest } = item;
  return { kind: kind ?? typeMeta?.kind, apiVersion: apiVersion ?? typeMeta?.apiVersion, ...rest };
}

function columnDefinition(col: Partial<TableColumnDefinition>): TableColumnDefinition {
  return { name: col.name ?? '', type: col.type ?? '', format: col.format ?? '', description: col.description ?? '', priority: col.priority ?? 0 };
}

/** `m.GetCreationTimestamp().Time.UTC().Format(time.RFC3339)`; Go's zero time when unset. */
function createdAt(item: Obj): string {
  const ts = item.metadata?.creationTimestamp;
  if (typeof ts !== 'string') return '0001-01-01T00:00:00Z';
  const at = Date.parse(ts);
  return Number.isNaN(at) ? ts : new Date(Math.floor(at / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Go's %q for the common case (printable ASCII). */
function goQuote(s: string): string {
  return JSON.stringify(s);
}
