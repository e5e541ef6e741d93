/**
 * fieldValidation for the built-in kinds and custom resources (reference/apiserver-facts-writes.md "fieldValidation"):
 * fields the schema does not declare are pruned from what is stored whatever the directive;
 * `Warn` (and absent) answers with one `Warning: 299 - "unknown field \"…\""` header each,
 * `Strict` refuses the write (400 for a decoded body, 422 for a patch), `Ignore` says nothing.
 */
import type { ServerResponse } from 'node:http';
import { aggregateText, invalidField, toCause } from '../../k8s/field-errors';
import { StatusError, failure } from '../../k8s/status';
import { badRequestMessage } from '../../k8s/write-status';
import { pruneUnknownFields } from '../../schema';
import { builtinSchema } from '../builtin-schema';
import type { ResourceRequest } from '../resource-request';

type Obj = Record<string, any>;

function unknownFields(ctx: ResourceRequest, obj: Obj): string[] {
  if (ctx.resource.custom) return pruneUnknownFields(obj, ctx.resource.custom.schema);
  if (ctx.resource.info.unstructured) return [];
  const { apiVersion, kind } = ctx.resource.codec.type;
  const root = builtinSchema().typeOf(apiVersion, kind);
  return root ? pruneUnknownFields(obj, root) : [];
}

const strictText = (fields: string[]) => `strict decoding error: ${fields.map((f) => `unknown field ${JSON.stringify(f)}`).join(', ')}`;

/** A create or update body: the 400 under Strict, warnings under Warn. */
export function validateDecodedFields(ctx: ResourceRequest, obj: Obj, directive: string): void {
  const fields = unknownFields(ctx, obj);
  if (fields.length === 0 || directive === 'Ignore') return;
  const { kind } = ctx.resource.codec.type;
  if (directive === 'Strict') throw badRequestMessage(`${kind} in version "${ctx.resource.info.version}" cannot be handled as a ${kind}: ${strictText(fields)}`);
  addWarnings(ctx.res, fields.map((f) => `unknown field ${JSON.stringify(f)}`));
}

/** A patched object: the 422 naming the patch (as `patchValue` prints it) under Strict, warnings under Warn. */
export function validatePatchedFields(ctx: ResourceRequest, obj: Obj, directive: string, patchValue: () => string): void {
  const shown = directive === 'Strict' ? patchValue() : '';
  const fields = unknownFields(ctx, obj);
  if (fields.length === 0 || directive === 'Ignore') return;
  if (directive === 'Strict') {
    // errors.NewInvalid with an empty GroupKind and name: ` "" is invalid: …`, details with the cause only.
    const e = invalidField('patch', shown, strictText(fields));
    throw new StatusError(failure(422, 'Invalid', ` "" is invalid: ${aggregateText([e])}`, { causes: [toCause(e)] }));
  }
  addWarnings(ctx.res, fields.map((f) => `unknown field ${JSON.stringify(f)}`));
}

/** Adds `Warning: 299 - "…"` headers (kept on error answers too). */
export function addWarnings(res: ServerResponse, messages: string[]): void {
  const previous = res.getHeader('Warning');
  const list = previous === undefined ? [] : Array.isArray(previous) ? previous : [String(previous)];
  res.setHeader('Warning', [...list, ...messages.map((m) => `299 - ${JSON.stringify(m)}`)]);
}
