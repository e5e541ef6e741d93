/**
 * A CustomResourceDefinition's conversion webhook (`spec.conversion.strategy: Webhook`), called as
 * the apiextensions-apiserver calls it (pkg/apiserver/conversion/webhook_converter.go): one
 * ConversionReview (`apiextensions.k8s.io/v1`, or `v1beta1`, the first of
 * `conversionReviewVersions` that is one of them) per conversion, the answer checked (kind,
 * uid, `result.status: Success`, one object per object sent, each of the desired apiVersion and
 * the same kind, name, namespace and uid), and of each converted object's metadata only labels
 * and annotations kept (string values; changed ones validated) — the rest is the original's.
 * Failures are the apiserver's texts (`conversion webhook for G/V, Kind=K failed: …`), thrown as
 * a 500 with no reason, as it answers them.
 */
import { randomUid, type Random } from '../../k8s/names';
import { internalError } from '../../k8s/status';
import { aggregateText } from '../../k8s/field-errors';
import { FIND_KIND_TYPE } from '../../k8s/admission-review';
import { goJsonKind } from '../../k8s/go-json';
import { validateAnnotations, validateLabels } from '../../k8s/object-meta-validation';
import { isPlainObject, withSortedKeys } from '../../wire/json-object';
import { goJson } from '../../wire/json-spans';
import { callWebhook, webhookTarget, WebhookCallError, type ServiceLookup } from './webhook-client';

type Obj = Record<string, any>;

/** What a CRD says of its conversion webhook. */
export interface ConversionWebhook {
  clientConfig: Obj;
  reviewVersions: string[];
}

/** The CRD's conversion webhook, when its strategy is Webhook. */
export function conversionWebhookOf(crd: Obj): ConversionWebhook | undefined {
  const conversion = crd.spec?.conversion;
  if (conversion?.strategy !== 'Webhook') return undefined;
  const webhook = conversion.webhook ?? {};
  return { clientConfig: webhook.clientConfig ?? {}, reviewVersions: Array.isArray(webhook.conversionReviewVersions) ? webhook.conversionReviewVersions : [] };
}

export interface ConversionDeps {
  services: ServiceLookup;
  random: Random;
}

/** The apiserver's webhook timeout for conversions. */
const TIMEOUT_SECONDS = 30;

/**
 * `objects` (all of apiVersion `from`, kind `kind`) converted to `desiredApiVersion`, in order,
 * each with the original's metadata but for the labels and annotations the webhook returned.
 * The objects are sent as given (the caller leaves out what the apiserver does not send).
 */
export async function convertObjects(webhook: ConversionWebhook, deps: ConversionDeps, kind: string, from: string, desiredApiVersion: string, objects: Obj[]): Promise<Obj[]> {
  const gvk = `${from.includes('/') ? from : `/${from}`}, Kind=${kind}`;
  const failed = (reason: string) => internalError(`conversion webhook for ${gvk} failed: ${reason}`);
  const version = webhook.reviewVersions.find((v) => v === 'v1' || v === 'v1beta1');
  if (!version) throw internalError('no supported conversion review versions');
  const uid = randomUid(deps.random);
  // The apiserver sends the review with an empty response (a non-nil pointer: encoded, not omitted).
  const review = {
    kind: 'ConversionReview', apiVersion: `apiextensions.k8s.io/${version}`,
    request: { uid, desiredAPIVersion: desiredApiVersion, objects: objects.map(withSortedKeys) },
    response: { uid: '', convertedObjects: null, result: { metadata: {} } },
  };
  let answer: unknown;
  try {
    const target = webhookTarget(webhook.clientConfig, TIMEOUT_SECONDS, deps.services);
    answer = await callWebhook(target, `${goJson(review)}\n`, webhook.clientConfig?.caBundle, TIMEOUT_SECONDS * 1000, (body) => reviewDecodeError(body, version));
  } catch (err) {
    if (err instanceof WebhookCallError) throw failed(err.reason);
    throw err;
  }
  const converted = convertedFromAnswer(answer, version, uid);
  if (typeof converted === 'string') throw failed(converted);
  if (converted.length !== objects.length) throw internalError(`conversion webhook for ${gvk} returned ${converted.length} objects, expected ${objects.length}`);
  return converted.map((out, i) => checkedObject(gvk, desiredApiVersion, objects[i]!, out));
}

/**
 * One converted object checked as webhookConverter.Convert checks a single object (the apiserver
 * converts each stored object on its own, so its single-object texts apply): its groupVersion and
 * kind, then name, namespace and uid unchanged, then the metadata restored.
 */
function checkedObject(gvk: string, desiredApiVersion: string, original: Obj, out: unknown): Obj {
  const prefix = `conversion webhook for ${gvk}`;
  // getRawExtensionObject: a value that is no object with a kind does not decode.
  if (out === null || out === undefined) throw internalError('unexpected end of JSON input');
  if (!isPlainObject(out)) throw internalError(`json: cannot unmarshal ${jsonType(out)} into Go value of type map[string]interface {}`);
  if (typeof out.kind !== 'string' || out.kind === '') throw internalError(`Object 'Kind' is missing in '${goJson(out)}'`);
  const received = groupVersion(out.apiVersion);
  if (received !== desiredApiVersion) throw internalError(`${prefix} returned invalid object at index 0: invalid groupVersion (expected ${desiredApiVersion}, received ${received})`);
  if (out.kind !== original.kind) throw internalError(`${prefix} returned invalid object at index 0: invalid kind (expected ${original.kind}, received ${out.kind})`);
  for (const [field, label] of [['name', 'name'], ['namespace', 'namespace'], ['uid', 'UID']] as const) {
    const expected = metaString(original, field);
    const got = metaString(out, field);
    if (expected !== got) throw internalError(`${prefix} returned invalid object: must have the same ${label}: ${expected} != ${got}`);
  }
  const restored = restoreObjectMeta(original, out);
  if (typeof restored === 'string') throw internalError(`${prefix} returned invalid metadata: ${restored}`);
  return restored;
}

/**
 * Why the apiserver's decoder refuses a ConversionReview answer whose fields have the wrong JSON
 * types (encoding/json's first type error, in the order the fields come), or undefined.
 */
function reviewDecodeError(body: unknown, version: string): string | undefined {
  if (body === null) return undefined;
  if (!isPlainObject(body)) return `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonKind(body)} into Go value of type ${FIND_KIND_TYPE}`;
  for (const key of ['apiVersion', 'kind']) {
    const value = body[key];
    if (value !== undefined && value !== null && typeof value !== 'string') return `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonKind(value)} into Go struct field .${key} of type string`;
  }
  const typeError = (value: unknown, struct: string, field: string, type: string) => `json: cannot unmarshal ${goJsonKind(value)} into Go struct field ${struct}.${field} of type ${type}`;
  const response = body.response;
  if (response === undefined || response === null) return undefined;
  if (!isPlainObject(response)) return typeError(response, 'ConversionReview', 'response', `${version}.ConversionResponse`);
  for (const [key, value] of Object.entries(response)) {
    if (value === null) continue;
    const field = `response.${key}`;
    if (key === 'uid' && typeof value !== 'string') return typeError(value, 'ConversionResponse', field, 'types.UID');
    if (key === 'convertedObjects' && !Array.isArray(value)) return typeError(value, 'ConversionResponse', field, '[]runtime.RawExtension');
    if (key === 'result') {
      if (!isPlainObject(value)) return typeError(value, 'ConversionResponse', field, 'v1.Status');
      for (const [k, v] of Object.entries(value)) {
        if (v === null) continue;
        if ((k === 'status' || k === 'message' || k === 'reason') && typeof v !== 'string') return typeError(v, 'Status', `${field}.${k}`, k === 'reason' ? 'v1.StatusReason' : 'string');
        if (k === 'code' && !(typeof v === 'number' && Number.isInteger(v) && v >= -2147483648 && v <= 2147483647)) {
          return typeof v === 'number' ? `json: cannot unmarshal number ${String(v)} into Go struct field Status.${field}.code of type int32` : typeError(v, 'Status', `${field}.code`, 'int32');
        }
      }
    }
  }
  return undefined;
}

/** The converted objects of a ConversionReview answer, or the reason it is refused. */
function convertedFromAnswer(answer: unknown, version: string, uid: string): Obj[] | string {
  const review = isPlainObject(answer) ? answer : {};
  const expected = `apiextensions.k8s.io/${version}, Kind=ConversionReview`;
  const got = `${typeof review.apiVersion === 'string' && review.apiVersion.includes('/') ? review.apiVersion : `/${review.apiVersion ?? ''}`}, Kind=${review.kind ?? ''}`;
  if (version === 'v1' && got !== expected) return `expected webhook response of ${expected}, got ${got}`;
  const response = review.response;
  if (!isPlainObject(response)) return 'no response provided';
  if (version === 'v1' && (response.uid ?? '') !== uid) return `expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(response.uid ?? '')}`;
  const result = isPlainObject(response.result) ? response.result : {};
  if (result.status !== 'Success') return typeof result.message === 'string' && result.message ? result.message : `response.result.status was '${result.status ?? ''}', not 'Success'`;
  return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
}

/**
 * The converted object with the original's metadata but the labels and annotations the webhook
 * returned (values must be strings; changed ones are validated as on a write); else what is wrong.
 */
function restoreObjectMeta(original: Obj, converted: Obj): Obj | string {
  const returned = converted.metadata;
  if (returned === undefined) return 'missing metadata in converted object';
  if (!isPlainObject(returned)) return `invalid metadata of type ${goType(returned)} in converted object`;
  const meta: Obj = structuredClone(original.metadata ?? {});
  for (const field of ['labels', 'annotations'] as const) {
    const value = returned[field];
    if (value === undefined || value === null) {
      delete meta[field];
      continue;
    }
    if (!isPlainObject(value)) return `invalid metadata.${field} of type ${goType(value)} in converted object`;
    const before: Obj = meta[field] ?? {};
    let changed = Object.keys(before).length !== Object.keys(value).length;
    for (const [k, v] of Object.entries(value)) {
      if (typeof v !== 'string') return `metadata.${field}[${k}] must be a string, but is ${goType(v)} in converted object`;
      if (before[k] !== v) changed = true;
    }
    if (changed) {
      // The apiserver's paths, "metadata.annotation" as it spells it.
      const errs = field === 'labels' ? validateLabels(value, 'metadata.labels') : validateAnnotations(value, 'metadata.annotation');
      if (errs.length > 0) return aggregateText(errs);
    }
    meta[field] = value;
  }
  return { ...converted, metadata: meta };
}

/** schema.GroupVersion of an apiVersion as Go prints it ("" when it does not parse). */
function groupVersion(apiVersion: unknown): string {
  if (typeof apiVersion !== 'string') return '';
  const parts = apiVersion.split('/');
  if (parts.length > 2) return '';
  return apiVersion === '/' ? '' : apiVersion.replace(/^\//, '');
}

/** unstructured's GetName/GetNamespace/GetUID: the string, else "". */
function metaString(obj: Obj, field: string): string {
  const value = isPlainObject(obj.metadata) ? obj.metadata[field] : undefined;
  return typeof value === 'string' ? value : '';
}

const jsonType = (v: unknown): string => (Array.isArray(v) ? 'array' : typeof v === 'string' ? 'string' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'bool' : 'object');

const goType = (v: unknown): string => (Array.isArray(v) ? '[]interface {}' : v === null ? '<nil>' : typeof v === 'string' ? 'string' : typeof v === 'number' ? 'float64' : typeof v === 'boolean' ? 'bool' : 'map[string]interface {}');

