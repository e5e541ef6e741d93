/**
 * Admission webhooks on serve's writes, as the apiserver's MutatingAdmissionWebhook and
 * ValidatingAdmissionWebhook plugins call them: mutating webhooks one after another (their JSON
 * patches applied, `reinvocationPolicy: IfNeeded` webhooks called once more when a later one
 * changed the object), validating webhooks all at once; a denial is the webhook's Status, a
 * failed call the 500 unless `failurePolicy: Ignore`; warnings become Warning headers; dry runs
 * reach only webhooks without side effects.
 */
import { applyPatch, type Operation } from 'fast-json-patch';
import { isExemptFromWebhooks, webhookMatches, type AdmissionAttributes } from '../../k8s/admission-match';
import { admissionReviewRequest, denialStatus, verifyAdmissionResponse, type ReviewAttributes, type UserInfo } from '../../k8s/admission-review';
import { goJsonKind, goJsonSyntaxError } from '../../k8s/go-json';
import { randomUid, type Random } from '../../k8s/names';
import { StatusError, badRequest, notFound, statusFor, type Status } from '../../k8s/status';
import type { Logger } from '../../log/logger';
import { sameJsonContent } from '../../wire/json-object';
import type { Admission, AdmissionRequest } from '../writes/admission-hooks';
import { addWarnings } from '../writes/field-validation';
import { callWebhook, webhookTarget, WebhookCallError, type ServiceLookup } from '../webhooks/webhook-client';
import type { AdmissionWebhook, WebhookRegistry } from './webhook-registry';

type Obj = Record<string, any>;

export interface WebhookAdmissionDeps {
  registry: WebhookRegistry;
  /** The user a bearer token names (a service account token serve issued), else undefined. */
  authenticate?(token: string): UserInfo | undefined;
  services: ServiceLookup;
  /** A namespace's labels, undefined when it does not exist. */
  namespaceLabels(namespace: string): Record<string, string> | undefined;
  random: Random;
  log: Logger;
}

/** The user a request without a service account token serve issued is taken to be (serve has no other authentication). */
export const SERVE_USER: UserInfo = { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] };

export class WebhookAdmission implements Admission {
  constructor(private readonly deps: WebhookAdmissionDeps) {}

  /** Whether a write to this resource may call a webhook (none configured: no). */
  applies(group: string, resource: string): boolean {
    return !isExemptFromWebhooks(group, resource) && this.deps.registry.active();
  }

  /**
   * The object after the mutating webhooks (the same object when none changed it). `object` is
   * what they are shown (undefined for DELETE), `oldObject` the stored state.
   */
  async mutate(request: AdmissionRequest, object: Obj | undefined, oldObject: Obj | undefined): Promise<Obj | undefined> {
    const hooks = this.deps.registry.mutatingWebhooks();
    if (hooks.length === 0) return object;
    let current = object;
    const reinvocable = new Set<string>();
    const reinvoke = new Set<string>();
    let again = false;
    for (const round of [0, 1]) {
      if (round === 1 && !again) break;
      for (const hook of hooks) {
        const id = hookId(hook);
        if (round === 1 && !reinvoke.has(id)) continue;
        const attr = this.attributes(request, current, oldObject);
        if (!this.matches(hook, attr)) continue;
        const patch = (await this.call(hook, request, attr, true)) as WebhookPatch | undefined;
        if (patch !== undefined) {
          // As callAttrMutatingHook: no object to patch is refused before the patch type is looked at.
          if (current === undefined) {
            throw internal(`admission webhook ${JSON.stringify(hook.spec.name)} attempted to modify the object, which is not supported for this operation`);
          }
          if (patch.type !== 'JSONPatch') {
            const failed = callFailed(String(hook.spec.name ?? ''), `unsupported patch type ${JSON.stringify(patch.type)}`);
            if (hook.spec.failurePolicy !== 'Ignore') throw failed;
            this.deps.log.warn({ webhook: hook.spec.name, err: failed.message }, 'failed calling webhook, failing open');
          } else {
            const next = request.settle(applyWebhookPatch(current, patch.ops));
            if (!sameJsonContent(next, current)) {
              for (const earlier of reinvocable) reinvoke.add(earlier);
              reinvocable.clear();
              again = true;
              current = next;
            }
          }
        }
        if (hook.spec.reinvocationPolicy === 'IfNeeded') reinvocable.add(id);
      }
    }
    return current;
  }

  /** Runs the validating webhooks at once; the first refusal (in webhook order) is thrown. */
  async validate(request: AdmissionRequest, object: Obj | undefined, oldObject: Obj | undefined): Promise<void> {
    const attr = this.attributes(request, object, oldObject);
    const called = this.deps.registry.validatingWebhooks().filter((hook) => this.matches(hook, attr));
    const outcomes = await Promise.allSettled(called.map((hook) => this.call(hook, request, attr, false)));
    const refused = outcomes.find((o) => o.status === 'rejected');
    if (refused) throw (refused as PromiseRejectedResult).reason;
  }

  private attributes(request: AdmissionRequest, object: Obj | undefined, oldObject: Obj | undefined): ReviewAttributes {
    const { res: _res, bearerToken, ...rest } = request;
    const user = bearerToken === undefined ? undefined : this.deps.authenticate?.(bearerToken);
    return { ...rest, object, oldObject, userInfo: user ?? SERVE_USER };
  }

  /** Whether the webhook is called; a namespace selector over a namespace that does not exist is the 404. */
  private matches(hook: AdmissionWebhook, attr: AdmissionAttributes): boolean {
    const outcome = webhookMatches(hook.spec, attr, (ns) => this.deps.namespaceLabels(ns));
    if (outcome === 'namespace-missing') throw notFound('namespaces', attr.namespace);
    return outcome === 'call';
  }

  /**
   * One call: undefined when allowed without a patch, the decoded patch when one came; throws
   * the denial, the dry-run refusal, or (failurePolicy Fail) the failed call.
   */
  private async call(hook: AdmissionWebhook, request: AdmissionRequest, attr: ReviewAttributes, mutating: boolean): Promise<unknown> {
    const spec = hook.spec;
    const name = String(spec.name ?? '');
    try {
      if (attr.dryRun) {
        if (spec.sideEffects === undefined) throw callFailed(name, 'Webhook SideEffects is nil');
        if (spec.sideEffects !== 'None' && spec.sideEffects !== 'NoneOnDryRun') throw badRequest(`admission webhook ${JSON.stringify(name)} does not support dry run`);
      }
      const version = reviewVersion(spec.admissionReviewVersions);
      if (!version) throw new WebhookCallError('webhook does not accept known AdmissionReview versions (v1, v1beta1)', 'could not create admission objects');
      const timeoutSeconds = typeof spec.timeoutSeconds === 'number' ? spec.timeoutSeconds : 10;
      const target = webhookTarget(spec.clientConfig ?? {}, timeoutSeconds, this.deps.services);
      const uid = randomUid(this.deps.random);
      const review = admissionReviewRequest(version, uid, attr);
      const answer = await callWebhook(target, `${JSON.stringify(review)}\n`, spec.clientConfig?.caBundle, timeoutSeconds * 1000);
      const verified = verifyAdmissionResponse(answer, version, uid, mutating);
      if ('invalid' in verified) throw callFailed(name, `received invalid webhook response: ${verified.invalid}`);
      addWebhookWarnings(request.res, verified.warnings);
      if (!verified.allowed) throw new StatusError(denialStatus(name, verified.result) as Status);
      return decodedPatch(verified.patch);
    } catch (err) {
      if (!(err instanceof WebhookCallError || err instanceof WebhookCallFailure)) throw err;
      const failed = err instanceof WebhookCallError ? callFailed(name, err.message) : err;
      if (spec.failurePolicy === 'Ignore') {
        this.deps.log.warn({ webhook: name, err: failed.message }, 'failed calling webhook, failing open');
        return undefined;
      }
      throw failed;
    }
  }
}

/**
 * The webhook's warnings as Warning headers: empty ones, repeats and those with control
 * characters left out. Node refuses header text beyond U+00FF: such a text goes as its UTF-8
 * bytes (one latin1 character each) instead of failing the write.
 */
function addWebhookWarnings(res: AdmissionRequest['res'], warnings: string[]): void {
  const present = new Set(headerList(res.getHeader('Warning')));
  const fresh = [...new Set(warnings)]
    .filter((w) => w !== '' && !/[\u0000-\u001f\u007f-\u009f]/.test(w))
    .map((w) => (/[^\u0000-\u00ff]/.test(w) ? Buffer.from(w, 'utf8').toString('latin1') : w))
    .filter((w) => !present.has(`299 - ${JSON.stringify(w)}`));
  if (fresh.length > 0) addWarnings(res, fresh);
}

const headerList = (value: unknown): string[] => (value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)]);

const hookId = (hook: AdmissionWebhook) => `${hook.configuration}/${String(hook.spec.name)}/${hook.index}`;

function reviewVersion(versions: unknown): string | undefined {
  if (!Array.isArray(versions)) return undefined;
  return versions.find((v) => v === 'v1' || v === 'v1beta1');
}

/** A mutating webhook's non-empty patch and the type it named. */
interface WebhookPatch {
  type: string;
  ops: Operation[];
}

/**
 * The patch of a mutating webhook's answer as jsonpatch.DecodePatch reads it (JSON into a list
 * of objects; Go's json texts for what is not), undefined for none, `null` or an empty list.
 */
function decodedPatch(patch: unknown): WebhookPatch | undefined {
  if (patch === undefined) return undefined;
  const { type, bytes } = patch as { type: string; bytes: Buffer };
  const syntax = goJsonSyntaxError(bytes);
  if (syntax !== undefined) throw internal(syntax);
  const ops = JSON.parse(bytes.toString('utf8')) as unknown;
  if (ops === null) return undefined;
  if (!Array.isArray(ops)) throw internal(`json: cannot unmarshal ${goJsonKind(ops)} into Go value of type jsonpatch.Patch`);
  const notObject = ops.find((op) => op !== null && (typeof op !== 'object' || Array.isArray(op)));
  if (notObject !== undefined) throw internal(`json: cannot unmarshal ${goJsonKind(notObject)} into Go value of type jsonpatch.Operation`);
  return ops.length > 0 ? { type, ops: ops as Operation[] } : undefined;
}

function applyWebhookPatch(object: Obj, ops: Operation[]): Obj {
  const doc = structuredClone(object);
  try {
    return applyPatch(doc, ops, true, true).newDocument as Obj;
  } catch (err) {
    // `doc` holds the operations before the failed one.
    throw internal(jsonPatchFailure(doc, err as Error & { index?: number }, ops));
  }
}

/** evanphx/json-patch's text for a patch that does not apply (the library the apiserver uses). */
function jsonPatchFailure(doc: Obj, err: Error & { index?: number }, ops: Operation[]): string {
  const op = (ops[err.index ?? -1] ?? {}) as Obj;
  const path = String(op.path ?? '');
  switch (err.name) {
    case 'TEST_OPERATION_FAILED': return `testing value ${path} failed: test failed`;
    case 'OPERATION_OP_INVALID': return `Unexpected kind: ${String(op.op)}`;
    case 'OPERATION_FROM_UNRESOLVABLE': return `${op.op} operation does not apply: doc is missing from path: ${String(op.from)}: missing value`;
    case 'OPERATION_PATH_CANNOT_ADD':
    case 'OPERATION_PATH_UNRESOLVABLE': {
      const parent = path.slice(0, path.lastIndexOf('/'));
      if (op.op === 'replace') return `replace operation does not apply: doc is missing key: ${path}: missing value`;
      if (op.op === 'remove' && resolves(doc, parent)) return `Unable to remove nonexistent key: ${unescapePointer(path.slice(parent.length + 1))}: missing value`;
      return `${String(op.op)} operation does not apply: doc is missing path: ${JSON.stringify(path)}: missing value`;
    }
  }
  return err.message.split('\n')[0]!;
}

function resolves(doc: unknown, pointer: string): boolean {
  let at: unknown = doc;
  for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
    if (!at || typeof at !== 'object') return false;
    const key = unescapePointer(raw);
    if (!Object.prototype.hasOwnProperty.call(at, key)) return false;
    at = (at as Obj)[key];
  }
  return at !== null && typeof at === 'object';
}

const unescapePointer = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** apierrors.NewInternalError: 500 InternalError, the error as the one cause. */
const internal = (message: string): StatusError => statusFor(500, message);

/** A failed call (ErrCallingWebhook): the 500, unless the webhook fails open. */
class WebhookCallFailure extends StatusError {}

function callFailed(name: string, reason: string): WebhookCallFailure {
  return new WebhookCallFailure(internal(`failed calling webhook ${JSON.stringify(name)}: ${reason}`).status);
}

