/**
 * A webhook's clientConfig as the apiserver checks it (k8s.io/apiserver/pkg/util/webhook:
 * ValidateWebhookURL, ValidateWebhookService), URLs parsed as Go's net/url.Parse parses them
 * (./go-url). Pure.
 */
import { invalidField, requiredField, type FieldError } from './field-errors';
import { isDns1123Subdomain } from './names';
import { isPlainObject } from '../wire/json-object';
import { parseGoUrl } from './go-url';

type Obj = Record<string, any>;

const FORM = '; desired format: https://host[/path]';

/** The exactly-one-of url/service rule, then the URL's or the service's own rules. */
export function validateWebhookClientConfig(clientConfig: unknown, path: string): FieldError[] {
  const cc: Obj = isPlainObject(clientConfig) ? clientConfig : {};
  const hasUrl = typeof cc.url === 'string';
  const hasService = isPlainObject(cc.service);
  if (hasUrl === hasService) return [requiredField(path, 'exactly one of url or service is required')];
  if (hasUrl) return validateWebhookUrl(cc.url, `${path}.url`);
  const s = cc.service as Obj;
  // The Go call passes the service's name as the namespace argument and its namespace as the name.
  return validateWebhookService(`${path}.service`, String(s.name ?? ''), String(s.namespace ?? ''), typeof s.path === 'string' ? s.path : undefined, Number(s.port ?? 0));
}

/** ValidateWebhookURL with forceHttps. */
export function validateWebhookUrl(url: string, path: string): FieldError[] {
  const parsed = parseGoUrl(url);
  if (typeof parsed === 'string') return [requiredField(path, `url must be a valid URL: ${parsed}${FORM}`)];
  const errs: FieldError[] = [];
  if (parsed.scheme !== 'https') errs.push(invalidField(path, parsed.scheme, `'https' is the only allowed URL scheme${FORM}`));
  if (parsed.host.length === 0) errs.push(invalidField(path, parsed.host, `host must be provided${FORM}`));
  if (parsed.user !== undefined) errs.push(invalidField(path, parsed.user, 'user information is not permitted in the URL'));
  if (parsed.fragment.length !== 0) errs.push(invalidField(path, parsed.fragment, 'fragments are not permitted in the URL'));
  if (parsed.rawQuery.length !== 0) errs.push(invalidField(path, parsed.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

/** ValidateWebhookService(fldPath, namespace, name, path, port), arguments in Go's order. */
export function validateWebhookService(path: string, namespace: string, name: string, urlPath: string | undefined, port: number): FieldError[] {
  const errs: FieldError[] = [];
  if (name.length === 0) errs.push(requiredField(`${path}.name`, 'service name is required'));
  if (namespace.length === 0) errs.push(requiredField(`${path}.namespace`, 'service namespace is required'));
  if (!(Number.isInteger(port) && port >= 1 && port <= 65535)) errs.push(invalidField(`${path}.port`, port, 'port is not valid: must be between 1 and 65535, inclusive'));
  if (urlPath === undefined || urlPath === '/' || urlPath.length === 0) return errs;
  const field = `${path}.path`;
  if (urlPath === '//') return [...errs, invalidField(field, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(invalidField(field, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step.length === 0) {
      errs.push(invalidField(field, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDns1123Subdomain(step)) errs.push(invalidField(field, urlPath, `segment[${i}]: ${failure}`));
  });
  return errs;
}
