/**
 * fieldValidation for the built-in kinds and custom resources (reference/apiserver-facts-writes.md "fieldValidation"):
 * fields the schema does not declare are pruned from what is stored whatever the directive, and a
 * repeated key keeps its last value; `Warn` (and absent) answers with one
 * `Warning: 299 - "unknown field \"…\""` / `"duplicate field \"…\""` header each, `Strict`
 * refuses the write (400 for a decoded body, 422 for a patch), `Ignore` says nothing. The same
 * walk gives a built-in kind's `null` members what the apiserver's Go round trip leaves of them
 * (src/schema/go-nulls.ts), on create and update bodies and on every patch result.
 */
import type { ServerResponse } from 'node:http';
import { aggregateText, invalidField, toCause } from '../../k8s/field-errors';
import { StatusError, failure } from '../../k8s/status';
import { scanJsonFields } from '../../k8s/json-field-scan';
import { badRequestMessage } from '../../k8s/write-status';
import { yamlDuplicateKeys, yamlStrictError } from '../../k8s/yaml-duplicate-keys';
import { pruneUnknownFields } from '../../schema';
import { builtinSchema } from '../builtin-schema';
import { checkDecodedFieldTypes } from './field-types';
import { decodedWithoutRepeatedKeys } from './request-body';
import type { ResourceRequest } from '../resource-request';

type Obj = Record<string, any>;

function unknownFields(ctx: ResourceRequest, obj: Obj): string[] {
  if (ctx.resource.custom) return pruneUnknownFields(obj, ctx.resource.custom.schema);
  if (ctx.resource.info.unstructured) return [];
  const { apiVersion, kind } = ctx.resource.codec.type;
  const root = builtinSchema().typeOf(apiVersion, kind);
  return root ? pruneUnknownFields(obj, root, true) : [];
}

/**
 * An apply result's nulls (structured-merge-diff keeps the nulls of an apply configuration in the
 * merged object; the apiserver's decoding into the Go struct then settles them).
 */
export function settleAppliedNulls(ctx: ResourceRequest, obj: Obj): void {
  if (!ctx.resource.custom) unknownFields(ctx, obj);
}

const unknownText = (f: string) => `unknown field ${JSON.stringify(f)}`;
const strictText = (problems: string[]) => `strict decoding error: ${problems.join(', ')}`;

/**
 * A create or update body (`body` as sent, of media type `type`): the 400 under Strict, warnings
 * under Warn. Problems in the order the apiserver's strict decoder meets them: for JSON, unknown
 * and repeated fields together in body order; for YAML, go-yaml's repeated keys first.
 */
export function validateDecodedFields(ctx: ResourceRequest, obj: Obj, directive: string, body?: Buffer, type?: string): void {
  checkDecodedFieldTypes(ctx, obj);
  const fields = unknownFields(ctx, obj);
  if (directive === 'Ignore') return;
  let problems: string[] = fields.map(unknownText);
  let warnings = problems;
  if (body && type === 'application/yaml') {
    const lines = yamlDuplicateKeys(body);
    if (lines.length > 0) {
      problems = [yamlStrictError(lines), ...problems];
      warnings = [...lines, ...warnings];
    }
  } else if (body && type === 'application/json') {
    problems = warnings = decodedWithoutRepeatedKeys(obj) ? fields.map(unknownText) : jsonProblems(body, fields);
  }
  if (problems.length === 0) return;
  const { kind } = ctx.resource.codec.type;
  if (directive === 'Strict') throw badRequestMessage(`${kind} in version "${ctx.resource.info.version}" cannot be handled as a ${kind}: ${strictText(problems)}`);
  addWarnings(ctx.res, warnings);
}

/** Unknown fields (at their first appearance) and repeated keys (at the repetition), in body order. */
function jsonProblems(body: Buffer, unknown: string[]): string[] {
  const scan = scanJsonFields(body.toString('utf8'));
  if (scan.duplicates.length === 0) return unknown.map(unknownText);
  const found = [
    ...unknown.map((f) => ({ at: scan.firstSeen.get(f) ?? Infinity, text: unknownText(f) })),
    ...scan.duplicates.map((d) => ({ at: d.at, text: `duplicate field ${JSON.stringify(d.path)}` })),
  ];
  return found.sort((a, b) => a.at - b.at).map((f) => f.text);
}

/** An apply body's repeated keys: go-yaml's 400 under Strict, one warning per key under Warn. `json`: the body's JSON.parse value when it has one. */
export function validateApplyBody(ctx: ResourceRequest, body: Buffer, directive: string, json?: unknown): void {
  if (directive === 'Ignore') return;
  const lines = yamlDuplicateKeys(body, json);
  if (lines.length === 0) return;
  if (directive === 'Strict') throw badRequestMessage(`error strict decoding YAML: ${yamlStrictError(lines)}`);
  addWarnings(ctx.res, lines);
}

/** A patched object: the 422 naming the patch (as `patchValue` prints it) under Strict, warnings under Warn. */
export function validatePatchedFields(ctx: ResourceRequest, obj: Obj, directive: string, patchValue: () => string): void {
  const shown = directive === 'Strict' ? patchValue() : '';
  const fields = unknownFields(ctx, obj);
  if (fields.length === 0 || directive === 'Ignore') return;
  if (directive === 'Strict') {
    // errors.NewInvalid with an empty GroupKind and name: ` "" is invalid: …`, details with the cause only.
    const e = invalidField('patch', shown, strictText(fields.map(unknownText)));
    throw new StatusError(failure(422, 'Invalid', ` "" is invalid: ${aggregateText([e])}`, { causes: [toCause(e)] }));
  }
  addWarnings(ctx.res, fields.map(unknownText));
}

/** Adds `Warning: 299 - "…"` headers (kept on error answers too). */
export function addWarnings(res: ServerResponse, messages: string[]): void {
  const previous = res.getHeader('Warning');
  const list = previous === undefined ? [] : Array.isArray(previous) ? previous : [String(previous)];
  res.setHeader('Warning', [...list, ...messages.map((m) => `299 - ${JSON.stringify(m)}`)]);
}
