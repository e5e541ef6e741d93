import { cronScheduleError, loadLocationError } from './cron-schedule';
import { validateCronJob, validateCronJobUpdate } from './cronjob-validation';
import { fieldErrorText, type FieldError } from './field-errors';
import { validateJob, validateJobUpdate } from './job-validation';
import { applyDefaults, completeCreate } from './object-defaults';

type Obj = Record<string, any>;

const podTemplate = (spec: Obj = { restartPolicy: 'Never' }, labels?: Obj): Obj => ({
  ...(labels ? { metadata: { labels } } : {}),
  spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec },
});

function job(spec: Obj, name = 'pi'): Obj {
  const obj = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name, namespace: 'default' }, spec: structuredClone(spec) };
  applyDefaults('Job', obj);
  return obj;
}

/** A Job as stored after a create: the generated selector and labels, the uid. */
function storedJob(spec: Obj): Obj {
  const obj = job(spec);
  (obj.metadata as Obj).uid = '0b5c2a1e-1111-4222-8333-444455556666';
  completeCreate('Job', obj, { uid: obj.metadata.uid, random: () => 0, allocations: () => ({ clusterIPs: new Set(), nodePorts: new Set() }) });
  return obj;
}

function cronJob(spec: Obj, name = 'tick'): Obj {
  const obj = { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name, namespace: 'default' }, spec: structuredClone(spec) };
  applyDefaults('CronJob', obj);
  return obj;
}

const texts = (errs: FieldError[]) => errs.map(fieldErrorText);

describe('Job', () => {
  it('accepts a Job with restartPolicy Never or OnFailure and no selector (it is generated)', () => {
    expect(validateJob(job({ template: podTemplate() }))).toEqual([]);
    expect(validateJob(job({ template: podTemplate({ restartPolicy: 'OnFailure' }, { app: 'pi' }) }))).toEqual([]);
  });

  it('restartPolicy Always (also the default) is a required value naming the two valid ones', () => {
    const expected = [{ type: 'Required', field: 'spec.template.spec.restartPolicy', detail: 'valid values: "OnFailure", "Never"' }];
    expect(validateJob(job({ template: podTemplate({ restartPolicy: 'Always' }) }))).toEqual(expected);
    expect(validateJob(job({ template: podTemplate({}) }))).toEqual(expected);
    // ValidatePodTemplateSpec's rule first, then the Job's own.
    expect(texts(validateJob(job({ template: podTemplate({ restartPolicy: 'Sometimes' }) })))).toEqual([
      'spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      'spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "OnFailure", "Never"',
    ]);
  });

  it('counts must not be negative; completionMode is NonIndexed or Indexed, and Indexed needs completions', () => {
    const errs = job({ parallelism: -1, completions: -2, activeDeadlineSeconds: -3, backoffLimit: -4, ttlSecondsAfterFinished: -5, template: podTemplate() });
    expect(texts(validateJob(errs))).toEqual([
      'spec.parallelism: Invalid value: -1: must be greater than or equal to 0',
      'spec.completions: Invalid value: -2: must be greater than or equal to 0',
      'spec.activeDeadlineSeconds: Invalid value: -3: must be greater than or equal to 0',
      'spec.backoffLimit: Invalid value: -4: must be greater than or equal to 0',
      'spec.ttlSecondsAfterFinished: Invalid value: -5: must be greater than or equal to 0',
    ]);
    expect(texts(validateJob(job({ completionMode: 'Sharded', template: podTemplate() })))).toEqual([
      'spec.completionMode: Unsupported value: "Sharded": supported values: "NonIndexed", "Indexed"',
    ]);
    expect(texts(validateJob(job({ completionMode: 'Indexed', parallelism: 3, template: podTemplate() })))).toEqual([
      'spec.completions: Required value: when completion mode is Indexed',
    ]);
  });

  it('podFailurePolicy rules: actions, exit codes, pod conditions, and restartPolicy Never', () => {
    const podFailurePolicy = {
      rules: [
        { action: 'Retry', onExitCodes: { containerName: 'main', operator: 'In', values: [0, 3, 3, 1] } },
        { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }, { type: 'Bad Type', status: 'Maybe' }] },
        { onExitCodes: { operator: 'NotIn', values: [] } },
      ],
    };
    const errs = validateJob(job({ podFailurePolicy, template: podTemplate({ restartPolicy: 'OnFailure' }) }));
    expect(texts(errs)).toEqual([
      'spec.podFailurePolicy.rules[0].action: Unsupported value: "Retry": supported values: "Count", "FailJob", "Ignore"',
      'spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "main": must be one of the container or initContainer names in the pod template',
      'spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator',
      'spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3',
      'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{0, 3, 3, 1}: must be ordered',
      "spec.podFailurePolicy.rules[1].onPodConditions[1].type: Invalid value: \"Bad Type\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'spec.podFailurePolicy.rules[1].onPodConditions[1].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
      'spec.podFailurePolicy.rules[2].action: Required value: valid values: ["Count" "FailJob" "Ignore"]',
      'spec.podFailurePolicy.rules[2].onExitCodes.values: Invalid value: []int32{}: at least one value is required',
      'spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
    ]);
  });

  it('a selector given without manualSelector is not the generated one', () => {
    const errs = validateJob(job({ selector: { matchLabels: { app: 'pi' } }, template: podTemplate({ restartPolicy: 'Never' }, { app: 'pi' }) }));
    expect(errs.map((e) => [e.type, e.field, e.detail])).toEqual([['Invalid', 'spec.selector', '`selector` not auto-generated']]);
  });

  it('with manualSelector the selector is required and must match the template labels', () => {
    expect(texts(validateJob(job({ manualSelector: true, template: podTemplate({ restartPolicy: 'Never' }, { app: 'pi' }) })))).toEqual([
      'spec.selector: Required value',
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"pi"}: `selector` does not match template `labels`',
    ]);
    expect(validateJob(job({ manualSelector: true, selector: { matchLabels: { app: 'pi' } }, template: podTemplate({ restartPolicy: 'Never' }, { app: 'pi' }) }))).toEqual([]);
  });

  it('a template job-name label other than the name is refused', () => {
    expect(texts(validateJob(job({ template: podTemplate({ restartPolicy: 'Never' }, { 'job-name': 'other' }) })))).toEqual([
      `spec.template.metadata.labels[job-name]: Invalid value: map[string]string{"controller-uid":"", "job-name":"other"}: must be 'pi'`,
    ]);
  });

  it('an update whose template lost the generated labels is refused (ValidateHasLabel: Required "must be \'<value>\'")', () => {
    const old = storedJob({ template: podTemplate() });
    const next = structuredClone(old);
    delete next.spec.template.metadata.labels['controller-uid'];
    delete next.spec.template.metadata.labels['batch.kubernetes.io/controller-uid'];
    const texts0 = texts(validateJobUpdate(next, old));
    expect(texts0[0]).toBe(`spec.template.metadata.labels[controller-uid]: Required value: must be '${old.metadata.uid}'`);
  });

  it('a nil *int32 or selector in an immutable-field error is the quoted string "null", as v1.26 prints it', () => {
    const old = storedJob({ completions: 2, parallelism: 1, template: podTemplate() });
    const next = structuredClone(old);
    delete next.spec.completions;
    expect(texts(validateJobUpdate(next, old))).toContain('spec.completions: Invalid value: "null": field is immutable');
  });

  it('an Indexed Job whose last pod hostname is not a DNS label is refused by name', () => {
    const errs = validateJob(job({ completionMode: 'Indexed', completions: 3, template: podTemplate() }, 'x'.repeat(62)));
    expect(texts(errs)).toEqual([`metadata.name: Invalid value: "${'x'.repeat(62)}": will not able to create pod with invalid DNS label: ${'x'.repeat(62)}-2`]);
  });

  it('on update the stored generated selector passes, and completions, selector and template are immutable', () => {
    const old = storedJob({ completions: 2, template: podTemplate() });
    expect(validateJobUpdate(structuredClone(old), old)).toEqual([]);
    const next = structuredClone(old);
    next.spec.completions = 3;
    next.spec.template.spec.containers[0].image = 'alpine';
    expect(texts(validateJobUpdate(next, old))).toEqual([
      'spec.completions: Invalid value: 3: field is immutable',
      'spec.template: Invalid value: core.PodTemplateSpec{…}: field is immutable',
    ]);
  });

  it('on update a recorded Job of a newer apiserver (batch.kubernetes.io/ selector labels) passes', () => {
    const uid = '7d0a3c2e-1111-4222-8333-444455556666';
    const labels = { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': uid, 'job-name': 'pi' };
    const old = job({ selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } }, template: podTemplate({ restartPolicy: 'Never' }, labels) });
    old.metadata.uid = uid;
    const next = structuredClone(old);
    next.spec.suspend = true;
    expect(validateJobUpdate(next, old)).toEqual([]);
  });

  it('on update a suspended Job that never started may change its template node selector', () => {
    const old = storedJob({ suspend: true, template: podTemplate() });
    const next = structuredClone(old);
    next.spec.template.spec.nodeSelector = { zone: 'a' };
    expect(validateJobUpdate(next, old)).toEqual([]);
    const running = structuredClone(old);
    running.spec.suspend = false;
    expect(validateJobUpdate(next, running).map((e) => e.field)).toEqual(['spec.template']);
  });

  it('on update the spec errors appear twice (ValidateJob and ValidateJobUpdate both run ValidateJobSpec)', () => {
    const old = storedJob({ template: podTemplate() });
    const next = structuredClone(old);
    next.spec.backoffLimit = -1;
    expect(texts(validateJobUpdate(next, old))).toEqual([
      'spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0',
      'spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });
});

describe('CronJob', () => {
  const valid = { schedule: '*/5 * * * *', jobTemplate: { spec: { template: podTemplate({ restartPolicy: 'OnFailure' }) } } };

  it('accepts a valid CronJob (also with @daily and a time zone)', () => {
    expect(validateCronJob(cronJob(valid))).toEqual([]);
    expect(validateCronJob(cronJob({ ...valid, schedule: '@daily', timeZone: 'Europe/Berlin' }))).toEqual([]);
  });

  it('the schedule is required, and parsed as robfig/cron reports it', () => {
    expect(texts(validateCronJob(cronJob({ ...valid, schedule: '' })))).toEqual(['spec.schedule: Required value']);
    expect(texts(validateCronJob(cronJob({ ...valid, schedule: 'every minute' })))).toEqual([
      'spec.schedule: Invalid value: "every minute": expected exactly 5 fields, found 2: [every minute]',
    ]);
    expect(texts(validateCronJob(cronJob({ ...valid, schedule: '61 * * * *' })))).toEqual([
      'spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61',
    ]);
  });

  it('time zone, concurrencyPolicy and history limits', () => {
    const obj = cronJob({ ...valid, timeZone: 'Mars/Olympus', concurrencyPolicy: 'Sometimes', successfulJobsHistoryLimit: -1, startingDeadlineSeconds: -10 });
    expect(texts(validateCronJob(obj))).toEqual([
      'spec.startingDeadlineSeconds: Invalid value: -10: must be greater than or equal to 0',
      'spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus',
      'spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
      'spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
    ]);
    expect(texts(validateCronJob(cronJob({ ...valid, schedule: 'TZ=UTC 0 * * * *', timeZone: 'UTC' })))).toEqual([
      'spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use both timeZone field and TZ or CRON_TZ in schedule',
    ]);
  });

  it('the jobTemplate goes through the Job rules at its own paths; its selector is generated', () => {
    const obj = cronJob({ schedule: '0 0 * * *', jobTemplate: { spec: { selector: { matchLabels: { a: 'b' } }, manualSelector: true, template: podTemplate({}) } } });
    expect(texts(validateCronJob(obj))).toEqual([
      'spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
      'spec.jobTemplate.spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` will be auto-generated',
      'spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"',
    ]);
  });

  it('a name over 52 characters is refused on create only', () => {
    const long = cronJob(valid, 'c'.repeat(53));
    expect(texts(validateCronJob(long))).toEqual([`metadata.name: Invalid value: "${'c'.repeat(53)}": must be no more than 52 characters`]);
    expect(validateCronJobUpdate(long, long)).toEqual([]);
  });
});

describe('cron schedule (robfig/cron ParseStandard)', () => {
  it.each([
    ['0 0 * * *', undefined],
    ['*/15 9-17 * * mon-fri', undefined],
    ['0 0 1,15 jan,jul ?', undefined],
    ['@hourly', undefined],
    ['@every 1h30m', undefined],
    ['CRON_TZ=Asia/Tokyo 0 9 * * *', undefined],
    ['', 'empty spec string'],
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['* * * * * *', 'expected exactly 5 fields, found 6: [* * * * * *]'],
    ['0 24 * * *', 'end of range (24) above maximum (23): 24'],
    ['0 0 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['0 0 * * 7', 'end of range (7) above maximum (6): 7'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['*/2/3 * * * *', 'too many slashes: */2/3'],
    ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['0 0 * foo *', 'failed to parse int from foo: strconv.Atoi: parsing "foo": invalid syntax'],
    ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
    ['@every 5', 'failed to parse duration @every 5: time: missing unit in duration "5"'],
    ['@every 5x', 'failed to parse duration @every 5x: time: unknown unit "x" in duration "5x"'],
    ['TZ=Nowhere/City 0 0 * * *', 'provided bad location Nowhere/City: unknown time zone Nowhere/City'],
  ])('%j → %j', (spec, expected) => {
    expect(cronScheduleError(spec)).toBe(expected);
  });

  it('time zones as time.LoadLocation finds them (names are case-sensitive)', () => {
    expect(loadLocationError('America/New_York')).toBeUndefined();
    expect(loadLocationError('UTC')).toBeUndefined();
    expect(loadLocationError('america/new_york')).toBe('unknown time zone america/new_york');
    expect(loadLocationError('../etc/passwd')).toBe('time: invalid location name');
  });
});
