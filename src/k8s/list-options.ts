/**
 * List/watch query parameters as the apiserver reads and validates them (metainternalversion
 * ListOptions + apimachinery validation.ValidateListOptions), answering every invalid
 * combination with the 422 body a real v1.26 apiserver gives (reference/apiserver-facts.md,
 * transcripts d6–d12, d18). Watch-list (`sendInitialEvents`) follows v1.27+, the first
 * release that has it. Pure.
 */
import { parseBool } from './request-info';
import { badRequest, invalidListOptions, type StatusCause } from './status';
import { parseLabelSelector, type LabelSelector } from './label-selector';
import { parseFieldSelector, type FieldSelector } from './field-selector';

export const RV_MATCH_EXACT = 'Exact';
export const RV_MATCH_NOT_OLDER_THAN = 'NotOlderThan';

export interface ListOptions {
  watch: boolean;
  /** As sent; '' when absent. */
  resourceVersion: string;
  /** As sent; '' when absent. */
  resourceVersionMatch: string;
  /** 0 when absent (no paging). */
  limit: number;
  /** As sent; '' when absent. */
  continue: string;
  labelSelector: LabelSelector;
  fieldSelector: FieldSelector;
  /** undefined when absent. */
  timeoutSeconds?: number;
  allowWatchBookmarks: boolean;
  /** undefined when absent (the legacy watch semantics). */
  sendInitialEvents?: boolean;
}

/** Parses and validates the query of a list or watch request (`watch` from the verb). Throws StatusError. */
export function parseListOptions(query: URLSearchParams, watch: boolean): ListOptions {
  const sendInitial = query.get('sendInitialEvents');
  const options: ListOptions = {
    watch,
    resourceVersion: query.get('resourceVersion') ?? '',
    resourceVersionMatch: query.get('resourceVersionMatch') ?? '',
    limit: parseInteger(query.get('limit'), 'limit'),
    continue: query.get('continue') ?? '',
    labelSelector: parseLabelSelector(query.get('labelSelector') ?? ''),
    fieldSelector: parseFieldSelector(query.get('fieldSelector') ?? ''),
    allowWatchBookmarks: parseBool(query.get('allowWatchBookmarks')),
  };
  const timeout = query.get('timeoutSeconds');
  if (timeout !== null && timeout !== '') options.timeoutSeconds = parseInteger(timeout, 'timeoutSeconds');
  if (sendInitial !== null && sendInitial !== '') options.sendInitialEvents = parseBool(sendInitial);
  const causes = validateListOptions(options);
  if (causes.length > 0) throw invalidListOptions(causes);
  return options;
}

/** Query parameters for a single-object get: only resourceVersion matters. */
export function parseGetOptions(query: URLSearchParams): { resourceVersion: string } {
  return { resourceVersion: query.get('resourceVersion') ?? '' };
}

/** validation.ValidateListOptions, one cause per violation in the apiserver's order. */
export function validateListOptions(o: ListOptions): StatusCause[] {
  const causes: StatusCause[] = [];
  const match = o.resourceVersionMatch;
  if (o.watch && o.sendInitialEvents !== undefined) {
    // Watch-list (v1.27+ validateWatchOptions).
    if (match !== RV_MATCH_NOT_OLDER_THAN) {
      causes.push(forbidden(`sendInitialEvents requires setting resourceVersionMatch to ${RV_MATCH_NOT_OLDER_THAN}`));
    }
    if (match && match !== RV_MATCH_NOT_OLDER_THAN) causes.push(notSupported(match, [RV_MATCH_NOT_OLDER_THAN]));
    if (match && o.continue) causes.push(forbidden('resourceVersionMatch is forbidden when continue is provided'));
    return causes;
  }
  if (match) {
    // v1.26: any resourceVersionMatch on a watch is refused first (transcript d12).
    if (o.watch) causes.push(forbidden('resourceVersionMatch is forbidden for watch'));
    if (!o.resourceVersion) causes.push(forbidden('resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (o.continue) causes.push(forbidden('resourceVersionMatch is forbidden when continue is provided'));
    if (match !== RV_MATCH_EXACT && match !== RV_MATCH_NOT_OLDER_THAN) causes.push(notSupported(match, [RV_MATCH_EXACT, RV_MATCH_NOT_OLDER_THAN, '']));
    if (match === RV_MATCH_EXACT && o.resourceVersion === '0') {
      causes.push(forbidden('resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    }
  }
  if (!o.watch && o.sendInitialEvents !== undefined) {
    causes.push({ reason: 'FieldValueForbidden', message: 'Forbidden: sendInitialEvents is forbidden for list', field: 'sendInitialEvents' });
  }
  return causes;
}

function forbidden(detail: string): StatusCause {
  return { reason: 'FieldValueForbidden', message: `Forbidden: ${detail}`, field: 'resourceVersionMatch' };
}

function notSupported(value: string, supported: string[]): StatusCause {
  const list = supported.map((s) => JSON.stringify(s)).join(', ');
  return { reason: 'FieldValueNotSupported', message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${list}`, field: 'resourceVersionMatch' };
}

/** int64 query parameters: the conversion error the apiserver's parameter codec gives. */
function parseInteger(value: string | null, name: string): number {
  if (value === null || value === '') return 0;
  if (!/^[+-]?[0-9]+$/.test(value)) {
    throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
  }
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: value out of range`);
  void name;
  return n;
}
