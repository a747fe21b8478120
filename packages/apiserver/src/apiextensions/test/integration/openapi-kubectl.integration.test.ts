/**
 * Real kubectl 1.33 against a CRD's OpenAPI: `kubectl explain` (kind, field, --recursive,
 * --api-version for the second version) renders its explain template from our /openapi/v3
 * document, and `--output=plaintext-openapiv2` from the /openapi/v2 protobuf. The expected text is the template's rendering
 * (kubectl pkg/explain/v2/templates/plaintext.tmpl) of the schema builder.go publishes for this
 * CRD: fields in name order, `<Object>` for inline objects and for the int-or-string field (no
 * type), `<ObjectMeta>` through the metadata reference, `-required-` from `required`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD } from "./fixtures-testing.ts";
import { cronTabCRD } from "./openapi-fixtures-testing.ts";

const conv = "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md";

describe.runIf(haveKubectl())("kubectl and the OpenAPI of a CRD", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, cronTabCRD());
  });
  afterAll(async () => {
    await s?.close();
  });

  const explain = async (...args: string[]): Promise<string> => {
    const r = await s.kubectl(["explain", ...args]);
    expect(r.code, r.stderr).toBe(0);
    return r.stdout;
  };

  it("explain crontabs prints the kind, its description and its fields", async () => {
    const out = await explain("crontabs");
    expect(out).toContain(
      "GROUP:      stable.example.com\nKIND:       CronTab\nVERSION:    v1\n\nDESCRIPTION:\n    CronTab runs a container on a schedule.\n",
    );
    expect(out).toContain(
      [
        "FIELDS:",
        "  apiVersion\t<string>",
        "    APIVersion defines the versioned schema of this representation of an object.",
        "    Servers should convert recognized schemas to the latest internal value, and",
        "    may reject unrecognized values. More info:",
        `    ${conv}#resources`,
        "",
      ].join("\n"),
    );
    expect(out).toContain(`  metadata\t<ObjectMeta>\n    Standard object's metadata. More info:\n    ${conv}#metadata\n`);
    expect(out).toContain("  spec\t<Object>\n    CronTabSpec is the desired state of a CronTab.\n");
    expect(out).toContain("  status\t<Object>\n    <no description>\n");
  });

  it("explain crontabs.spec lists the schema's fields with types, required and descriptions", async () => {
    const out = await explain("crontabs.spec");
    expect(out).toContain("FIELD: spec <Object>");
    expect(out).toContain(
      [
        "FIELDS:",
        "  cronSpec\t<string> -required-",
        "    The cron schedule, in Cron format.",
        "",
        "  image\t<string>",
        "    The image to run.",
        "",
        "  note\t<string>",
        "    <no description>",
        "",
        "  port\t<Object>",
        "    The port, a number or a name.",
        "",
        "  replicas\t<integer>",
        "    How many copies to run.",
        "",
      ].join("\n"),
    );
  });

  it("explain crontabs.spec.replicas prints the one field", async () => {
    const out = await explain("crontabs.spec.replicas");
    expect(out).toContain("FIELD: replicas <integer>");
    expect(out).toMatch(/DESCRIPTION:\n {4}How many copies to run\.\n/);
  });

  it("explain crontabs --recursive prints the field tree", async () => {
    const out = await explain("crontabs", "--recursive");
    expect(out).toContain(
      [
        "  spec\t<Object>",
        "    cronSpec\t<string> -required-",
        "    image\t<string>",
        "    note\t<string>",
        "    port\t<Object>",
        "    replicas\t<integer>",
        "  status\t<Object>",
        "    replicas\t<integer>",
        "    selector\t<string>",
        "",
      ].join("\n"),
    );
    // ObjectMeta is expanded from the built-in definitions the CRD's document carries.
    expect(out).toMatch(/\n {4}ownerReferences\t<\[\]OwnerReference>\n/);
  });

  it("explain --api-version picks the second version's document", async () => {
    const out = await explain("crontabs.spec", "--api-version=stable.example.com/v1beta1");
    expect(out).toContain("VERSION:    v1beta1");
    expect(out).toContain("  cronSpec\t<string>\n    The v1beta1 schedule.\n");
    expect(out).not.toContain("replicas");
  });

  // `--output=plaintext-openapiv2` explains from /openapi/v2 in gnostic protobuf: the CRD is there too, in its v2 form.
  it("explain --output=plaintext-openapiv2 reads the CRD from the v2 protobuf", async () => {
    const out = await explain("crontabs.spec", "--output=plaintext-openapiv2");
    expect(out).toContain("KIND:     CronTab\nVERSION:  stable.example.com/v1\n");
    expect(out).toMatch(/cronSpec\t<string> -required-\n {5}The cron schedule, in Cron format\./);
    expect(out).toMatch(/replicas\t<integer>\n {5}How many copies to run\./);
  });
});
