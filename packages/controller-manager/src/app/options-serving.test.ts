import { describe, expect, it } from "vitest";
import { parseOptions } from "./options.ts";
import { alwaysAllowPathsMatcher } from "./delegating-auth.ts";

describe("serving flags (kube-controller-manager's SecureServing and delegated auth options)", () => {
  it("defaults as kube-controller-manager: 10257 on every address, /healthz,/readyz,/livez always allowed", () => {
    expect(parseOptions(["--kubeconfig", "k"]).serving).toEqual({
      securePort: 10257,
      bindAddress: "0.0.0.0",
      tlsCertFile: "",
      tlsPrivateKeyFile: "",
      authenticationKubeconfig: "",
      authorizationKubeconfig: "",
      alwaysAllowPaths: ["/healthz", "/readyz", "/livez"],
    });
  });

  it.each([
    [["--secure-port", "0"], { securePort: 0 }],
    [["--secure-port=10300", "--bind-address", "::1"], { securePort: 10300, bindAddress: "::1" }],
    [["--tls-cert-file", "c.crt", "--tls-private-key-file", "c.key"], { tlsCertFile: "c.crt", tlsPrivateKeyFile: "c.key" }],
    [["--authentication-kubeconfig=a", "--authorization-kubeconfig=b"], { authenticationKubeconfig: "a", authorizationKubeconfig: "b" }],
    [["--authorization-always-allow-paths", "/healthz,/metrics*"], { alwaysAllowPaths: ["/healthz", "/metrics*"] }],
  ])("%j", (args, want) => {
    expect(parseOptions(["--kubeconfig", "k", ...args]).serving).toMatchObject(want);
  });

  it.each([
    [["--secure-port", "65536"], "--secure-port 65536 must be between 0 and 65535, inclusive. 0 for turning off secure port"],
    [["--secure-port", "x"], 'invalid argument "x" for "--secure-port" flag: strconv.ParseInt: parsing "x": invalid syntax'],
    [["--bind-address", "localhost"], 'invalid argument "localhost" for "--bind-address" flag: failed to parse IP: "localhost"'],
    [["--tls-cert-file", "c.crt"], "--tls-cert-file and --tls-private-key-file must both be given"],
  ])("refuses %j", (args, message) => {
    expect(() => parseOptions(["--kubeconfig", "k", ...args])).toThrow(message);
  });
});

describe("alwaysAllowPathsMatcher (upstream pkg/authorization/path TestNewAuthorizer)", () => {
  it.each([
    [["/healthz"], "/healthz", true],
    [["/healthz"], "/healthz/", false],
    [["/healthz"], "/healthz/ping", false],
    [["healthz"], "/healthz", true],
    [["/healthz/*"], "/healthz/ping", true],
    [["/healthz*"], "/healthzz", true],
    [["/"], "/", true],
    [["/*"], "/metrics", true],
  ])("%j allows %s: %s", (paths, path, want) => {
    expect(alwaysAllowPathsMatcher(paths)(path)).toBe(want);
  });

  it("refuses a * that is not trailing", () => {
    expect(() => alwaysAllowPathsMatcher(["/a*b"])).toThrow('only trailing * allowed in "a*b"');
  });
});
