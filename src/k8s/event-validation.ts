/**
 * Event validation as kube-apiserver v1.26 runs it (pkg/apis/core/validation/events.go), for
 * core/v1 and events.k8s.io/v1 Events alike: both are stored as the internal core.Event, so the
 * field paths are core's (`involvedObject.namespace`, `message`), whichever API was called.
 *
 * - Every write gets the legacy rules: the involved object's namespace agrees with the event's;
 *   an event with an eventTime (a "new" event) needs reportingController, reportingInstance,
 *   action and reason, with length limits.
 * - Writes through events.k8s.io also get the strict rules: eventTime required, type Normal or
 *   Warning, the deprecated fields unset, a series of at least 2 (create); and on update most
 *   fields immutable.
 * Pure.
 */
import { invalidField, requiredField, type FieldError, type FieldValue } from './field-errors';
import { goString } from './label-selector-validation';
import { isDns1123Subdomain } from './names';
import { isQualifiedName } from './object-meta-validation';
import { isPlainObject, sameJsonContent } from '../wire/json-object';

type Obj = Record<string, any>;

const REPORTING_INSTANCE_LIMIT = 128;
const ACTION_LIMIT = 128;
const REASON_LIMIT = 128;
const NOTE_LIMIT = 1024;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});

/** The internal core.Event fields validation reads, from either API's object. */
interface CoreEvent {
  namespace: string;
  involvedObject: Obj;
  reason: string;
  message: string;
  source: Obj;
  firstTimestamp: unknown;
  lastTimestamp: unknown;
  count: number;
  type: string;
  eventTime: unknown;
  series: Obj | undefined;
  action: string;
  related: Obj | undefined;
  reportingController: string;
  reportingInstance: string;
}

export const isEventsApi = (event: Obj): boolean => str(event.apiVersion).startsWith('events.k8s.io/');

/** The conversion to core.Event: events.k8s.io's `regarding`, `note`, `deprecated*` are core's involvedObject, message, source, timestamps and count. */
function coreEvent(event: Obj): CoreEvent {
  const v1 = isEventsApi(event);
  return {
    namespace: str(obj(event.metadata).namespace),
    involvedObject: obj(v1 ? event.regarding : event.involvedObject),
    reason: str(event.reason),
    message: str(v1 ? event.note : event.message),
    source: obj(v1 ? event.deprecatedSource : event.source),
    firstTimestamp: v1 ? event.deprecatedFirstTimestamp : event.firstTimestamp,
    lastTimestamp: v1 ? event.deprecatedLastTimestamp : event.lastTimestamp,
    count: num(v1 ? event.deprecatedCount : event.count),
    type: str(event.type),
    eventTime: event.eventTime,
    series: isPlainObject(event.series) ? event.series : undefined,
    action: str(event.action),
    related: isPlainObject(event.related) ? event.related : undefined,
    // core/v1 names ReportingController `reportingComponent` on the wire.
    reportingController: str(v1 ? event.reportingController : event.reportingComponent),
    reportingInstance: str(event.reportingInstance),
  };
}

/** A metav1.Time / MicroTime is zero when absent, null or year 1. */
const isZeroTime = (t: unknown): boolean => typeof t !== 'string' || t === '' || t.startsWith('0001-01-01T00:00:00');

/** legacyValidateEvent. */
function legacyValidate(e: CoreEvent): FieldError[] {
  const errs: FieldError[] = [];
  const involvedNamespace = str(e.involvedObject.namespace);
  const mismatch = () => errs.push(invalidField('involvedObject.namespace', involvedNamespace, 'does not match event.namespace'));
  if (isZeroTime(e.eventTime)) {
    if (involvedNamespace === '') {
      if (e.namespace !== '' && e.namespace !== 'default') mismatch();
    } else if (e.namespace !== involvedNamespace) {
      mismatch();
    }
  } else {
    if (involvedNamespace === '' && e.namespace !== 'default' && e.namespace !== 'kube-system') mismatch();
    if (e.reportingController === '') errs.push(requiredField('reportingController', ''));
    for (const msg of isQualifiedName(e.reportingController)) errs.push(invalidField('reportingController', e.reportingController, msg));
    if (e.reportingInstance === '') errs.push(requiredField('reportingInstance', ''));
    if (e.reportingInstance.length > REPORTING_INSTANCE_LIMIT) errs.push(invalidField('reportingInstance', '', `can have at most ${REPORTING_INSTANCE_LIMIT} characters`));
    if (e.action === '') errs.push(requiredField('action', ''));
    if (e.action.length > ACTION_LIMIT) errs.push(invalidField('action', '', `can have at most ${ACTION_LIMIT} characters`));
    if (e.reason === '') errs.push(requiredField('reason', ''));
    if (e.reason.length > REASON_LIMIT) errs.push(invalidField('reason', '', `can have at most ${REASON_LIMIT} characters`));
    if (e.message.length > NOTE_LIMIT) errs.push(invalidField('message', '', `can have at most ${NOTE_LIMIT} characters`));
  }
  for (const msg of isDns1123Subdomain(e.namespace)) errs.push(invalidField('namespace', e.namespace, msg));
  return errs;
}

/** validateV1EventSeries. */
function validateSeries(e: CoreEvent): FieldError[] {
  if (!e.series) return [];
  const errs: FieldError[] = [];
  if (num(e.series.count) < 2) errs.push(invalidField('series.count', '', 'should be at least 2'));
  if (isZeroTime(e.series.lastObservedTime)) errs.push(requiredField('series.lastObservedTime', ''));
  return errs;
}

/** ValidateEventCreate: the legacy rules; through events.k8s.io also the strict ones. */
export function validateEvent(event: Obj): FieldError[] {
  const e = coreEvent(event);
  const errs = legacyValidate(e);
  if (!isEventsApi(event)) return errs;
  errs.push(...validateSeries(e));
  if (isZeroTime(e.eventTime)) errs.push(requiredField('eventTime', ''));
  if (e.type !== 'Normal' && e.type !== 'Warning') errs.push(invalidField('type', '', `has invalid value: ${e.type}`));
  if (!isZeroTime(e.firstTimestamp)) errs.push(invalidField('firstTimestamp', '', 'needs to be unset'));
  if (!isZeroTime(e.lastTimestamp)) errs.push(invalidField('lastTimestamp', '', 'needs to be unset'));
  if (e.count !== 0) errs.push(invalidField('count', '', 'needs to be unset'));
  if (str(e.source.component) !== '' || str(e.source.host) !== '') errs.push(invalidField('source', '', 'needs to be unset'));
  return errs;
}

const REFERENCE_FIELDS = [
  ['Kind', 'kind'],
  ['Namespace', 'namespace'],
  ['Name', 'name'],
  ['UID', 'uid'],
  ['APIVersion', 'apiVersion'],
  ['ResourceVersion', 'resourceVersion'],
  ['FieldPath', 'fieldPath'],
] as const;

/** `%#v` of a core.ObjectReference. */
function goObjectReference(ref: Obj): { goSyntax: string } {
  return { goSyntax: `core.ObjectReference{${REFERENCE_FIELDS.map(([goName, key]) => `${goName}:${goString(str(ref[key]))}`).join(', ')}}` };
}

/** time.Time.String() of an RFC 3339 timestamp read into the apiserver's (UTC) local zone: `2026-11-24 21:00:00.5 +0000 UTC`. */
export function goTimeString(t: unknown): string {
  if (isZeroTime(t)) return '0001-01-01 00:00:00 +0000 UTC';
  const ms = Date.parse(String(t));
  if (Number.isNaN(ms)) return '0001-01-01 00:00:00 +0000 UTC';
  const fraction = /\.(\d+)/.exec(String(t))?.[1]?.replace(/0+$/, '') ?? '';
  const base = new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19).replace('T', ' ');
  return `${base}${fraction ? `.${fraction}` : ''} +0000 UTC`;
}

const sameReference = (a: Obj | undefined, b: Obj | undefined): boolean =>
  a === undefined || b === undefined ? a === b : REFERENCE_FIELDS.every(([, key]) => str(a[key]) === str(b[key]));
const sameTime = (a: unknown, b: unknown): boolean => (isZeroTime(a) && isZeroTime(b)) || (!isZeroTime(a) && !isZeroTime(b) && Date.parse(String(a)) === Date.parse(String(b)) && goTimeString(a) === goTimeString(b));
const immutable = (path: string, value: FieldValue): FieldError => invalidField(path, value, 'field is immutable');

/** ValidateEventUpdate: the legacy rules on the new event; through events.k8s.io also the series and what may not change. */
export function validateEventUpdate(next: Obj, old: Obj): FieldError[] {
  const n = coreEvent(next);
  const o = coreEvent(old);
  const errs = legacyValidate(n);
  if (!isEventsApi(next)) return errs;
  if (!sameJsonContent(n.series ?? null, o.series ?? null)) errs.push(...validateSeries(n));
  if (!sameReference(n.involvedObject, o.involvedObject)) errs.push(immutable('involvedObject', goObjectReference(n.involvedObject)));
  if (n.reason !== o.reason) errs.push(immutable('reason', n.reason));
  if (n.message !== o.message) errs.push(immutable('message', n.message));
  if (str(n.source.component) !== str(o.source.component) || str(n.source.host) !== str(o.source.host)) {
    errs.push(immutable('source', { goSyntax: `core.EventSource{Component:${goString(str(n.source.component))}, Host:${goString(str(n.source.host))}}` }));
  }
  if (!sameTime(n.firstTimestamp, o.firstTimestamp)) errs.push(immutable('firstTimestamp', { goSyntax: goTimeString(n.firstTimestamp) }));
  if (!sameTime(n.lastTimestamp, o.lastTimestamp)) errs.push(immutable('lastTimestamp', { goSyntax: goTimeString(n.lastTimestamp) }));
  if (n.count !== o.count) errs.push(immutable('count', n.count));
  if (n.reason !== o.reason) errs.push(immutable('reason', n.reason));
  if (n.type !== o.type) errs.push(immutable('type', n.type));
  if (!sameTime(n.eventTime, o.eventTime)) errs.push(immutable('eventTime', { goSyntax: goTimeString(n.eventTime) }));
  if (n.action !== o.action) errs.push(immutable('action', n.action));
  if (!sameReference(n.related, o.related)) errs.push(immutable('related', n.related ? goObjectReference(n.related) : 'null'));
  if (n.reportingController !== o.reportingController) errs.push(immutable('reportingController', n.reportingController));
  if (n.reportingInstance !== o.reportingInstance) errs.push(immutable('reportingInstance', n.reportingInstance));
  return errs;
}
