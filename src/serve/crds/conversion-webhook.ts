/**
 * A CustomResourceDefinition's conversion webhook (`spec.conversion.strategy: Webhook`), called as
 * the apiextensions-apiserver calls it (pkg/apiserver/conversion/webhook_converter.go): one
 * ConversionReview (`apiextensions.k8s.io/v1`, or `v1beta1`, the first of
 * `conversionReviewVersions` that is one of them) per conversion, the answer checked (kind,
 * uid, `result.status: Success`, one object per object sent, each of the desired apiVersion and
 * the same kind), and of each converted object's metadata only labels and annotations kept — the
 * rest is the original's. Failures are the apiserver's texts (`conversion webhook for G/V,
 * Kind=K failed: …`), thrown as a 500 with no reason, as it answers them.
 */
import { randomUid, type Random } from '../../k8s/names';
import { internalError } from '../../k8s/status';
import { callWebhook, webhookTarget, WebhookCallError, type ServiceLookup } from '../admission/webhook-client';

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
 */
export async function convertObjects(webhook: ConversionWebhook, deps: ConversionDeps, kind: string, from: string, desiredApiVersion: string, objects: Obj[]): Promise<Obj[]> {
  const gvk = `${from.includes('/') ? from : `/${from}`}, Kind=${kind}`;
  const failed = (reason: string) => internalError(`conversion webhook for ${gvk} failed: ${reason}`);
  const version = webhook.reviewVersions.find((v) => v === 'v1' || v === 'v1beta1');
  if (!version) throw failed('webhook does not accept known ConversionReview versions (v1, v1beta1)');
  const uid = randomUid(deps.random);
  const review = { kind: 'ConversionReview', apiVersion: `apiextensions.k8s.io/${version}`, request: { uid, desiredAPIVersion: desiredApiVersion, objects } };
  let answer: unknown;
  try {
    const target = webhookTarget(webhook.clientConfig, TIMEOUT_SECONDS, deps.services);
    answer = await callWebhook(target, `${JSON.stringify(review)}\n`, webhook.clientConfig?.caBundle, TIMEOUT_SECONDS * 1000);
  } catch (err) {
    if (err instanceof WebhookCallError) throw failed(err.reason);
    throw err;
  }
  const converted = convertedFromAnswer(answer, version, uid);
  if (typeof converted === 'string') throw failed(converted);
  if (converted.length !== objects.length) throw internalError(`conversion webhook for ${gvk} returned ${converted.length} objects, expected ${objects.length}`);
  return converted.map((out, i) => {
    const original = objects[i]!;
    const invalid = (message: string) => internalError(`conversion webhook for ${gvk} returned invalid converted object at index ${i}: ${message}`);
    if (!out || typeof out !== 'object' || Array.isArray(out)) throw invalid('object is not a JSON object');
    if (out.apiVersion !== desiredApiVersion) throw invalid(`expected ${JSON.stringify(desiredApiVersion)}, got ${JSON.stringify(out.apiVersion ?? '')}`);
    if (out.kind !== original.kind) throw invalid(`must have the same kind: ${original.kind} != ${out.kind ?? ''}`);
    const restored = restoreObjectMeta(original, out);
    if (typeof restored === 'string') throw internalError(`conversion webhook for ${gvk} returned invalid metadata in object at index ${i}: ${restored}`);
    return restored;
  });
}

/** The converted objects of a ConversionReview answer, or the reason it is refused. */
function convertedFromAnswer(answer: unknown, version: string, uid: string): Obj[] | string {
  const review = answer && typeof answer === 'object' && !Array.isArray(answer) ? (answer as Obj) : {};
  const expected = `apiextensions.k8s.io/${version}, Kind=ConversionReview`;
  const got = `${typeof review.apiVersion === 'string' && review.apiVersion.includes('/') ? review.apiVersion : `/${review.apiVersion ?? ''}`}, Kind=${review.kind ?? ''}`;
  if (version === 'v1' && got !== expected) return `expected webhook response of ${expected}, got ${got}`;
  const response = review.response;
  if (!response || typeof response !== 'object') return 'no response provided';
  if (version === 'v1' && response.uid !== uid) return `expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(response.uid ?? '')}`;
  const result = response.result ?? {};
  if (result.status !== 'Success') return typeof result.message === 'string' && result.message ? result.message : `response.result.status was '${result.status ?? ''}', not 'Success'`;
  return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
}

/** The converted object with the original's metadata but the labels and annotations the webhook returned; else what is wrong. */
function restoreObjectMeta(original: Obj, converted: Obj): Obj | string {
  const returned = converted.metadata;
  if (returned === undefined) return 'missing metadata in converted object';
  if (!returned || typeof returned !== 'object' || Array.isArray(returned)) return `invalid metadata of type ${goType(returned)} in converted object`;
  const meta: Obj = { ...(original.metadata ?? {}) };
  for (const field of ['labels', 'annotations']) {
    const value = returned[field];
    if (value === undefined || value === null) delete meta[field];
    else if (typeof value !== 'object' || Array.isArray(value)) return `invalid metadata.${field} of type ${goType(value)} in converted object`;
    else meta[field] = value;
  }
  return { ...converted, metadata: meta };
}

const goType = (v: unknown): string => (Array.isArray(v) ? '[]interface {}' : v === null ? '<nil>' : typeof v === 'string' ? 'string' : typeof v === 'number' ? 'float64' : typeof v === 'boolean' ? 'bool' : 'map[string]interface {}');
