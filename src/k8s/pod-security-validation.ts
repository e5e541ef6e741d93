/**
 * core/validation's ValidatePodSecurityContext and a container's ValidateSecurityContext (v1.26):
 * user and group ids, sysctls, fsGroupChangePolicy, seccomp profiles (procMount is dropped by the
 * strategy while its feature gate is off, as in v1.26). Not ported: the
 * privileged-container policy (a cluster flag) and the two rules whose value is the whole
 * security context as `%#v` prints it (pointer addresses included). Pure.
 */
import { invalidField, notSupportedField, requiredField, type FieldError } from './field-errors';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

/** The largest int32 (Go's math.MaxInt32). */
export const MAX_INT32 = 2147483647;
const SYSCTL_SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const SYSCTL_FMT = `^(${SYSCTL_SEGMENT}[\\./])*${SYSCTL_SEGMENT}$`;
const SYSCTL = new RegExp(SYSCTL_FMT);
const SYSCTL_MESSAGE = `must have at most 253 characters and match regex ${SYSCTL_FMT}`;
const SECCOMP_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];

/** validation.IsValidUserID / IsValidGroupID. */
function validateId(value: unknown, path: string): FieldError[] {
  if (typeof value !== 'number') return [];
  return value < 0 || value > MAX_INT32 ? [invalidField(path, value, `must be between 0 and ${MAX_INT32}, inclusive`)] : [];
}

function validateSeccompProfile(profile: unknown, path: string): FieldError[] {
  if (!isPlainObject(profile)) return [];
  const errs: FieldError[] = [];
  const type = typeof profile.type === 'string' ? profile.type : '';
  if (type === '') errs.push(requiredField(`${path}.type`, 'type is required when seccompProfile is set'));
  else if (!SECCOMP_TYPES.includes(type)) errs.push(notSupportedField(`${path}.type`, type, SECCOMP_TYPES));
  if (type === 'Localhost') {
    if (typeof profile.localhostProfile !== 'string') errs.push(requiredField(`${path}.localhostProfile`, 'must be set when seccomp type is Localhost'));
    else {
      const p = profile.localhostProfile;
      if (p.startsWith('/')) errs.push(invalidField(`${path}.localhostProfile`, p, 'must be a relative path'));
      if (p.split('/').includes('..')) errs.push(invalidField(`${path}.localhostProfile`, p, "must not contain '..'"));
    }
  }
  return errs;
}

function validateSysctls(sysctls: unknown[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  sysctls.forEach((s, i) => {
    const name = isPlainObject(s) && typeof s.name === 'string' ? s.name : '';
    if (name.length === 0) errs.push(requiredField(`${path}[${i}].name`, ''));
    else if (name.length > 253 || !SYSCTL.test(name)) errs.push(invalidField(`${path}[${i}].name`, name, SYSCTL_MESSAGE));
    else if (names.has(name)) errs.push({ type: 'Duplicate', field: `${path}[${i}].name`, value: name });
    names.add(name);
  });
  return errs;
}

/** ValidatePodSecurityContext after its hostNetwork rule (`spec` carries hostPID, as the internal security context does). */
export function validatePodSecurityContext(spec: Obj, path: string): FieldError[] {
  const sc = spec.securityContext;
  if (!isPlainObject(sc)) return [];
  const errs = [...validateId(sc.fsGroup, `${path}.fsGroup`), ...validateId(sc.runAsUser, `${path}.runAsUser`), ...validateId(sc.runAsGroup, `${path}.runAsGroup`)];
  (Array.isArray(sc.supplementalGroups) ? sc.supplementalGroups : []).forEach((g: unknown, i: number) => errs.push(...validateId(g, `${path}.supplementalGroups[${i}]`)));
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    errs.push(invalidField(`${path}.shareProcessNamespace`, true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  }
  if (Array.isArray(sc.sysctls) && sc.sysctls.length > 0) errs.push(...validateSysctls(sc.sysctls, `${path}.sysctls`));
  if (typeof sc.fsGroupChangePolicy === 'string' && !['Always', 'OnRootMismatch'].includes(sc.fsGroupChangePolicy)) {
    errs.push(notSupportedField(`${path}.fsGroupChangePolicy`, sc.fsGroupChangePolicy, ['Always', 'OnRootMismatch']));
  }
  errs.push(...validateSeccompProfile(sc.seccompProfile, `${path}.seccompProfile`));
  return errs;
}

/** ValidateSecurityContext of a container. */
export function validateSecurityContext(sc: unknown, path: string): FieldError[] {
  if (!isPlainObject(sc)) return [];
  const errs = [...validateId(sc.runAsUser, `${path}.runAsUser`), ...validateId(sc.runAsGroup, `${path}.runAsGroup`)];
  errs.push(...validateSeccompProfile(sc.seccompProfile, `${path}.seccompProfile`));
  return errs;
}
