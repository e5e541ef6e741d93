import { fieldErrorText, type FieldError } from './field-errors';
import { goTimeString, validateEvent, validateEventUpdate } from './event-validation';

type Obj = Record<string, any>;
const texts = (errs: FieldError[]) => errs.map(fieldErrorText);

/** A core/v1 Event as client-go's record.EventRecorder posts it. */
const legacy = (extra: Obj = {}): Obj => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'web.1', namespace: 'default' },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u1', apiVersion: 'v1' },
  reason: 'Started',
  message: 'Started container web',
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2026-11-24T21:00:00Z',
  lastTimestamp: '2026-11-24T21:00:00Z',
  count: 1,
  type: 'Normal',
  ...extra,
});

/** An events.k8s.io/v1 Event as client-go's tools/events recorder posts it. */
const modern = (extra: Obj = {}): Obj => ({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name: 'web.2', namespace: 'default' },
  eventTime: '2026-11-24T21:00:00.123456Z',
  reportingController: 'example.com/scaler',
  reportingInstance: 'scaler-7d9f',
  action: 'Scale',
  reason: 'Scaled',
  regarding: { kind: 'Deployment', namespace: 'default', name: 'web', apiVersion: 'apps/v1' },
  note: 'scaled to 3',
  type: 'Normal',
  ...extra,
});

describe('validateEvent: legacy rules (every API)', () => {
  it('accepts recorder events; a cluster-scoped object\'s event lives in default', () => {
    expect(validateEvent(legacy())).toEqual([]);
    expect(validateEvent(legacy({ involvedObject: { kind: 'Node', name: 'node-1' } }))).toEqual([]);
    expect(validateEvent(modern())).toEqual([]);
    expect(validateEvent(modern({ metadata: { name: 'n', namespace: 'kube-system' }, regarding: { kind: 'Node', name: 'node-1' } }))).toEqual([]);
  });

  it('the involved object\'s namespace must match', () => {
    expect(texts(validateEvent(legacy({ involvedObject: { kind: 'Pod', namespace: 'other', name: 'p' } })))).toEqual([
      'involvedObject.namespace: Invalid value: "other": does not match event.namespace',
    ]);
    expect(texts(validateEvent(legacy({ metadata: { name: 'n', namespace: 'team' }, involvedObject: { kind: 'Node', name: 'n' } })))).toEqual([
      'involvedObject.namespace: Invalid value: "": does not match event.namespace',
    ]);
  });

  it('a core/v1 event with an eventTime needs the reporting fields (core/v1 calls the controller reportingComponent)', () => {
    const e = legacy({ eventTime: '2026-11-24T21:00:00.000000Z', reason: '', message: 'x'.repeat(1025) });
    expect(texts(validateEvent(e))).toEqual([
      'reportingController: Required value',
      'reportingController: Invalid value: "": name part must be non-empty',
      expect.stringMatching(/^reportingController: Invalid value: "": name part must consist of alphanumeric characters/),
      'reportingInstance: Required value',
      'action: Required value',
      'reason: Required value',
      'message: Invalid value: "": can have at most 1024 characters',
    ]);
    expect(validateEvent(legacy({ eventTime: '2026-11-24T21:00:00.000000Z', reportingComponent: 'kubelet', reportingInstance: 'node-1', action: 'Start' }))).toEqual([]);
  });

  it('length limits of reportingInstance, action and reason', () => {
    const long = 'x'.repeat(129);
    expect(texts(validateEvent(modern({ reportingInstance: long, action: long, reason: long })))).toEqual([
      'reportingInstance: Invalid value: "": can have at most 128 characters',
      'action: Invalid value: "": can have at most 128 characters',
      'reason: Invalid value: "": can have at most 128 characters',
    ]);
  });
});

describe('validateEvent: events.k8s.io strict rules', () => {
  it('eventTime required, type Normal or Warning, deprecated fields unset, series of at least 2', () => {
    const e = modern({
      eventTime: undefined,
      type: 'Info',
      deprecatedFirstTimestamp: '2026-11-24T21:00:00Z',
      deprecatedLastTimestamp: '2026-11-24T21:00:00Z',
      deprecatedCount: 3,
      deprecatedSource: { component: 'x' },
      series: { count: 1 },
    });
    expect(texts(validateEvent(e))).toEqual([
      'series.count: Invalid value: "": should be at least 2',
      'series.lastObservedTime: Required value',
      'eventTime: Required value',
      'type: Invalid value: "": has invalid value: Info',
      'firstTimestamp: Invalid value: "": needs to be unset',
      'lastTimestamp: Invalid value: "": needs to be unset',
      'count: Invalid value: "": needs to be unset',
      'source: Invalid value: "": needs to be unset',
    ]);
  });

  it('core/v1 gets only the legacy rules', () => {
    expect(validateEvent(legacy({ type: 'Info' }))).toEqual([]);
  });
});

describe('validateEventUpdate', () => {
  it('core/v1: a recorder\'s count bump passes; only the legacy rules apply', () => {
    expect(validateEventUpdate(legacy({ count: 2, lastTimestamp: '2026-11-24T21:00:05Z', message: 'changed' }), legacy())).toEqual([]);
  });

  it('events.k8s.io: a new series passes; most fields are immutable, reason reported twice as Go does', () => {
    const old = modern();
    expect(validateEventUpdate(modern({ series: { count: 2, lastObservedTime: '2026-11-24T21:01:00.000000Z' } }), old)).toEqual([]);
    const next = modern({
      regarding: { kind: 'Deployment', namespace: 'default', name: 'api', apiVersion: 'apps/v1' },
      reason: 'Other',
      note: 'n',
      eventTime: '2026-11-24T21:00:01.5Z',
      action: 'A',
      type: 'Warning',
      reportingController: 'example.com/other',
      reportingInstance: 'i',
      related: { kind: 'Pod', name: 'p' },
      deprecatedCount: 2,
    });
    expect(texts(validateEventUpdate(next, old))).toEqual([
      'involvedObject: Invalid value: core.ObjectReference{Kind:"Deployment", Namespace:"default", Name:"api", UID:"", APIVersion:"apps/v1", ResourceVersion:"", FieldPath:""}: field is immutable',
      'reason: Invalid value: "Other": field is immutable',
      'message: Invalid value: "n": field is immutable',
      'count: Invalid value: 2: field is immutable',
      'reason: Invalid value: "Other": field is immutable',
      'type: Invalid value: "Warning": field is immutable',
      'eventTime: Invalid value: 2026-11-24 21:00:01.5 +0000 UTC: field is immutable',
      'action: Invalid value: "A": field is immutable',
      'related: Invalid value: core.ObjectReference{Kind:"Pod", Namespace:"", Name:"p", UID:"", APIVersion:"", ResourceVersion:"", FieldPath:""}: field is immutable',
      'reportingController: Invalid value: "example.com/other": field is immutable',
      'reportingInstance: Invalid value: "i": field is immutable',
    ]);
  });

  it('goTimeString prints time.Time.String() of the UTC time', () => {
    expect(goTimeString('2026-11-24T21:00:00Z')).toBe('2026-11-24 21:00:00 +0000 UTC');
    expect(goTimeString('2026-11-24T21:00:00.123400Z')).toBe('2026-11-24 21:00:00.1234 +0000 UTC');
    expect(goTimeString(undefined)).toBe('0001-01-01 00:00:00 +0000 UTC');
  });
});
