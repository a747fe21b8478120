import { describe, expect, it } from "vitest";
import type { KubeObject } from "../storage/index.ts";
import { present } from "./present.ts";
import { findResource } from "./resources.ts";

const meta = '"metadata":{"name":"x","namespace":"default","uid":"u1","resourceVersion":"9","creationTimestamp":"2026-12-05T08:30:18Z"}';
const stored = { name: "x", namespace: "default", uid: "u1", resourceVersion: "9", creationTimestamp: "2026-12-05T08:30:18Z" };

/**
 * Objects as this server may hold them (zero values kept, unset fields absent) and the JSON
 * kube-apiserver 1.33 writes for them: encoding/json over k8s.io/api's structs drops an omitempty
 * field holding its zero value and writes every other field, unset ones as their zero value.
 */
const fixtures: [string, string, string, string, object, string][] = [
  [
    "ExternalName Service after the merge patch",
    "",
    "v1",
    "services",
    {
      metadata: stored,
      spec: {
        ports: [{ name: "", protocol: "TCP", port: 80, targetPort: 80, nodePort: 0 }],
        selector: { app: "db" },
        clusterIP: "",
        clusterIPs: [],
        type: "ExternalName",
        sessionAffinity: "None",
        externalName: "db.example.com",
        externalTrafficPolicy: "",
        healthCheckNodePort: 0,
        publishNotReadyAddresses: false,
        ipFamilies: [],
      },
    },
    `{"kind":"Service","apiVersion":"v1",${meta},"spec":{"ports":[{"protocol":"TCP","port":80,"targetPort":80}],"selector":{"app":"db"},"type":"ExternalName","sessionAffinity":"None","externalName":"db.example.com"},"status":{"loadBalancer":{}}}`,
  ],
  [
    "ClusterIP Service without status",
    "",
    "v1",
    "services",
    {
      metadata: stored,
      spec: {
        ports: [{ protocol: "TCP", port: 53, targetPort: "dns" }],
        clusterIP: "10.96.0.10",
        clusterIPs: ["10.96.0.10"],
        type: "ClusterIP",
        sessionAffinity: "None",
        ipFamilies: ["IPv4"],
        ipFamilyPolicy: "SingleStack",
        internalTrafficPolicy: "Cluster",
        externalIPs: [],
        selector: {},
      },
    },
    `{"kind":"Service","apiVersion":"v1",${meta},"spec":{"ports":[{"protocol":"TCP","port":53,"targetPort":"dns"}],"clusterIP":"10.96.0.10","clusterIPs":["10.96.0.10"],"type":"ClusterIP","sessionAffinity":"None","ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack","internalTrafficPolicy":"Cluster"},"status":{"loadBalancer":{}}}`,
  ],
  [
    "Pod waiting for its container",
    "",
    "v1",
    "pods",
    {
      metadata: stored,
      spec: {
        nodeName: "n1",
        hostNetwork: false,
        terminationGracePeriodSeconds: 30,
        containers: [{ name: "c", image: "nginx", ports: [] }],
      },
      status: {
        phase: "Pending",
        conditions: [{ type: "PodScheduled", status: "True", lastTransitionTime: "2026-12-05T08:30:18Z" }],
        hostIP: "",
        podIPs: [],
        containerStatuses: [{ name: "c", state: { waiting: { reason: "ContainerCreating" } }, ready: false, restartCount: 0 }],
      },
    },
    `{"kind":"Pod","apiVersion":"v1",${meta},"spec":{"containers":[{"name":"c","image":"nginx","resources":{}}],"terminationGracePeriodSeconds":30,"nodeName":"n1"},"status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"True","lastProbeTime":null,"lastTransitionTime":"2026-12-05T08:30:18Z"}],"containerStatuses":[{"name":"c","state":{"waiting":{"reason":"ContainerCreating"}},"lastState":{},"ready":false,"restartCount":0,"image":"","imageID":""}]}}`,
  ],
  [
    "EndpointSlice with an endpoint lacking hostname, nodeName and conditions",
    "discovery.k8s.io",
    "v1",
    "endpointslices",
    {
      metadata: stored,
      addressType: "IPv4",
      endpoints: [
        { addresses: ["10.244.1.5"], conditions: { ready: true, serving: true, terminating: false }, nodeName: "n1" },
        { addresses: ["10.244.2.7"] },
      ],
      ports: [{ port: 8080 }],
    },
    `{"kind":"EndpointSlice","apiVersion":"discovery.k8s.io/v1",${meta},"addressType":"IPv4","endpoints":[{"addresses":["10.244.1.5"],"conditions":{"ready":true,"serving":true,"terminating":false},"nodeName":"n1"},{"addresses":["10.244.2.7"],"conditions":{}}],"ports":[{"port":8080}]}`,
  ],
  [
    "EndpointSlice without endpoints or ports",
    "discovery.k8s.io",
    "v1",
    "endpointslices",
    { metadata: stored, addressType: "IPv6" },
    `{"kind":"EndpointSlice","apiVersion":"discovery.k8s.io/v1",${meta},"addressType":"IPv6","endpoints":null,"ports":null}`,
  ],
  [
    "Deployment without status",
    "apps",
    "v1",
    "deployments",
    {
      metadata: stored,
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: "web" } },
        template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "c", image: "nginx" }] } },
        paused: false,
      },
    },
    `{"kind":"Deployment","apiVersion":"apps/v1",${meta},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"creationTimestamp":null,"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx","resources":{}}]}},"strategy":{}},"status":{}}`,
  ],
  [
    "Lease of a fresh holder",
    "coordination.k8s.io",
    "v1",
    "leases",
    { metadata: stored, spec: { holderIdentity: "", leaseDurationSeconds: 0, leaseTransitions: 0 } },
    `{"kind":"Lease","apiVersion":"coordination.k8s.io/v1",${meta},"spec":{"holderIdentity":"","leaseDurationSeconds":0,"leaseTransitions":0}}`,
  ],
  [
    "Node without addresses",
    "",
    "v1",
    "nodes",
    { metadata: stored, spec: { unschedulable: false, podCIDRs: [] }, status: { nodeInfo: { kubeletVersion: "v1.33.0" }, capacity: {} } },
    `{"kind":"Node","apiVersion":"v1",${meta},"spec":{},"status":{"daemonEndpoints":{"kubeletEndpoint":{"Port":0}},"nodeInfo":{"machineID":"","systemUUID":"","bootID":"","kernelVersion":"","osImage":"","containerRuntimeVersion":"","kubeletVersion":"v1.33.0","kubeProxyVersion":"","operatingSystem":"","architecture":""}}}`,
  ],
];

describe("JSON as encoding/json writes it: omitempty and always-written fields", () => {
  it.each(fixtures)("%s", (_name, group, version, resource, obj, json) => {
    const def = findResource(group, version, resource)!;
    expect(JSON.stringify(present(def, obj as KubeObject))).toBe(json);
  });
});
