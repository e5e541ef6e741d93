/**
 * The review versions a webhook configuration or a CRD's conversion webhook lists, as v1.26
 * checks them (validateAdmissionReviewVersions in admissionregistration, validateConversion
 * ReviewVersions in apiextensions): the same rules, only the text for an empty list differs. Pure.
 */
import { goStringSlice, invalidField, requiredField, type FieldError } from './field-errors';
import { isDns1035Label } from './names';

/** The versions of AdmissionReview and ConversionReview a v1.26 apiserver sends. */
export const REVIEW_VERSIONS: readonly string[] = ['v1', 'v1beta1'];

/**
 * At least one (else Required with `requiredDetail`), no duplicates, DNS-1035 labels, and — when
 * `requireRecognized` — one of REVIEW_VERSIONS.
 */
export function validateReviewVersions(versions: readonly string[], requireRecognized: boolean, path: string, requiredDetail: string): FieldError[] {
  if (versions.length === 0) return [requiredField(path, requiredDetail)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalidField(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDns1035Label(v)) errs.push(invalidField(`${path}[${i}]`, v, msg));
  });
  if (requireRecognized && !recognizedOrEmpty(versions)) errs.push(invalidField(path, goStringSlice([...versions]), `must include at least one of ${REVIEW_VERSIONS.join(', ')}`));
  return errs;
}

/** Whether the list names a version this apiserver sends, or is empty (what an update keeps requiring). */
export function recognizedOrEmpty(versions: readonly string[]): boolean {
  return versions.length === 0 || versions.some((v) => REVIEW_VERSIONS.includes(v));
}
