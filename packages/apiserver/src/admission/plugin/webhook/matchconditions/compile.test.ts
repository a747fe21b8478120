// environment/base.go adds library.AuthzSelectors to webhook matchConditions' environment only with AuthorizeWithSelectors on.
import { describe, expect, it } from "vitest";
import { compileMatchCondition } from "./compile.ts";

describe("matchConditions under the AuthorizeWithSelectors gate", () => {
  const selecting = "authorizer.group('').resource('pods').labelSelector('app=web').check('list').allowed()";

  it("compile fieldSelector()/labelSelector() with the gate on (the default)", () => {
    expect(compileMatchCondition(selecting).error).toBeUndefined();
  });

  it("refuse them with the gate off, and keep the rest of the authorizer library", () => {
    expect(compileMatchCondition(selecting, { authorizeWithSelectors: false }).error?.detail).toMatch(/^compilation failed: .*labelSelector/);
    expect(compileMatchCondition("authorizer.group('').resource('pods').check('list').allowed()", { authorizeWithSelectors: false }).error).toBeUndefined();
  });
});
