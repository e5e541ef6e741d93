/** Objects a recording holds only as Table rows or PartialObjectMetadata, as `kubetape inspect` reports them. */
import type { Db } from '../open';

export interface PartialObjectsSummary {
  /** `configmaps`, `deployments.apps`, with the version: `configmaps/v1`. */
  resource: string;
  /** Objects (namespace/name) never seen whole, whose last state was a Table row … */
  tableRows: number;
  /** … or a PartialObjectMetadata. */
  metadata: number;
}

/**
 * Per resource, the named objects that no observation shows whole (every one of theirs is a
 * Table row or a PartialObjectMetadata), counted by the form of their last observation.
 */
export function partialObjects(db: Db): PartialObjectsSummary[] {
  return db
    .prepare(
      `SELECT CASE WHEN api_group = '' THEN resource ELSE resource || '.' || api_group END || '/' || api_version AS resource,
              sum(last_form = 2) AS tableRows, sum(last_form = 1) AS metadata
       FROM (SELECT api_group, api_version, resource, max(form = 'object') AS whole,
                    max(id * 4 + (CASE form WHEN 'metadata' THEN 1 WHEN 'table-row' THEN 2 ELSE 0 END)) % 4 AS last_form
             FROM observations
             WHERE name != '' AND (event IS NULL OR event != 'BOOKMARK')
             GROUP BY api_group, api_version, resource, namespace, name)
       WHERE whole = 0
       GROUP BY api_group, api_version, resource
       ORDER BY resource`,
    )
    .all() as PartialObjectsSummary[];
}
