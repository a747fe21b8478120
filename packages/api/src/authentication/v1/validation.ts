/** ValidateTokenRequest (pkg/apis/authentication/validation/validation.go). */
import { field, type FieldErrorList } from "../../errors/index.ts";
import type { TokenRequest } from "./token-request.ts";

/** The shortest token lifetime a TokenRequest may ask for: 10 minutes. */
export const minTokenExpirationSeconds = 10 * 60;
/** The longest: 2^32 seconds. */
export const maxTokenExpirationSeconds = 2 ** 32;

/** ValidateTokenRequest: the lifetime is between 10 minutes and 2^32 seconds. */
export function validateTokenRequest(tr: TokenRequest): FieldErrorList {
  const errs: FieldErrorList = [];
  const exp = tr.spec.expirationSeconds ?? 0;
  if (exp < minTokenExpirationSeconds)
    errs.push(field.invalid("spec.expirationSeconds", exp, "may not specify a duration less than 10 minutes"));
  if (exp > maxTokenExpirationSeconds)
    errs.push(field.invalid("spec.expirationSeconds", exp, "may not specify a duration larger than 2^32 seconds"));
  return errs;
}
