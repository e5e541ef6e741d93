/** One column of a meta.k8s.io Table (`columnDefinitions[]`). */
export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}
