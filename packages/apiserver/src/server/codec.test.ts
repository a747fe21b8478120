import { describe, expect, it } from "vitest";
import { TurnBudget } from "../util/eventloop/turn-budget.ts";
import { decodeBody, decodeBodyInTurns, parseBody } from "./codec.ts";
import { duplicateFields } from "./json-duplicates.ts";
import { findResource } from "./resources.ts";

const services = findResource("", "v1", "services")!;
const body = (s: string) => Buffer.from(s);

describe("duplicateFields", () => {
  it.each([
    ['{"a":1}', []],
    ['{"a":1,"a":2}', ["a"]],
    ['{"spec":{"type":"A","type":"B"}}', ["spec.type"]],
    ['{"spec":{"ports":[{"port":1,"port":2}]}}', ["spec.ports[0].port"]],
    ['{"a":{"x":1},"b":{"x":1}}', []],
    ['{"a":"\\"a\\"","a":1}', ["a"]],
    ["not json", []],
  ])("%s", (text, want) => {
    expect(duplicateFields(text)).toEqual(want);
  });
});

describe("parseBody duplicate keys (members counted in the text against the parsed value)", () => {
  it.each([
    ['{"a":1}', []],
    ['{"a":1,"a":2}', ["a"]],
    ['{"l":[{"k":1},{"k":2,"k":3}]}', ["l[1].k"]],
    ['{"a":"x:y","b":"\\":"}', []],
    ['{"a":"\\"","a":"\\":"}', ["a"]],
    ['{"m":{},"n":[[],[{}]],"o":{"p":{"q":1,"q":2}}}', ["o.p.q"]],
    ['{"__proto__":1,"__proto__":2}', ["__proto__"]],
  ])("%s", (text, want) => {
    const duplicates: string[] = [];
    parseBody(Buffer.from(text), "json", duplicates);
    expect(duplicates).toEqual(want);
  });
});

describe("decodeBody (fieldValidation and upstream's decode errors)", () => {
  const svc =
    '{"apiVersion":"v1","kind":"Service","metadata":{"name":"a"},"spec":{"foo":1,"ports":[{"port":80}],"type":"ClusterIP","type":"NodePort"}}';

  it("Strict rejects unknown and duplicate fields in one message", () => {
    expect(() => decodeBody(services, body(svc), "json", "Strict")).toThrowError(
      'Service in version "v1" cannot be handled as a Service: strict decoding error: unknown field "spec.foo", duplicate field "spec.type"',
    );
  });

  it("Warn decodes and returns one warning per problem; Ignore is silent", () => {
    const w = decodeBody(services, body(svc), "json", "Warn");
    expect(w.warnings).toEqual(['unknown field "spec.foo"', 'duplicate field "spec.type"']);
    expect((w.obj["spec"] as Record<string, unknown>)["type"]).toBe("NodePort");
    expect(decodeBody(services, body(svc), "json", "Ignore").warnings).toEqual([]);
  });

  it("applies defaults", () => {
    const d = decodeBody(services, body('{"metadata":{"name":"a"},"spec":{"ports":[{"port":80}]}}'), "json", "Strict");
    expect(d.obj).toMatchObject({
      apiVersion: "v1",
      kind: "Service",
      spec: { type: "ClusterIP", sessionAffinity: "None", ports: [{ port: 80, protocol: "TCP", targetPort: 80 }] },
    });
  });

  it.each([
    [
      '{"apiVersion":"v1"',
      "json",
      'the object provided is unrecognized (must be of type Service): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"apiVersion":"v1")',
    ],
    [
      "",
      "json",
      "the object provided is unrecognized (must be of type Service): couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)",
    ],
    ['{"apiVersion":"v2","kind":"Service"}', "json", "the API version in the data (v2) does not match the expected API version (v1)"],
    ['{"kind":"Pod"}', "json", "the kind in the data (Pod) does not match the expected kind (Service)"],
    [
      '{"spec":{"ports":[{"port":"x"}]}}',
      "json",
      'Service in version "v1" cannot be handled as a Service: json: cannot unmarshal string into Go struct field ServicePort.spec.ports.port of type int32',
    ],
    ["a: [1\n", "yaml", /^the object provided is unrecognized \(must be of type Service\): error converting YAML to JSON: yaml: /],
  ] as const)("%j is a 400", (text, format, message) => {
    expect(() => decodeBody(services, body(text), format, "Strict")).toThrowError(message);
  });
});

describe("decodeBodyInTurns", () => {
  const services = findResource("", "v1", "services")!;
  const text = '{"metadata":{"name":"a","labels":{"x":"1"}},"spec":{"ports":[{"port":80}]},"extra":1}';

  it("decodes as decodeBody does, warnings included", async () => {
    expect(await decodeBodyInTurns(services, Buffer.from(text), "json", "Warn", new TurnBudget())).toEqual(
      decodeBody(services, Buffer.from(text), "json", "Warn"),
    );
  });

  it("gives the event loop a turn between parsing and decoding once the budget is spent", async () => {
    const order: string[] = [];
    setImmediate(() => order.push("other request"));
    const decoding = decodeBodyInTurns(services, Buffer.from(text), "json", "Ignore", new TurnBudget(0)).then(() => order.push("decoded"));
    order.push("parsed");
    await decoding;
    expect(order).toEqual(["parsed", "other request", "decoded"]);
  });

  it("answers a syntax error as decodeBody does", async () => {
    await expect(decodeBodyInTurns(services, Buffer.from("{"), "json", "Strict", new TurnBudget(0))).rejects.toThrowError(
      "the object provided is unrecognized (must be of type Service)",
    );
  });
});

describe("decodeBody for Lease", () => {
  const leases = findResource("coordination.k8s.io", "v1", "leases")!;

  it.each([
    ['{"metadata":{"name":5}}', "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string"],
    [
      '{"metadata":{"name":"a","labels":"x"}}',
      "json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string",
    ],
    [
      '{"metadata":{"name":"a","annotations":{"k":[1]}}}',
      "json: cannot unmarshal array into Go struct field ObjectMeta.metadata.annotations of type string",
    ],
    ['{"metadata":[]}', "json: cannot unmarshal array into Go struct field Lease.metadata of type v1.ObjectMeta"],
  ])("%s is a 400 naming the field", (text, detail) => {
    expect(() => decodeBody(leases, body(text), "json", "Warn")).toThrowError(
      `Lease in version "v1" cannot be handled as a Lease: ${detail}`,
    );
  });

  it("Strict refuses an unknown field, Warn reports it and drops it", () => {
    const text = '{"metadata":{"name":"a"},"spec":{"holderIdentity":"h","extra":1}}';
    expect(() => decodeBody(leases, body(text), "json", "Strict")).toThrowError('strict decoding error: unknown field "spec.extra"');
    const d = decodeBody(leases, body(text), "json", "Warn");
    expect(d.warnings).toEqual(['unknown field "spec.extra"']);
    expect(d.obj["spec"]).toEqual({ holderIdentity: "h" });
  });

  it.each([
    [
      '{"spec":{"leaseDurationSeconds":"abc"}}',
      "json: cannot unmarshal string into Go struct field LeaseSpec.spec.leaseDurationSeconds of type int32",
    ],
    [
      '{"spec":{"leaseTransitions":2147483648}}',
      "json: cannot unmarshal number 2147483648 into Go struct field LeaseSpec.spec.leaseTransitions of type int32",
    ],
  ])("%s is upstream's 400", (text, detail) => {
    expect(() => decodeBody(leases, body(text), "json", "Strict")).toThrowError(
      `Lease in version "v1" cannot be handled as a Lease: ${detail}`,
    );
  });
});

describe("parseBody limits (hostile bodies are 400s, not stack overflows or 500s)", () => {
  const alias =
    'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n';

  it.each([
    ["20000 nested JSON arrays", "[".repeat(20000) + "]".repeat(20000), "json", "json parse error: exceeded max depth of 100"],
    ["20000 nested JSON objects", '{"a":'.repeat(20000) + "1" + "}".repeat(20000), "json", "json parse error: exceeded max depth of 100"],
    [
      "20000 nested YAML flow sequences",
      "[".repeat(20000) + "]".repeat(20000),
      "yaml",
      "error converting YAML to JSON: yaml: exceeded max depth of 100",
    ],
    [
      "a YAML alias bomb",
      alias,
      "yaml",
      "error converting YAML to JSON: yaml: Excessive alias count indicates a resource exhaustion attack",
    ],
  ] as const)("%s", (_name, text, format, message) => {
    let err: unknown;
    try {
      decodeBody(services, body(text), format, "Warn");
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 400 });
    expect((err as { status: { message: string } }).status.message).toContain(message);
  });

  it("does not count brackets inside JSON strings", () => {
    const d = decodeBody(
      services,
      body(JSON.stringify({ metadata: { name: "a", annotations: { x: "[".repeat(500) } }, spec: { ports: [{ port: 80 }] } })),
      "json",
      "Strict",
    );
    expect(d.obj.metadata.annotations).toEqual({ x: "[".repeat(500) });
  });
});
