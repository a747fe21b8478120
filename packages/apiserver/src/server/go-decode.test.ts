import { describe, expect, it } from "vitest";
import { EndpointSliceSchema, ServiceSchema } from "@servicenet/api";
import { goDecodeError, wrapUnstructuredInts } from "./go-decode.ts";
import { goTypesOf } from "./go-types.ts";
import { literalAt } from "./json-literal.ts";

const svc = goTypesOf("v1", "Service")!;
const decode = (text: string): string | undefined => goDecodeError(ServiceSchema, JSON.parse(text), svc, (at) => literalAt(text, at));

const cases: [string, string, string | undefined][] = [
  [
    "int32 overflow",
    '{"spec":{"ports":[{"port":2147483648}]}}',
    "json: cannot unmarshal number 2147483648 into Go struct field ServicePort.spec.ports.port of type int32",
  ],
  [
    "int32 underflow",
    '{"spec":{"ports":[{"port":80,"nodePort":-2147483649}]}}',
    "json: cannot unmarshal number -2147483649 into Go struct field ServicePort.spec.ports.nodePort of type int32",
  ],
  [
    "a fraction",
    '{"spec":{"ports":[{"port":80.5}]}}',
    "json: cannot unmarshal number 80.5 into Go struct field ServicePort.spec.ports.port of type int32",
  ],
  [
    "an exponent, quoted as written",
    '{"spec":{"healthCheckNodePort":1e30}}',
    "json: cannot unmarshal number 1e30 into Go struct field ServiceSpec.spec.healthCheckNodePort of type int32",
  ],
  [
    "a string for an int",
    '{"spec":{"ports":[{"port":"80"}]}}',
    "json: cannot unmarshal string into Go struct field ServicePort.spec.ports.port of type int32",
  ],
  [
    "a nested int32",
    '{"spec":{"sessionAffinityConfig":{"clientIP":{"timeoutSeconds":true}}}}',
    "json: cannot unmarshal bool into Go struct field ClientIPConfig.spec.sessionAffinityConfig.clientIP.timeoutSeconds of type int32",
  ],
  [
    "int64 overflow, as written",
    '{"metadata":{"generation":9223372036854775808}}',
    "json: cannot unmarshal number 9223372036854775808 into Go struct field ObjectMeta.metadata.generation of type int64",
  ],
  [
    "int64 beyond int32 is fine, then a number for a string",
    '{"metadata":{"generation":4294967296,"name":5}}',
    "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string",
  ],
  [
    "a number for a map value",
    '{"metadata":{"labels":{"a":5}}}',
    "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string",
  ],
  [
    "an object for a list",
    '{"spec":{"ports":{}}}',
    "json: cannot unmarshal object into Go struct field ServiceSpec.spec.ports of type []v1.ServicePort",
  ],
  ["a string for a struct", '{"spec":"x"}', "json: cannot unmarshal string into Go struct field Service.spec of type v1.ServiceSpec"],
  [
    "a number for a list item struct",
    '{"spec":{"ports":[5]}}',
    "json: cannot unmarshal number into Go struct field ServiceSpec.spec.ports of type v1.ServicePort",
  ],
  [
    "a number for a bool",
    '{"spec":{"publishNotReadyAddresses":1}}',
    "json: cannot unmarshal number into Go struct field ServiceSpec.spec.publishNotReadyAddresses of type bool",
  ],
  [
    "targetPort overflow (IntOrString.UnmarshalJSON: no struct context)",
    '{"spec":{"ports":[{"port":80,"targetPort":2147483648}]}}',
    "json: cannot unmarshal number 2147483648 into Go value of type int32",
  ],
  [
    "targetPort object",
    '{"spec":{"ports":[{"port":80,"targetPort":{"intVal":1}}]}}',
    "json: cannot unmarshal object into Go value of type int32",
  ],
  [
    "an UnmarshalJSON error wins over an earlier saved one",
    '{"spec":{"ports":[{"port":"x","targetPort":true}]}}',
    "json: cannot unmarshal bool into Go value of type int32",
  ],
  ["metav1.Time with a number", '{"metadata":{"creationTimestamp":5}}', "json: cannot unmarshal number into Go value of type string"],
  [
    "a field name under two parents (spec.ports, then the ingress' ports)",
    '{"spec":{"ports":[{"port":80}]},"status":{"loadBalancer":{"ingress":[{"ip":"1.2.3.4","ports":[{"port":"80"}]}]}}}',
    "json: cannot unmarshal string into Go struct field PortStatus.status.loadBalancer.ingress.ports.port of type int32",
  ],
];

/** Bodies of other tests below, and valid ones, for the plan-cache test. */
const moreBodies = [
  '{"constructor":{"prototype":{"x":1}},"__proto__":{"polluted":true},"toString":5,"spec":{"ports":[{"port":80,"hasOwnProperty":1}]}}',
  '{"metadata":{"generation":9223372036854775809}}',
  '{"spec":{"ports":[{"port":80,"targetPort":15e-1}]}}',
  '{"metadata":{"name":null,"labels":{"a":null}},"spec":{"ports":[{"port":2147483647,"nodePort":-2147483648,"targetPort":"http"}],"bogus":1.5}}',
  '{"apiVersion":"v1","kind":"Service","metadata":{"name":"a","labels":{"app":"a"}},"spec":{"selector":{"app":"a"},"ports":[{"name":"http","port":80,"targetPort":8080}]}}',
  '{"metadata":{"managedFields":[{"manager":"m","time":"2026-01-01T00:00:00Z","fieldsV1":{"f:x":5}}],"ownerReferences":[{"uid":7}]}}',
  '{"status":{"loadBalancer":{"ingress":[{"ip":"1.2.3.4","ports":[{"port":"80"}]}]},"conditions":[{"lastTransitionTime":3}]}}',
  '{"spec":{"sessionAffinityConfig":{"clientIP":{"timeoutSeconds":"x"}},"ports":{"port":1}}}',
  "[1,2]",
  '"text"',
];

describe("goDecodeError (sigs.k8s.io/json's UnmarshalTypeError text for the served kinds)", () => {
  it.each(cases)("%s", (_label, body, want) => {
    expect(decode(body)).toBe(want);
  });

  it("gives the same answers from its kept plans as from new ones, whatever the order of the bodies", () => {
    const bodies = [...cases.map(([, body]) => body), ...moreBodies];
    // A GoTypes object of its own gets plans of its own: these are made for this one body only.
    const cold = bodies.map((b) => goDecodeError(ServiceSchema, JSON.parse(b), { ...svc }, (at) => literalAt(b, at)));
    const warm = { ...svc };
    for (const order of [bodies, [...bodies].reverse(), bodies]) {
      const got = order.map((b) => goDecodeError(ServiceSchema, JSON.parse(b), warm, (at) => literalAt(b, at)));
      expect(got).toEqual(order.map((b) => cold[bodies.indexOf(b)]));
    }
    expect(cold.filter((m) => m !== undefined).length).toBeGreaterThan(cases.length);
  });

  it("keeps one GoTypes object per kind, so the plans are made once", () => {
    expect(goTypesOf("v1", "Service")).toBe(svc);
    expect(goTypesOf("v1", "Pod")).toBe(goTypesOf("v1", "Pod"));
    expect(goTypesOf("v1", "Pod")).not.toBe(svc);
    expect(goTypesOf("v1", "NoSuchKind")).toBeUndefined();
  });

  it("skips unknown keys that name Object.prototype's members (found by the e2e fuzz: a 500)", () => {
    expect(
      decode(
        '{"constructor":{"prototype":{"x":1}},"__proto__":{"polluted":true},"toString":5,"spec":{"ports":[{"port":80,"hasOwnProperty":1}]}}',
      ),
    ).toBeUndefined();
  });

  it("judges integers JSON.parse rounds by their text: int64's maximum fits, one more does not", () => {
    expect(decode('{"metadata":{"generation":9223372036854775807,"deletionGracePeriodSeconds":-9223372036854775808}}')).toBeUndefined();
    expect(decode('{"metadata":{"generation":9223372036854775809}}')).toBe(
      "json: cannot unmarshal number 9223372036854775809 into Go struct field ObjectMeta.metadata.generation of type int64",
    );
    expect(decode('{"spec":{"ports":[{"port":80,"targetPort":15e-1}]}}')).toBe(
      "json: cannot unmarshal number 15e-1 into Go value of type int32",
    );
  });

  it("accepts what Go accepts: nulls, bounds, named target ports, unknown fields", () => {
    expect(
      decode(
        '{"metadata":{"name":null,"labels":{"a":null}},"spec":{"ports":[{"port":2147483647,"nodePort":-2147483648,"targetPort":"http"}],"bogus":1.5}}',
      ),
    ).toBeUndefined();
  });

  it("names other kinds' structs (EndpointSlice port is *int32)", () => {
    const types = goTypesOf("discovery.k8s.io/v1", "EndpointSlice")!;
    expect(goDecodeError(EndpointSliceSchema, { ports: [{ port: 65536 * 65536 }] }, types)).toBe(
      "json: cannot unmarshal number 4294967296 into Go struct field EndpointPort.ports.port of type int32",
    );
  });
});

describe("literalAt", () => {
  it("finds a value by keys and indices, skipping strings with brackets", () => {
    const text = '{"a":"}]{[","b":[1, {"c" : 99999999999999999999 }]}';
    expect(literalAt(text, ["b", 1, "c"])).toBe("99999999999999999999");
    expect(literalAt(text, ["b", 0])).toBe("1");
    expect(literalAt(text, ["x"])).toBeUndefined();
  });
});

describe("wrapUnstructuredInts (runtime converter's int64 -> int32 Convert)", () => {
  it("wraps int32 fields two's-complement, leaves int64 fields, IntOrString and in-range values", () => {
    const v = {
      metadata: { generation: 2 ** 40 },
      spec: { ports: [{ port: 2 ** 31, nodePort: 2 ** 32 + 80, targetPort: 2 ** 31 }, { port: 80 }], healthCheckNodePort: -(2 ** 31) - 1 },
    };
    wrapUnstructuredInts(ServiceSchema, v, svc);
    expect(v).toEqual({
      metadata: { generation: 2 ** 40 },
      spec: { ports: [{ port: -(2 ** 31), nodePort: 80, targetPort: 2 ** 31 }, { port: 80 }], healthCheckNodePort: 2 ** 31 - 1 },
    });
  });
});
