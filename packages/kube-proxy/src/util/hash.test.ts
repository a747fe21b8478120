import { describe, expect, it } from "vitest";
import { endpointChainName, serviceChainNames } from "../iptables/names.ts";
import { nftEndpointChainBase, nftServiceChainBase } from "../nftables/names.ts";
import { base32, joinHostPort } from "./hash.ts";

describe("chain names recomputed against the names in upstream pkg/proxy/iptables/proxier_test.go and nftables/proxier_test.go", () => {
  it.each([
    [serviceChainNames("ns1/svc1:p80", "tcp").cluster, "KUBE-SVC-XPGD46QRK7WJZT7O"],
    [endpointChainName("ns1/svc1:p80", "tcp", "10.180.0.1:80"), "KUBE-SEP-SXIVWICOYRO3J4NJ"],
    [serviceChainNames("ns4/svc4:p80", "tcp").cluster, "KUBE-SVC-4SW47YFZTEDKD3PK"],
    [serviceChainNames("ns4/svc4:p80", "tcp").external, "KUBE-EXT-4SW47YFZTEDKD3PK"],
    [endpointChainName("ns4/svc4:p80", "tcp", "10.180.0.4:80"), "KUBE-SEP-UKSFD7AGPMPPLUHC"],
    [endpointChainName("ns4/svc4:p80", "tcp", "10.180.0.5:80"), "KUBE-SEP-C6EBXVWJJZMIWKLZ"],
    [serviceChainNames("ns5/svc5:p80", "tcp").firewall, "KUBE-FW-NUKIZ6OKUXPJNT4C"],
    [`service-${nftServiceChainBase("ns1", "svc1", "tcp", "p80")}`, "service-ULMVA6XW-ns1/svc1/tcp/p80"],
    [
      `endpoint-${nftEndpointChainBase("ns1", "svc1", "tcp", "p80", "10.180.0.1", 80)}`,
      "endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80",
    ],
    [
      `endpoint-${nftEndpointChainBase("ns4", "svc4", "tcp", "p80", "10.180.0.5", 80)}`,
      "endpoint-5RFCDDV7-ns4/svc4/tcp/p80__10.180.0.5/80",
    ],
    [
      `endpoint-${nftEndpointChainBase("default", "kp-web", "tcp", "http", "fd00:10:244::5", 8080)}`,
      "endpoint-FGEVSRXK-default/kp-web/tcp/http__fd00.10.244..5/8080",
    ],
  ])("%s", (got, want) => {
    expect(got).toBe(want);
  });

  it("the family is not part of the service hash; endpoint hashes differ per address", () => {
    expect(endpointChainName("default/kp-web:http", "tcp", joinHostPort("fd00:10:244::5", 8080))).toBe("KUBE-SEP-YVALE6PFULBT37DA");
    expect(endpointChainName("default/kp-web:http", "tcp", joinHostPort("10.244.0.5", 8080))).toBe("KUBE-SEP-QANGYENAPPVL3U3P");
  });

  it.each([
    ["", ""],
    ["f", "MY======"],
    ["foobar", "MZXW6YTBOI======"],
  ])("base32(%j) is RFC 4648 %j", (input, want) => {
    expect(base32(new TextEncoder().encode(input))).toBe(want);
  });
});
