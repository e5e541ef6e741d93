/**
 * core/validation's ValidateResourceRequirements for a container's `resources` (quantities:
 * src/k8s/quantity.ts). Quantities that do not parse never get here: the decoder answers them
 * with a 400 first. Pure.
 */
import { forbiddenField, invalidField, requiredField, type FieldError } from './field-errors';
import { isQualifiedName } from './object-meta-validation';
import { compareQuantities, formatQuantity, parseQuantity, type Quantity } from './quantity';

type Obj = Record<string, any>;

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const isHugePages = (name: string) => name.startsWith('hugepages-');
const isNativeResource = (name: string) => !name.includes('/') || name.includes('kubernetes.io/');
/** helper.IsOvercommitAllowed: native resources other than hugepages. */
const overcommitAllowed = (name: string) => isNativeResource(name) && !isHugePages(name);

/** helper.IsStandardResourceName: the quota and compute names, and hugepages. */
const STANDARD_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu', 'limits.memory',
  'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims',
  'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers',
]);
const isStandardResourceName = (name: string) => STANDARD_RESOURCES.has(name) || name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');

/**
 * validateContainerResourceName: validateResourceName (a qualified name, else a standard one when
 * unprefixed), then a standard container resource when unprefixed, an extended one otherwise.
 */
function validateResourceName(name: string, field: string): FieldError[] {
  if (STANDARD_CONTAINER_RESOURCES.has(name)) return []; // qualified names, and standard
  const errs = isQualifiedName(name).map((msg) => invalidField(field, name, msg));
  if (errs.length === 0 && !name.includes('/') && !isStandardResourceName(name)) errs.push(invalidField(field, name, 'must be a standard resource type or fully qualified'));
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePages(name)) errs.push(invalidField(field, name, 'must be a standard resource for containers'));
  } else if (!isNativeResource(name) && (name.startsWith('requests.') || isQualifiedName(`requests.${name}`).length > 0)) {
    errs.push(invalidField(field, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** ValidateResourceQuantityValue's sign rule (`value.String()` shown). */
function validateQuantityValue(q: Quantity, field: string): FieldError[] {
  return q.negative ? [invalidField(field, formatQuantity(q), 'must be greater than or equal to 0')] : [];
}

/**
 * ValidateResourceRequirements. Go ranges over the limits and requests maps in random order;
 * here the keys are taken sorted, one of the orders a real apiserver can answer with.
 */
export function validateResourceRequirements(resources: unknown, path: string): FieldError[] {
  const r: Obj = resources !== null && typeof resources === 'object' ? (resources as Obj) : {};
  const limits: Obj = r.limits !== null && typeof r.limits === 'object' ? r.limits : {};
  const requests: Obj = r.requests !== null && typeof r.requests === 'object' ? r.requests : {};
  const limPath = `${path}.limits`;
  const reqPath = `${path}.requests`;
  const errs: FieldError[] = [];
  let cpuOrMemory = false;
  let hugePages = false;
  for (const name of Object.keys(limits).sort()) {
    const field = `${limPath}[${name}]`;
    errs.push(...validateResourceName(name, field));
    const q = parseQuantity(limits[name]);
    if (q) errs.push(...validateQuantityValue(q, field));
    if (isHugePages(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  for (const name of Object.keys(requests).sort()) {
    const field = `${reqPath}[${name}]`;
    errs.push(...validateResourceName(name, field));
    const q = parseQuantity(requests[name]);
    if (q) errs.push(...validateQuantityValue(q, field));
    const limit = name in limits ? parseQuantity(limits[name]) : undefined;
    if (q && limit) {
      const cmp = compareQuantities(q, limit);
      if (cmp !== 0 && !overcommitAllowed(name)) errs.push(invalidField(reqPath, formatQuantity(q), `must be equal to ${name} limit`));
      else if (cmp > 0) errs.push(invalidField(reqPath, formatQuantity(q), `must be less than or equal to ${name} limit`));
    } else if (!(name in limits) && !overcommitAllowed(name)) {
      errs.push(requiredField(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePages(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  if (!cpuOrMemory && hugePages) errs.push(forbiddenField(path, 'HugePages require cpu or memory'));
  return errs;
}
