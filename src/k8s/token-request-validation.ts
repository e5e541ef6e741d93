/**
 * ValidateTokenRequest (pkg/apis/authentication/validation): `spec.expirationSeconds` at least ten
 * minutes and at most 2^32 seconds.
 */
import { invalidField, type FieldError } from './field-errors';

export const MIN_TOKEN_EXPIRATION_SECONDS = 10 * 60;
export const MAX_TOKEN_EXPIRATION_SECONDS = 2 ** 32;

export function validateTokenRequest(expirationSeconds: number): FieldError[] {
  const errors: FieldError[] = [];
  if (expirationSeconds < MIN_TOKEN_EXPIRATION_SECONDS) {
    errors.push(invalidField('spec.expirationSeconds', expirationSeconds, 'may not specify a duration less than 10 minutes'));
  }
  if (expirationSeconds > MAX_TOKEN_EXPIRATION_SECONDS) {
    errors.push(invalidField('spec.expirationSeconds', expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
  }
  return errors;
}
