import { describe, expect, it } from "vitest";
import { parseUpOptions } from "./options.ts";

describe("servicenet up flags", () => {
  it.each([
    [[], ["10.96.0.0/16", "fd00:10:96::/112"], "v4v6"],
    [["--mode", "v4"], ["10.96.0.0/16"], "v4"],
    [["--mode=v6"], ["fd00:10:96::/112"], "v6"],
    [["--mode", "v6v4"], ["fd00:10:96::/112", "10.96.0.0/16"], "v6v4"],
    [["--service-cluster-ip-range", "fd00::/108,10.0.0.0/16"], ["fd00::/108", "10.0.0.0/16"], "v6v4"],
    [["--service-cluster-ip-range", "10.0.0.0/24"], ["10.0.0.0/24"], "v4"],
    [["up", "--mode", "v4v6"], ["10.96.0.0/16", "fd00:10:96::/112"], "v4v6"],
  ])("%j", (argv, ranges, mode) => {
    const o = parseUpOptions(argv);
    expect(o.serviceClusterIPRanges).toEqual(ranges);
    expect(o.mode).toBe(mode);
  });

  it.each([
    [[], 0],
    [["-v", "2"], 2],
    [["--v", "3"], 3],
    [["-v=4"], 4],
    [["--v=5", "--port", "0"], 5],
  ])("klog's -v: %j", (argv, v) => {
    expect(parseUpOptions(argv).verbosity).toBe(v);
  });

  it("rejects a -v that is not a level as pflag does", () => {
    expect(() => parseUpOptions(["-v", "high"])).toThrow('invalid argument "high" for "-v, --v" flag');
  });

  it("defaults to SQLite in .servicenet on 127.0.0.1:6443 and takes etcd endpoints", () => {
    expect(parseUpOptions([])).toMatchObject({ datastoreEndpoints: [], dataDir: ".servicenet", bindAddress: "127.0.0.1", port: 6443 });
    expect(parseUpOptions(["--datastore-endpoint", "http://127.0.0.1:2379", "--port", "0"])).toMatchObject({
      datastoreEndpoints: ["http://127.0.0.1:2379"],
      port: 0,
    });
    expect(parseUpOptions([]).workers).toBe(1);
    expect(parseUpOptions(["--workers=4"]).workers).toBe(4);
    expect(parseUpOptions([]).etcdPrefix).toBe("/registry");
    expect(parseUpOptions(["--etcd-prefix", "/tenant-a"]).etcdPrefix).toBe("/tenant-a");
  });

  it("takes --advertise-address as kube-apiserver (an IP; unset means derived from the bind address)", () => {
    expect(parseUpOptions([]).advertiseAddress).toBeUndefined();
    expect(parseUpOptions(["--advertise-address", "192.0.2.10"]).advertiseAddress).toBe("192.0.2.10");
    expect(() => parseUpOptions(["--advertise-address", "not-an-ip"])).toThrow('--advertise-address: invalid IP address "not-an-ip"');
  });

  it.each([
    [["--mode", "v5"], "--mode must be one of"],
    [["--mode", "v6", "--service-cluster-ip-range", "10.0.0.0/16"], "--mode v6 needs an IPv6 range"],
    [["--service-cluster-ip-range", "10.0.0.0/16,10.1.0.0/16"], "at most one IPv4 and one IPv6 CIDR"],
    [["--service-cluster-ip-range", "10.0.0.300/16"], "invalid CIDR"],
    [["--port", "70000"], "invalid port"],
    [["--bogus"], "unknown flag: --bogus"],
    [["--port"], "flag --port needs a value"],
    [["--etcd-prefix"], "flag --etcd-prefix needs a value"],
    [["--feature-gates", "Foo=true"], "unrecognized feature gate: Foo"],
    [["--feature-gates", "DisableAllocatorDualWrite=maybe"], "invalid value of DisableAllocatorDualWrite=maybe"],
    [["--repair-interval", "3 minutes"], '--repair-interval: invalid duration "3 minutes"'],
    [["--workers", "0"], '--workers: must be an integer from 1 to 32, got "0"'],
    [["--workers", "2.5"], '--workers: must be an integer from 1 to 32, got "2.5"'],
    [["--workers", "33"], '--workers: must be an integer from 1 to 32, got "33"'],
  ])("rejects %j", (argv, msg) => {
    expect(() => parseUpOptions(argv)).toThrowError(msg);
  });

  it("takes --feature-gates over the 1.33 defaults and --repair-interval as a Go duration", () => {
    expect(parseUpOptions([])).toMatchObject({
      featureGates: { MultiCIDRServiceAllocator: true, DisableAllocatorDualWrite: false, AuthorizeWithSelectors: true },
      repairIntervalMs: 180_000,
    });
    expect(parseUpOptions(["--feature-gates=MultiCIDRServiceAllocator=false", "--repair-interval", "1m30s"])).toMatchObject({
      featureGates: { MultiCIDRServiceAllocator: false },
      repairIntervalMs: 90_000,
    });
    expect(parseUpOptions(["--repair-interval", "500ms"]).repairIntervalMs).toBe(500);
    // time.ParseDuration units beyond ms (the hand-written parser knew only ms, s, m and h).
    expect(parseUpOptions(["--repair-interval", "1500000us"]).repairIntervalMs).toBe(1500);
  });
});

describe("--authorization-mode", () => {
  it("defaults to RBAC and takes kube-apiserver's comma list", () => {
    expect(parseUpOptions([]).authorizationModes).toEqual(["RBAC"]);
    expect(parseUpOptions(["--authorization-mode", "AlwaysAllow"]).authorizationModes).toEqual(["AlwaysAllow"]);
    expect(parseUpOptions(["--authorization-mode", "RBAC,AlwaysDeny"]).authorizationModes).toEqual(["RBAC", "AlwaysDeny"]);
  });
  it("rejects unknown and repeated modes with upstream's messages", () => {
    expect(() => parseUpOptions(["--authorization-mode", "Node"])).toThrow(
      '--authorization-mode: authorization-mode "Node" is not a valid mode',
    );
    expect(() => parseUpOptions(["--authorization-mode", "RBAC,RBAC"])).toThrow("has mode specified more than once");
  });
});

describe("--authorization-webhook-*", () => {
  it("take the Webhook mode's kubeconfig, version and cache TTLs (Go durations, 0 included)", () => {
    const o = parseUpOptions([
      "--authorization-mode",
      "RBAC,Webhook",
      "--authorization-webhook-config-file",
      "/etc/authz.kubeconfig",
      "--authorization-webhook-version",
      "v1",
      "--authorization-webhook-cache-authorized-ttl",
      "2m",
      "--authorization-webhook-cache-unauthorized-ttl",
      "0",
    ]);
    expect(o.authorizationModes).toEqual(["RBAC", "Webhook"]);
    expect(o.authorizationWebhook).toEqual({
      configFile: "/etc/authz.kubeconfig",
      version: "v1",
      cacheAuthorizedTTLMs: 120_000,
      cacheUnauthorizedTTLMs: 0,
    });
    expect(parseUpOptions([]).authorizationWebhook).toBeUndefined();
  });

  it("fail as BuiltInAuthorizationOptions.Validate: the mode needs the file and the file needs the mode", () => {
    expect(() => parseUpOptions(["--authorization-mode", "Webhook"])).toThrow(
      "authorization-mode Webhook's authorization config file not passed",
    );
    expect(() => parseUpOptions(["--authorization-webhook-config-file", "/k"])).toThrow(
      "cannot specify --authorization-webhook-config-file without mode Webhook",
    );
    expect(() =>
      parseUpOptions([
        "--authorization-mode",
        "Webhook",
        "--authorization-webhook-config-file",
        "/k",
        "--authorization-webhook-cache-authorized-ttl",
        "5x",
      ]),
    ).toThrow('invalid argument "5x" for "--authorization-webhook-cache-authorized-ttl" flag');
  });
});

describe("--audit-policy-file and --audit-log-path", () => {
  it("are kept as given, and absent by default", () => {
    expect(parseUpOptions([])).toMatchObject({ auditPolicyFile: undefined, auditLogPath: undefined });
    expect(parseUpOptions(["--audit-policy-file", "p.yaml", "--audit-log-path=-"])).toMatchObject({
      auditPolicyFile: "p.yaml",
      auditLogPath: "-",
    });
  });
});

describe("--enable-aggregator-routing", () => {
  it("is false by default, true alone or with true, and takes =false", () => {
    expect(parseUpOptions([]).enableAggregatorRouting).toBe(false);
    expect(parseUpOptions(["--enable-aggregator-routing"]).enableAggregatorRouting).toBe(true);
    expect(parseUpOptions(["--enable-aggregator-routing", "--port", "0"])).toMatchObject({ enableAggregatorRouting: true, port: 0 });
    expect(parseUpOptions(["--enable-aggregator-routing", "true"]).enableAggregatorRouting).toBe(true);
    expect(parseUpOptions(["--enable-aggregator-routing=false"]).enableAggregatorRouting).toBe(false);
    expect(() => parseUpOptions(["--enable-aggregator-routing=yes"])).toThrow('--enable-aggregator-routing: invalid boolean "yes"');
  });
});

describe("--admission-control-config-file", () => {
  it("is absent by default and passed on as given", () => {
    expect(parseUpOptions([]).admissionControlConfigFile).toBeUndefined();
    expect(parseUpOptions(["--admission-control-config-file=/etc/admission.yaml"]).admissionControlConfigFile).toBe("/etc/admission.yaml");
    expect(() => parseUpOptions(["--admission-control-config-file"])).toThrow("flag --admission-control-config-file needs a value");
  });
});

describe("--service-node-port-range", () => {
  // utilnet.PortRange.Set's forms and texts (port_range_test.go), behind pflag's wrapping.
  it.each([
    [[], "30000-32767"],
    [["--service-node-port-range", "30000-30100"], "30000-30100"],
    [["--service-node-port-range=20000+99"], "20000-20099"],
    [["--service-node-port-range", "31000"], "31000-31000"],
    [["--service-node-port-range", " 100-200 "], "100-200"],
    [["--service-node-port-range", ""], "30000-32767"],
  ])("%j -> %s", (argv, range) => {
    expect(parseUpOptions(argv).serviceNodePortRange).toBe(range);
  });

  it.each([
    ["x-y", 'invalid argument "x-y" for "--service-node-port-range" flag: strconv.Atoi: parsing "x": invalid syntax'],
    ["200-100", 'invalid argument "200-100" for "--service-node-port-range" flag: end port cannot be less than start port: 200-100'],
    ["1-65536", 'invalid argument "1-65536" for "--service-node-port-range" flag: the port range cannot be greater than 65535: 1-65536'],
    ["1-2+3", 'invalid argument "1-2+3" for "--service-node-port-range" flag: unable to parse port range: 1-2+3'],
  ])("%s is refused", (v, message) => {
    expect(() => parseUpOptions(["--service-node-port-range", v])).toThrow(message);
  });
});

describe("--default-not-ready-toleration-seconds, --default-unreachable-toleration-seconds", () => {
  it("default to 300 and take Go integers", () => {
    expect(parseUpOptions([]).podAdmission).toEqual({ notReadyTolerationSeconds: 300, unreachableTolerationSeconds: 300 });
    expect(
      parseUpOptions(["--default-not-ready-toleration-seconds=60", "--default-unreachable-toleration-seconds", "0x10"]).podAdmission,
    ).toEqual({ notReadyTolerationSeconds: 60, unreachableTolerationSeconds: 16 });
  });
  it("refuse what flag.Int64 refuses", () => {
    expect(() => parseUpOptions(["--default-unreachable-toleration-seconds=5m"])).toThrow(
      'invalid argument "5m" for "--default-unreachable-toleration-seconds" flag: parse error',
    );
  });
});

// kube-apiserver's --emulated-version (component-base/compatibility registry.go toVersionMap and
// effectiveVersion.Validate, apiserver/pkg/util/compatibility floors: 1.31..1.33 for binary 1.33).
describe("--emulated-version", () => {
  it("defaults to the binary's 1.33 and takes 1.x or kube=1.x", () => {
    expect(parseUpOptions([]).emulatedVersion).toBe("1.33");
    expect(parseUpOptions(["--emulated-version", "1.31"]).emulatedVersion).toBe("1.31");
    expect(parseUpOptions(["--emulated-version=kube=1.32"]).emulatedVersion).toBe("1.32");
  });

  it("reads the feature gates at the emulated version, whichever flag comes first", () => {
    expect(parseUpOptions(["--emulated-version", "1.31"]).featureGates).toMatchObject({
      MultiCIDRServiceAllocator: false,
      AuthorizeWithSelectors: false,
      StrictCostEnforcementForVAP: false,
    });
    expect(
      parseUpOptions(["--feature-gates", "StrictCostEnforcementForVAP=false", "--emulated-version", "1.31"]).featureGates,
    ).toMatchObject({ StrictCostEnforcementForVAP: false, StrictCostEnforcementForWebhooks: false });
    expect(() => parseUpOptions(["--feature-gates", "StrictCostEnforcementForVAP=false"])).toThrow(
      "cannot set feature gate StrictCostEnforcementForVAP to false, feature is locked to true",
    );
  });

  it.each([
    ["1.30", "emulation version 1.30 is not between [1.31, 1.33.0]"],
    ["1.34", "emulation version 1.34 is not between [1.31, 1.33.0]"],
    ["1.31.2", "patch version not allowed, got: kube=1.31.2"],
    ["kube=1.31,kube=1.32", "duplicate version flag, kube=1.31 and kube=1.32"],
    ["wardle=1.2", "component not registered: wardle"],
    ["one", 'could not parse "one" as version'],
  ])("refuses %s", (v, msg) => {
    expect(() => parseUpOptions(["--emulated-version", v])).toThrow(msg);
  });
});
