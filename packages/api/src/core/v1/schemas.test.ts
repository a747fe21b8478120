import { describe, expect, it } from "vitest";
import { decodeObject, unknownFields } from "../../meta/v1/decode.ts";
import { EndpointsSchema } from "./endpoints.ts";
import { EventSchema } from "./event.ts";
import { NamespaceSchema } from "./namespace.ts";
import { NodeSchema } from "./node.ts";
import { PodSchema } from "./pod.ts";
import { ServiceListSchema, ServiceSchema } from "./service.ts";

// What `kubectl get svc -o json` prints for a dual-stack LoadBalancer Service.
const kubectlService = {
  apiVersion: "v1",
  kind: "Service",
  metadata: {
    name: "web",
    namespace: "default",
    uid: "0b6f0b8e-0000-4000-8000-000000000001",
    resourceVersion: "42",
    creationTimestamp: "2024-05-01T10:00:00Z",
    labels: { app: "web" },
    managedFields: [
      {
        manager: "kubectl-client-side-apply",
        operation: "Update",
        apiVersion: "v1",
        time: "2024-05-01T10:00:00Z",
        fieldsType: "FieldsV1",
        fieldsV1: { "f:spec": { "f:ports": {} } },
      },
    ],
  },
  spec: {
    allocateLoadBalancerNodePorts: true,
    clusterIP: "10.0.0.10",
    clusterIPs: ["10.0.0.10", "2000::a"],
    externalTrafficPolicy: "Cluster",
    internalTrafficPolicy: "Cluster",
    ipFamilies: ["IPv4", "IPv6"],
    ipFamilyPolicy: "PreferDualStack",
    ports: [{ name: "http", nodePort: 30080, port: 80, protocol: "TCP", targetPort: "http" }],
    selector: { app: "web" },
    sessionAffinity: "None",
    type: "LoadBalancer",
  },
  status: { loadBalancer: { ingress: [{ ip: "192.0.2.1", ipMode: "VIP" }] } },
};

describe("core/v1 schemas", () => {
  it("decode a kubectl Service losslessly and know every field", () => {
    expect(unknownFields(ServiceSchema, kubectlService)).toEqual([]);
    const r = decodeObject(ServiceSchema, kubectlService);
    expect(r.ok && r.value).toEqual(kubectlService);
  });

  it("report a misspelt spec field (fieldValidation=Strict) and drop it otherwise", () => {
    const body = { ...kubectlService, spec: { ...kubectlService.spec, ipFamilyPolcy: "SingleStack" } };
    const r = decodeObject(ServiceSchema, body);
    expect(r.unknownFields).toEqual([".spec.ipFamilyPolcy"]);
    expect(r.ok && "ipFamilyPolcy" in r.value.spec).toBe(false);
  });

  it("default missing metadata and spec to empty objects; accept kubectl's null creationTimestamp", () => {
    const r = decodeObject(ServiceSchema, { metadata: { name: "x", creationTimestamp: null } });
    expect(r.ok && r.value).toEqual({ metadata: { name: "x" }, spec: {} });
  });

  it("accept int and string targetPort, reject other types", () => {
    expect(ServiceSchema.safeParse({ spec: { ports: [{ port: 80, targetPort: 8080 }] } }).success).toBe(true);
    expect(ServiceSchema.safeParse({ spec: { ports: [{ port: 80, targetPort: true }] } }).success).toBe(false);
    expect(ServiceSchema.safeParse({ spec: { ports: [{ port: 80.5 }] } }).success).toBe(false);
  });

  it("keep unmodelled Pod and Node fields (loose objects)", () => {
    const pod = {
      metadata: { name: "p" },
      spec: {
        containers: [{ name: "c", image: "nginx", imagePullPolicy: "Always", ports: [{ containerPort: 80 }] }],
        restartPolicy: "Always",
        nodeName: "n1",
      },
      status: { phase: "Running", podIP: "10.1.0.5", podIPs: [{ ip: "10.1.0.5" }, { ip: "fd00::5" }], qosClass: "BestEffort" },
    };
    expect(unknownFields(PodSchema, pod)).toEqual([]);
    expect(PodSchema.parse(pod)).toEqual(pod);
    const node = {
      metadata: { name: "n1" },
      spec: { podCIDRs: ["10.1.0.0/24"], taints: [] },
      status: { addresses: [{ type: "InternalIP", address: "192.168.1.2" }], nodeInfo: { kubeletVersion: "v1.31.0" } },
    };
    expect(NodeSchema.parse(node)).toEqual(node);
  });

  it("keep the unmodelled fields of the container statuses and node info the printers read", () => {
    const pod = {
      metadata: { name: "p" },
      spec: { containers: [{ name: "c" }], readinessGates: [{ conditionType: "example.com/ready" }] },
      status: {
        phase: "Running",
        containerStatuses: [
          {
            name: "c",
            image: "nginx",
            imageID: "docker.io/library/nginx@sha256:0",
            containerID: "containerd://1",
            started: true,
            ready: true,
            restartCount: 2,
            state: { running: { startedAt: "2025-01-01T00:00:00Z" } },
            lastState: {
              terminated: { exitCode: 137, reason: "OOMKilled", finishedAt: "2025-01-01T00:00:00Z", containerID: "containerd://0" },
            },
          },
        ],
      },
    };
    expect(unknownFields(PodSchema, pod)).toEqual([]);
    expect(PodSchema.parse(pod)).toEqual(pod);
    const node = {
      metadata: { name: "n1" },
      spec: {},
      status: { nodeInfo: { kubeletVersion: "v1.33.0", osImage: "Debian", machineID: "m", architecture: "amd64" } },
    };
    expect(NodeSchema.parse(node)).toEqual(node);
    expect(PodSchema.safeParse({ status: { containerStatuses: [{ restartCount: "2" }] } }).success).toBe(false);
  });

  it.each([
    [
      EndpointsSchema,
      {
        metadata: { name: "e" },
        subsets: [
          {
            addresses: [{ ip: "10.1.0.5", nodeName: "n1", targetRef: { kind: "Pod", name: "p", namespace: "default" } }],
            ports: [{ port: 80, protocol: "TCP" }],
          },
        ],
      },
    ],
    [NamespaceSchema, { metadata: { name: "default" }, spec: { finalizers: ["kubernetes"] }, status: { phase: "Active" } }],
    [
      EventSchema,
      {
        metadata: { name: "web.17c" },
        involvedObject: { kind: "Service", name: "web", namespace: "default" },
        reason: "IPAllocated",
        message: "Cluster IP [IPv4]: 10.0.0.10",
        source: { component: "ipallocator-repair-controller" },
        firstTimestamp: "2024-05-01T10:00:00Z",
        lastTimestamp: "2024-05-01T10:00:00Z",
        count: 1,
        type: "Normal",
        eventTime: "2024-05-01T10:00:00.000000Z",
        reportingComponent: "",
        reportingInstance: "",
      },
    ],
  ])("round-trip %#", (schema, obj) => {
    expect(unknownFields(schema, obj)).toEqual([]);
    expect(schema.parse(obj)).toEqual(obj);
  });

  it("ServiceList gets an empty ListMeta by default", () => {
    expect(ServiceListSchema.parse({ items: [] })).toEqual({ metadata: {}, items: [] });
  });
});
