import { describe, expect, it } from "vitest";
import { StatusError } from "../../errors/index.ts";
import { setDefaultsTokenRequestSpec, TokenRequestSchema, type TokenRequest } from "./token-request.ts";
import { validateTokenRequest } from "./validation.ts";

const request = (expirationSeconds?: number): TokenRequest =>
  TokenRequestSchema.parse({ spec: expirationSeconds === undefined ? {} : { expirationSeconds } });

// pkg/apis/authentication/validation/validation_test.go TestValidateTokenRequest.
describe("ValidateTokenRequest", () => {
  it.each([
    { name: "valid", exp: 3600, errs: [] },
    { name: "exactly 10 minutes", exp: 600, errs: [] },
    { name: "2^32 seconds", exp: 2 ** 32, errs: [] },
    {
      name: "less than 10 minutes",
      exp: 599,
      errs: ["spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes"],
    },
    {
      name: "more than 2^32 seconds",
      exp: 2 ** 32 + 1,
      errs: ["spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds"],
    },
  ])("$name", ({ exp, errs }) => {
    const got = validateTokenRequest(request(exp));
    expect(got.length).toBe(errs.length);
    if (errs.length > 0)
      expect(StatusError.invalid({ group: "authentication.k8s.io", kind: "TokenRequest" }, "", got).message).toBe(
        `TokenRequest.authentication.k8s.io "" is invalid: ${errs.join(", ")}`,
      );
  });

  it("defaults expirationSeconds to one hour", () => {
    const tr = request();
    setDefaultsTokenRequestSpec(tr.spec);
    expect(tr.spec.expirationSeconds).toBe(3600);
    expect(validateTokenRequest(tr)).toEqual([]);
  });
});
