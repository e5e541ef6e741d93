/**
 * The Table columns of a custom resource version, as apiextensions-apiserver's tableconvertor
 * declares them: Name, then each `additionalPrinterColumns` entry (description defaulted to
 * `Custom resource definition column (in JSONPath format): <path>`), or, when the version has
 * none, one `Age` date column on `.metadata.creationTimestamp`. Each carries its `jsonPath`, from
 * which the table's cells are computed (src/k8s/printer-cell.ts).
 */
import { DEFAULT_TABLE_COLUMNS, type TableColumnDefinition } from '../table';
import type { PrinterColumn } from './custom-resource-type';

export type PrinterColumnDefinition = TableColumnDefinition & { jsonPath?: string };

export function printerColumnDefinitions(columns: readonly PrinterColumn[]): PrinterColumnDefinition[] {
  const [name, created] = DEFAULT_TABLE_COLUMNS;
  const given: readonly PrinterColumn[] = columns.length > 0 ? columns : [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: created!.description }];
  return [
    { ...name! },
    ...given.map((c) => ({
      name: String(c.name),
      type: String(c.type),
      format: c.format ?? '',
      description: c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
      priority: c.priority ?? 0,
      jsonPath: String(c.jsonPath),
    })),
  ];
}
