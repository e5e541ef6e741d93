/**
 * Table cells serve computes itself: the Age column (the apiserver's printers compute it per
 * request from creationTimestamp, so a recorded "76s" must not be replayed as is), and cells of
 * well-known columns for objects the recording has no Table row for.
 */
import { printerCell } from '../k8s/printer-cell';
import type { TableColumnDefinition } from './table-column';

type Obj = Record<string, any>;

/** k8s.io/apimachinery/pkg/util/duration.HumanDuration, on milliseconds. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / 60_000);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / 3_600_000);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    return dy === 0 ? `${Math.trunc(hours / 24 / 365)}y` : `${Math.trunc(hours / 24 / 365)}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** printers' translateTimestampSince: `<unknown>` without a timestamp. */
export function ageOf(obj: Obj, now: number): string {
  const ts = obj.metadata?.creationTimestamp;
  const at = typeof ts === 'string' ? Date.parse(ts) : NaN;
  return Number.isNaN(at) ? '<unknown>' : humanDuration(now - at);
}

/** The printers' Age column: a string computed from creationTimestamp (CRD `date` columns are left alone). */
export function isAgeColumn(col: TableColumnDefinition): boolean {
  return col.name === 'Age' && col.type === 'string' && col.description.startsWith('CreationTimestamp');
}

/** Recorded cells with the Age cells recomputed at `now`. */
export function refreshCells(cells: readonly unknown[], columns: readonly TableColumnDefinition[], obj: Obj, now: number): unknown[] {
  const out = cells.slice();
  columns.forEach((col, i) => {
    if (i < out.length && isAgeColumn(col)) out[i] = ageOf(obj, now);
  });
  return out;
}

/**
 * Cells for an object the recording has no row for, under recorded columns: the name column,
 * Age, the columns with a JSONPath (a custom resource's printer columns), and the few columns
 * whose printer is a plain count or field (ConfigMap/Secret Data, Secret Type, Namespace
 * Status). Anything else is null, which kubectl prints as `<none>`.
 */
export function deriveCells(columns: readonly TableColumnDefinition[], obj: Obj, kind: string | undefined, now: number, jsonPaths: readonly (string | undefined)[] = []): unknown[] {
  return columns.map((col, i) => {
    if (col.format === 'name') return obj.metadata?.name ?? '';
    const jsonPath = jsonPaths[i];
    if (jsonPath !== undefined) return printerCell({ type: col.type, jsonPath }, obj, now, humanDuration);
    if (isAgeColumn(col)) return ageOf(obj, now);
    if (col.name === 'Data' && kind === 'ConfigMap') return keyCount(obj.data) + keyCount(obj.binaryData);
    if (col.name === 'Data' && kind === 'Secret') return keyCount(obj.data);
    if (col.name === 'Type' && kind === 'Secret') return obj.type ?? '';
    if (col.name === 'Status' && kind === 'Namespace') return obj.status?.phase ?? '';
    return null;
  });
}

function keyCount(value: unknown): number {
  return value && typeof value === 'object' ? Object.keys(value).length : 0;
}
