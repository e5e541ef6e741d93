/**
 * The parts of a CustomResourceDefinition's spec v1.26 validates on their own
 * (apiextensions validation.go): ValidateCustomResourceDefinitionNames, the deprecation warning,
 * ValidateCustomResourceDefinitionSubresources (scale paths), ValidateCustomResourceColumnDefinition
 * and validateCustomResourceConversion. Field paths are the internal type's, as Go reports them
 * (`spec.conversion.webhookClientConfig`, `additionalPrinterColumns[0].JSONPath`). Pure.
 */
import { forbiddenField, invalidField, notSupportedField, requiredField, type FieldError } from './field-errors';
import { recognizedOrEmpty, validateReviewVersions } from './review-versions-validation';
import { isDns1035Label } from './names';
import { validateWebhookClientConfig } from './webhook-client-config-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

const PRINTER_COLUMN_TYPES = 'boolean,date,integer,number,string';
const PRINTER_COLUMN_FORMATS = 'byte,date,date-time,double,float,int32,int64,password';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => String(x)) : []);

/** `required` and not among `accepted`: validateEnumStrings. */
export function validateEnum(path: string, value: string, accepted: readonly string[]): FieldError[] {
  if (value === '') return [requiredField(path, '')];
  return accepted.includes(value) ? [] : [notSupportedField(path, value, accepted)];
}

/** ValidateCustomResourceDefinitionNames (formats only; the spec requires the names separately). */
export function validateCrdNames(names: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const label = (field: string, value: string, lower: boolean) => {
    const failures = isDns1035Label(lower ? value.toLowerCase() : value);
    if (value.length > 0 && failures.length > 0) {
      errs.push(invalidField(`${path}.${field}`, value, (lower ? 'may have mixed case, but should otherwise match: ' : '') + failures.join(',')));
    }
  };
  label('plural', str(names.plural), false);
  label('singular', str(names.singular), false);
  label('kind', str(names.kind), true);
  label('listKind', str(names.listKind), true);
  strings(names.shortNames).forEach((s, i) => {
    const failures = isDns1035Label(s);
    if (failures.length > 0) errs.push(invalidField(`${path}.shortNames[${i}]`, s, failures.join(',')));
  });
  if (str(names.kind).length > 0 && names.kind === names.listKind) errs.push(invalidField(`${path}.listKind`, str(names.listKind), 'kind and listKind may not be the same'));
  strings(names.categories).forEach((c, i) => {
    const failures = isDns1035Label(c);
    if (failures.length > 0) errs.push(invalidField(`${path}.categories[${i}]`, c, failures.join(',')));
  });
  return errs;
}

/** validateDeprecationWarning, as errors at `path`. */
export function validateDeprecationWarning(deprecated: boolean, warning: unknown, path: string): FieldError[] {
  if (typeof warning !== 'string') return [];
  const msgs: string[] = [];
  if (!deprecated) msgs.push('can only be set for deprecated versions');
  else {
    if (Buffer.byteLength(warning, 'utf8') > 256) msgs.push('must be <= 256 characters long');
    if (warning.length === 0) msgs.push('must not be an empty string');
    let index = 0;
    for (const ch of warning) {
      if (/[\p{Cc}]/u.test(ch)) {
        msgs.push(`must only contain printable UTF-8 characters; non-printable character found at index ${index}`);
        break;
      }
      index += Buffer.byteLength(ch, 'utf8');
    }
  }
  return msgs.map((m) => invalidField(path, warning, m));
}

/** ValidateCustomResourceDefinitionSubresources: the scale subresource's JSON paths. */
export function validateSubresources(subresources: unknown, path: string): FieldError[] {
  if (!isPlainObject(subresources) || !isPlainObject(subresources.scale)) return [];
  const scale = subresources.scale;
  const errs: FieldError[] = [];
  const replicasPath = (key: string, under: string) => {
    const value = str(scale[key]);
    const at = `${path}.scale.${key}`;
    if (value.length === 0) return errs.push(requiredField(at, ''));
    const simple = validateSimpleJsonPath(value, at);
    if (simple.length > 0) return errs.push(...simple);
    if (!value.startsWith(`.${under}.`)) errs.push(invalidField(at, value, `should be a json path under .${under}`));
    return undefined;
  };
  replicasPath('specReplicasPath', 'spec');
  replicasPath('statusReplicasPath', 'status');
  const selector = str(scale.labelSelectorPath);
  if (selector.length > 0) {
    const at = `${path}.scale.labelSelectorPath`;
    const simple = validateSimpleJsonPath(selector, at);
    if (simple.length > 0) errs.push(...simple);
    else if (!selector.startsWith('.spec.') && !selector.startsWith('.status.')) errs.push(invalidField(at, selector, 'should be a json path under either .spec or .status'));
  }
  return errs;
}

function validateSimpleJsonPath(s: string, path: string): FieldError[] {
  if (s.length === 0) return [invalidField(path, s, 'must not be empty')];
  if (s[0] !== '.') return [invalidField(path, s, 'must be a simple json path starting with .')];
  return [];
}

/** ValidateCustomResourceColumnDefinition. */
export function validateColumn(col: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(col.type);
  const format = str(col.format);
  const jsonPath = str(col.jsonPath);
  if (str(col.name).length === 0) errs.push(requiredField(`${path}.name`, ''));
  if (type.length === 0) errs.push(requiredField(`${path}.type`, `must be one of ${PRINTER_COLUMN_TYPES}`));
  else if (!PRINTER_COLUMN_TYPES.split(',').includes(type)) errs.push(invalidField(`${path}.type`, type, `must be one of ${PRINTER_COLUMN_TYPES}`));
  if (format.length > 0 && !PRINTER_COLUMN_FORMATS.split(',').includes(format)) errs.push(invalidField(`${path}.format`, format, `must be one of ${PRINTER_COLUMN_FORMATS}`));
  if (jsonPath.length === 0) errs.push(requiredField(`${path}.JSONPath`, ''));
  else errs.push(...validateSimpleJsonPath(jsonPath, `${path}.JSONPath`));
  return errs;
}

/** Whether a stored CRD's conversion review versions include a recognised one (or none are set). */
export function hasRecognizedReviewVersionOrEmpty(conversion: unknown): boolean {
  return recognizedOrEmpty(strings(isPlainObject(conversion) && isPlainObject(conversion.webhook) ? conversion.webhook.conversionReviewVersions : undefined));
}

/** validateCustomResourceConversion on the v1 `spec.conversion` (webhook.clientConfig is the internal webhookClientConfig). */
export function validateConversion(conversion: unknown, requireRecognizedVersion: boolean, path: string): FieldError[] {
  if (!isPlainObject(conversion)) return [];
  const strategy = str(conversion.strategy);
  const webhook = isPlainObject(conversion.webhook) ? conversion.webhook : undefined;
  const clientConfig = webhook && isPlainObject(webhook.clientConfig) ? webhook.clientConfig : undefined;
  const reviewVersions = strings(webhook?.conversionReviewVersions);
  const errs = validateEnum(`${path}.strategy`, strategy, ['None', 'Webhook']);
  if (strategy === 'Webhook') {
    if (!clientConfig) errs.push(requiredField(`${path}.webhookClientConfig`, 'required when strategy is set to Webhook'));
    else errs.push(...validateWebhookClientConfig(clientConfig, `${path}.webhookClientConfig`));
    errs.push(...validateReviewVersions(reviewVersions, requireRecognizedVersion, `${path}.conversionReviewVersions`, ''));
  } else {
    if (clientConfig) errs.push(forbiddenField(`${path}.webhookClientConfig`, 'should not be set when strategy is not set to Webhook'));
    if (reviewVersions.length > 0) errs.push(forbiddenField(`${path}.conversionReviewVersions`, 'should not be set when strategy is not set to Webhook'));
  }
  return errs;
}

