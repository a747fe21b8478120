/**
 * Golden describe outputs. The strings were produced by these describers and
 * checked against real kubectl 1.33 through the same code paths in
 * differential.test.ts; here they pin the output when no kubectl is installed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { G } from "./golden-fixtures.ts";

const cases: [string, string][] = [
  [
    "singleStackWithEvents",
    "Name:              web\nNamespace:         default\nLabels:            <none>\nAnnotations:       <none>\nSelector:          app=web\nType:              ClusterIP\nIP Family Policy:  SingleStack\nIP Families:       IPv4\nIP:                10.96.0.20\nIPs:               10.96.0.20\nPort:              <unset>  80/TCP\nTargetPort:        8080/TCP\nEndpoints:         10.1.0.1:8080,10.1.0.2:8080,10.1.0.4:8080 + 1 more...\nSession Affinity:  None\nEvents:\n  Type     Reason       Age              From                Message\n  ----     ------       ----             ----                -------\n  Normal   IPAllocated  2d2h             ipallocator         allocated 10.96.0.20\n  Warning  SyncFailed   5m (x7 over 7d)  service-controller  boom\n",
  ],
  [
    "dualStackV6V4",
    "Name:              dual\nNamespace:         default\nLabels:            <none>\nAnnotations:       <none>\nSelector:          <none>\nType:              ClusterIP\nIP Family Policy:  RequireDualStack\nIP Families:       IPv6,IPv4\nIP:                fd00::20\nIPs:               fd00::20,10.96.0.21\nPort:              <unset>  443/TCP\nTargetPort:        https/TCP\nEndpoints:         [fd00:1::1]:8443,10.1.0.9:8443\nSession Affinity:  None\nEvents:            <none>\n",
  ],
  [
    "headlessNoEvents",
    "Name:              db\nNamespace:         default\nLabels:            <none>\nAnnotations:       <none>\nSelector:          <none>\nType:              ClusterIP\nIP Family Policy:  SingleStack\nIP Families:       IPv4\nIP:                None\nIPs:               None\nSession Affinity:  None\n",
  ],
  [
    "externalName",
    "Name:              ext\nNamespace:         default\nLabels:            <none>\nAnnotations:       <none>\nSelector:          <none>\nType:              ExternalName\nIP Families:       <none>\nIP:                \nIPs:               <none>\nExternal Name:     db.example.com\nSession Affinity:  None\nEvents:            <none>\n",
  ],
  [
    "loadBalancer",
    "Name:                     lb\nNamespace:                default\nLabels:                   <none>\nAnnotations:              <none>\nSelector:                 <none>\nType:                     LoadBalancer\nIP Family Policy:         SingleStack\nIP Families:              IPv4\nIP:                       10.96.0.30\nIPs:                      10.96.0.30\nLoadBalancer Ingress:     192.0.2.1 (Proxy)\nPort:                     web  80/TCP\nTargetPort:               80/TCP\nNodePort:                 web  30300/TCP\nEndpoints:                <none>\nSession Affinity:         None\nExternal Traffic Policy:  Local\nHealthCheck NodePort:     32000\nEvents:                   <none>\n",
  ],
  [
    "serviceCIDRDeleting",
    "Name:         old\nLabels:       a=b\nAnnotations:  <none>\nCIDRs:        10.0.0.0/24, fd00::/64\nStatus:\nConditions:\n  Type   Status  LastTransitionTime               Reason       Message\n  ----   ------  ------------------               ------       -------\n  Ready  False   Sat, 31 Jan 2026 00:00:00 +0000  Terminating  There are still IPAddresses referencing the ServiceCIDR, please remove them or create a new ServiceCIDR\nEvents:  <none>\n",
  ],
  [
    "ipAddress",
    "Name:         10.0.0.5\nLabels:       <none>\nAnnotations:  <none>\nParent Reference:\n  Group:      \n  Resource:   services\n  Namespace:  default\n  Name:       web\nEvents:       <none>\n",
  ],
  [
    "endpointSliceNoPorts",
    "Name:         e\nNamespace:    default\nLabels:       <none>\nAnnotations:  <none>\nAddressType:  IPv4\nPorts: <unset>\nEndpoints: <none>\n",
  ],
];

describe("describe golden output", () => {
  let savedTZ: string | undefined;
  beforeAll(() => {
    savedTZ = process.env.TZ;
    process.env.TZ = "UTC";
  });
  afterAll(() => {
    if (savedTZ === undefined) delete process.env.TZ;
    else process.env.TZ = savedTZ;
  });
  it.each(cases)("%s", (name, want) => {
    const render = G[name];
    if (render === undefined) throw new Error(`no golden case ${name}`);
    expect(render()).toBe(want);
  });
});
