/**
 * CreateOptions / UpdateOptions / PatchOptions / DeleteOptions from a write's query (and a
 * DeleteOptions body), validated as kube-apiserver validates them: 422 on the options kind with
 * one cause per problem (reference/apiserver-facts-writes.md). Pure.
 */
import { goJsonSyntaxError } from './go-json';
import { forbiddenField, goStringSlice, notSupportedField, requiredField, tooLongField, invalidField, type FieldError } from './field-errors';
import { parseBool } from './request-info';
import { storageError, invalidOptions } from './write-status';

export const WRITE_OPTION_KINDS = { create: 'CreateOptions', update: 'UpdateOptions', patch: 'PatchOptions', delete: 'DeleteOptions' } as const;
export type WriteVerb = keyof typeof WRITE_OPTION_KINDS;

export const FIELD_VALIDATION_VALUES = ['', 'Ignore', 'Strict', 'Warn'] as const;
export const PROPAGATION_POLICIES = ['Foreground', 'Background', 'Orphan'] as const;
export type PropagationPolicy = (typeof PROPAGATION_POLICIES)[number];

const MAX_FIELD_MANAGER_LENGTH = 128;

export interface WriteOptions {
  dryRun: boolean;
  /** `?fieldManager=`; undefined when absent (the manager then comes from the User-Agent). */
  fieldManager?: string;
  fieldValidation: string;
  force: boolean;
}

export interface DeleteOptions {
  dryRun: boolean;
  gracePeriodSeconds?: number;
  propagationPolicy?: PropagationPolicy;
  orphanDependents?: boolean;
  preconditions: { uid?: string; resourceVersion?: string };
}

/** Parses and validates a create/update/patch's options (`isApply`: an apply patch, where `force` is allowed). */
export function parseWriteOptions(verb: Exclude<WriteVerb, 'delete'>, query: URLSearchParams, isApply = false): WriteOptions {
  const errs: FieldError[] = [];
  const dryRun = dryRunOf(query.getAll('dryRun'), errs);
  const fieldManager = query.get('fieldManager') ?? undefined;
  if (fieldManager !== undefined && Buffer.byteLength(fieldManager) > MAX_FIELD_MANAGER_LENGTH) errs.push(tooLongField('fieldManager', MAX_FIELD_MANAGER_LENGTH));
  const fieldValidation = query.get('fieldValidation') ?? '';
  if (!(FIELD_VALIDATION_VALUES as readonly string[]).includes(fieldValidation)) {
    errs.push(notSupportedField('fieldValidation', fieldValidation, FIELD_VALIDATION_VALUES));
  }
  const force = query.has('force') && parseBool(query.get('force'));
  if (verb === 'patch' && force && !isApply) errs.push(forbiddenField('force', 'may not be specified for non-apply patch'));
  if (verb === 'patch' && isApply && !fieldManager) errs.unshift(requiredField('fieldManager', 'is required for apply patch'));
  if (errs.length > 0) throw invalidOptions(WRITE_OPTION_KINDS[verb], errs);
  return { dryRun, fieldManager, fieldValidation, force };
}

/**
 * DeleteOptions: the query first, then a JSON body (kind DeleteOptions) whose fields win. A body
 * that is not JSON is the apiserver's 500 `couldn't get version/kind; json parse error: …`.
 */
export function parseDeleteOptions(query: URLSearchParams, body: Buffer): DeleteOptions {
  const errs: FieldError[] = [];
  let fromBody: Record<string, any> = {};
  if (body.length > 0) {
    const syntax = goJsonSyntaxError(body);
    if (syntax) throw storageError(`couldn't get version/kind; json parse error: ${syntax}`);
    const parsed = JSON.parse(body.toString('utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) fromBody = parsed;
  }
  const dryRunValues = Array.isArray(fromBody.dryRun) ? (fromBody.dryRun as unknown[]).map(String) : query.getAll('dryRun');
  const dryRun = dryRunOf(dryRunValues, errs);
  let grace: number | undefined;
  const graceText = fromBody.gracePeriodSeconds ?? query.get('gracePeriodSeconds') ?? undefined;
  if (graceText !== undefined && graceText !== null) {
    grace = Number(graceText);
    if (!Number.isInteger(grace)) {
      errs.push(invalidField('gracePeriodSeconds', String(graceText), 'must be an integer'));
      grace = undefined;
    }
  }
  const policy = fromBody.propagationPolicy ?? query.get('propagationPolicy') ?? undefined;
  if (policy !== undefined && policy !== null && !(PROPAGATION_POLICIES as readonly string[]).includes(policy)) {
    errs.push(notSupportedField('propagationPolicy', String(policy), [...PROPAGATION_POLICIES, 'nil']));
  }
  const orphanText = fromBody.orphanDependents ?? query.get('orphanDependents') ?? undefined;
  const orphanDependents = orphanText === undefined || orphanText === null ? undefined : orphanText === true || parseBool(String(orphanText));
  if (orphanDependents !== undefined && policy) {
    errs.push(forbiddenField('propagationPolicy', 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (errs.length > 0) throw invalidOptions('DeleteOptions', errs);
  const pre = fromBody.preconditions && typeof fromBody.preconditions === 'object' ? fromBody.preconditions : {};
  return {
    dryRun,
    gracePeriodSeconds: grace,
    propagationPolicy: policy ?? undefined,
    orphanDependents,
    preconditions: {
      uid: typeof pre.uid === 'string' && pre.uid ? pre.uid : undefined,
      resourceVersion: typeof pre.resourceVersion === 'string' && pre.resourceVersion ? pre.resourceVersion : undefined,
    },
  };
}

/** `dryRun` must be absent or exactly `All` (each value). */
function dryRunOf(values: string[], errs: FieldError[]): boolean {
  if (values.length === 0) return false;
  if (values.every((v) => v === 'All')) return true;
  errs.push(notSupportedField('dryRun', goStringSlice(values), ['All']));
  return false;
}

/**
 * The manager an Update entry is recorded under: `fieldManager`, else the User-Agent up to its
 * first `/` (at most 128 characters), else `unknown`.
 */
export function managerName(fieldManager: string | undefined, userAgent: string | undefined): string {
  if (fieldManager) return fieldManager;
  if (!userAgent) return 'unknown';
  const slash = userAgent.indexOf('/');
  const name = slash >= 0 ? userAgent.slice(0, slash) : userAgent;
  return name.length > MAX_FIELD_MANAGER_LENGTH ? name.slice(0, MAX_FIELD_MANAGER_LENGTH) : name;
}
