/**
 * batch/validation's CronJob rules as a v1.26 apiserver runs them after defaulting: the schedule
 * (required, parsed as robfig/cron's ParseStandard does, not mixed with timeZone), the time zone,
 * concurrencyPolicy, the history limits, the jobTemplate through the Job spec rules at its own
 * paths, and on create the 52-character name limit (the controller appends an 11-character
 * suffix to name its Jobs). Pure.
 */
import { cronScheduleError, loadLocationError } from './cron-schedule';
import { invalidField, notSupportedField, requiredField, type FieldError } from './field-errors';
import { nonNegative } from './int-or-percent';
import { goLabelSelector } from './label-selector-validation';
import { validateJobSpecBody } from './job-validation';
import { objOf } from './workload-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

/** DNS1035LabelMaxLength minus the `-<timestamp>` suffix of the Jobs the controller creates. */
const MAX_CRONJOB_NAME = 52;

/** validateCronJobSpec; `oldSpec` given on update (the time zone is checked only when it changes). */
function cronJobSpec(spec: Obj, oldSpec?: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const schedule = typeof spec.schedule === 'string' ? spec.schedule : '';
  const timeZone = spec.timeZone;
  if (schedule === '') errs.push(requiredField('spec.schedule', ''));
  else {
    const err = cronScheduleError(schedule);
    if (err) errs.push(invalidField('spec.schedule', schedule, err));
    if (schedule.includes('TZ') && typeof timeZone === 'string') errs.push(invalidField('spec.schedule', schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  }
  errs.push(...nonNegative(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'));
  if (!oldSpec || oldSpec.timeZone !== timeZone) errs.push(...validateTimeZone(timeZone));
  errs.push(...concurrencyPolicy(spec.concurrencyPolicy));
  errs.push(...jobTemplateSpec(objOf(objOf(spec.jobTemplate).spec)));
  errs.push(...nonNegative(spec.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit'));
  errs.push(...nonNegative(spec.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit'));
  return errs;
}

function validateTimeZone(timeZone: unknown): FieldError[] {
  if (typeof timeZone !== 'string') return [];
  const path = 'spec.timeZone';
  if (timeZone === '') return [invalidField(path, timeZone, 'timeZone must be nil or non-empty string')];
  const errs: FieldError[] = [];
  if (timeZone.toLowerCase() === 'local') errs.push(invalidField(path, timeZone, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  const err = loadLocationError(timeZone);
  if (err) errs.push(invalidField(path, timeZone, err));
  return errs;
}

function concurrencyPolicy(policy: unknown): FieldError[] {
  switch (policy) {
    case 'Allow':
    case 'Forbid':
    case 'Replace':
      return [];
    case undefined:
    case null:
    case '':
      return [requiredField('spec.concurrencyPolicy', '')];
    default:
      return [notSupportedField('spec.concurrencyPolicy', String(policy), ['Allow', 'Forbid', 'Replace'])];
  }
}

/** ValidateJobTemplateSpec: the Job spec rules; the selector is generated for each Job, so none may be given. */
function jobTemplateSpec(spec: Obj): FieldError[] {
  const errs = validateJobSpecBody(spec, 'spec.jobTemplate.spec');
  if (isPlainObject(spec.selector)) errs.push(invalidField('spec.jobTemplate.spec.selector', goLabelSelector(spec.selector), '`selector` will be auto-generated'));
  if (spec.manualSelector === true) errs.push(notSupportedField('spec.jobTemplate.spec.manualSelector', true, ['nil', 'false']));
  return errs;
}

/** ValidateCronJobCreate (after the metadata rules). */
export function validateCronJob(obj: Obj): FieldError[] {
  const errs = cronJobSpec(objOf(obj.spec));
  const name = String(objOf(obj.metadata).name ?? '');
  if (name.length > MAX_CRONJOB_NAME) errs.push(invalidField('metadata.name', name, `must be no more than ${MAX_CRONJOB_NAME} characters`));
  return errs;
}

/** ValidateCronJobUpdate: the spec rules (no name limit, so older long names stay updatable). */
export function validateCronJobUpdate(next: Obj, old: Obj): FieldError[] {
  return cronJobSpec(objOf(next.spec), objOf(old.spec));
}
