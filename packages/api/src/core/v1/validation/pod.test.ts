/** ValidatePodStatusUpdate and ValidatePodBinding (pkg/apis/core/validation/validation_test.go cases). */
import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../../errors/index.ts";
import type { Pod } from "../pod.ts";
import { validatePodBinding, validatePodStatusUpdate } from "./pod.ts";

const render = (errs: ReturnType<typeof validatePodStatusUpdate>) => errs.map(fieldErrorString);
const old: Pod = {
  metadata: { name: "p", namespace: "default", resourceVersion: "1" },
  spec: { nodeName: "node-a", containers: [{ name: "c", image: "nginx" }] },
};
const withStatus = (status: Pod["status"], spec: Partial<Pod["spec"]> = {}): Pod => ({ ...old, spec: { ...old.spec, ...spec }, status });

describe("validatePodStatusUpdate", () => {
  it.each<[string, Pod, string[]]>([
    ["dual-stack pod IPs", withStatus({ podIP: "10.1.0.5", podIPs: [{ ip: "10.1.0.5" }, { ip: "fd00::5" }] }), []],
    ["IPv6 primary", withStatus({ podIP: "fd00::5", podIPs: [{ ip: "fd00::5" }, { ip: "10.1.0.5" }] }), []],
    [
      "two IPv4 pod IPs",
      withStatus({ podIP: "10.1.0.5", podIPs: [{ ip: "10.1.0.5" }, { ip: "10.1.0.6" }] }),
      [
        'status.podIPs: Invalid value: []interface {}{{"ip":"10.1.0.5"}, {"ip":"10.1.0.6"}}: may specify no more than one IP for each IP family',
      ],
    ],
    [
      "three pod IPs",
      withStatus({ podIP: "10.1.0.5", podIPs: [{ ip: "10.1.0.5" }, { ip: "fd00::5" }, { ip: "fd00::6" }] }),
      [
        'status.podIPs: Invalid value: []interface {}{{"ip":"10.1.0.5"}, {"ip":"fd00::5"}, {"ip":"fd00::6"}}: may specify no more than one IP for each IP family',
      ],
    ],
    [
      "podIP is not podIPs[0]",
      withStatus({ podIP: "fd00::5", podIPs: [{ ip: "10.1.0.5" }, { ip: "fd00::5" }] }),
      ['status.podIPs[0].ip: Invalid value: "10.1.0.5": must be equal to `podIP`'],
    ],
    [
      "two IPv6 host IPs",
      withStatus({ hostIP: "fd00::1", hostIPs: [{ ip: "fd00::1" }, { ip: "fd00::2" }] }),
      [
        'status.hostIPs: Invalid value: []interface {}{{"ip":"fd00::1"}, {"ip":"fd00::2"}}: may specify no more than one IP for each IP family',
      ],
    ],
    ["nodeName changed", withStatus({}, { nodeName: "node-b" }), ["status.nodeName: Forbidden: may not be changed directly"]],
  ])("%s", (_n, pod, want) => expect(render(validatePodStatusUpdate(pod, old))).toEqual(want));
});

describe("validatePodBinding", () => {
  it.each<[string, { kind?: string; name?: string }, string[]]>([
    ["node", { kind: "Node", name: "node-a" }, []],
    ["empty kind", { name: "node-a" }, []],
    ["other kind", { kind: "Pod", name: "x" }, ['target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>"']],
    ["no name", { kind: "Node" }, ["target.name: Required value"]],
  ])("%s", (_n, target, want) => expect(render(validatePodBinding({ metadata: { name: "p" }, target }))).toEqual(want));
});
