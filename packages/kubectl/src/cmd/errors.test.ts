/** kubectl's error wording (cmd/util/helpers.go) for API Status bodies and flags. */
import type { Status } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { parseArgs } from "./args.ts";
import { APIError, CLIError, connectionErrorMessage, statusErrorMessage } from "./errors.ts";
import { failureOf } from "./failures.ts";

const notFound: Status = { kind: "Status", reason: "NotFound", code: 404, message: 'services "x" not found' };
const invalidOne: Status = {
  kind: "Status",
  reason: "Invalid",
  code: 422,
  message: 'Service "x" is invalid: spec.ports: Required value',
  details: { name: "x", kind: "Service", causes: [{ field: "spec.ports", message: "Required value" }] },
};
const invalidTwo: Status = {
  ...invalidOne,
  details: {
    name: "x",
    kind: "Service",
    causes: [
      { field: "spec.ports", message: "Required value" },
      { field: "spec.type", message: 'Unsupported value: "Foo"' },
    ],
  },
};

describe("statusErrorMessage", () => {
  it.each([
    ["NotFound", 404, notFound, 'Error from server (NotFound): services "x" not found'],
    ["Invalid, one cause", 422, invalidOne, 'The Service "x" is invalid: spec.ports: Required value'],
    [
      "Invalid, several causes",
      422,
      invalidTwo,
      'The Service "x" is invalid: \n* spec.ports: Required value\n* spec.type: Unsupported value: "Foo"',
    ],
    ["Invalid without details", 422, { kind: "Status", reason: "Invalid", message: "m" }, "The request is invalid"],
    [
      "Unauthorized",
      401,
      { kind: "Status", reason: "Unauthorized", message: "Unauthorized" },
      "error: You must be logged in to the server (Unauthorized)",
    ],
    ["no reason", 500, { kind: "Status", message: "boom" }, "Error from server: boom"],
    ["not a Status", 502, undefined, "Error from server: bad gateway (502)"],
  ] as const)("%s", (_name, code, status, want) => {
    expect(statusErrorMessage(code, status, "bad gateway")).toBe(want);
  });
});

describe("connectionErrorMessage", () => {
  it.each([
    [
      Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
      "[::1]:6443",
      "The connection to the server [::1]:6443 was refused - did you specify the right host or port?",
    ],
    [
      Object.assign(new Error("getaddrinfo ENOTFOUND nowhere"), { code: "ENOTFOUND" }),
      "nowhere:443",
      "Unable to connect to the server: getaddrinfo ENOTFOUND nowhere",
    ],
  ])("%s", (err, hostPort, want) => {
    expect(connectionErrorMessage(err, hostPort)).toBe(want);
  });
});

describe("parseArgs", () => {
  it.each([
    [["get", "svc", "-n", "kube-system"], { positional: ["get", "svc"], namespace: "kube-system" }],
    [["get", "-nfoo", "svc"], { positional: ["get", "svc"], namespace: "foo" }],
    [["get", "svc", "--namespace=bar", "-owide"], { namespace: "bar", output: "wide" }],
    [["get", "svc", "-A", "-l", "app=web"], { allNamespaces: true, selector: "app=web" }],
    [["describe", "svc", "x", "--show-events=false"], { showEvents: false }],
    [
      ["apply", "-f", "a.yaml", "--filename=-", "--server-side", "--field-manager=m", "--force-conflicts"],
      { filenames: ["a.yaml", "-"], serverSide: true, fieldManager: "m", forceConflicts: true },
    ],
    [["delete", "svc", "x", "--ignore-not-found", "--wait=false"], { ignoreNotFound: true, wait: false }],
    [["delete", "svc", "x", "--cascade=orphan"], { cascade: "orphan", positional: ["delete", "svc", "x"] }],
    // NoOptDefVal: a bare --cascade is "background" and the next word stays an argument, as in cobra.
    [["delete", "svc", "--cascade", "foreground"], { cascade: "background", positional: ["delete", "svc", "foreground"] }],
    [["get", "svc", "-w", "--watch-only", "--validate=false"], { watch: true, watchOnly: true }],
    [["get", "--", "svc", "-x"], { positional: ["get", "svc", "-x"] }],
  ])("%j", (argv, want) => {
    expect(parseArgs(argv)).toMatchObject(want);
  });

  it.each([
    [["get", "-o"], "error: flag needs an argument: -o"],
    [["get", "-z"], "error: unknown shorthand flag: 'z' in -z"],
  ])("%j fails", (argv, want) => {
    expect(() => parseArgs(argv)).toThrow(want);
  });
});

describe("failureOf (create/apply/delete aggregates)", () => {
  const invalid = new APIError("unused", 422, {
    ...invalidTwo,
    message: 'Service "x" is invalid: [spec.ports: Required value, spec.type: Unsupported value: "Foo"]',
  });
  it("Invalid alone uses the causes; among others the message with its source", () => {
    const f = failureOf(invalid, "creating", "svc.yaml");
    expect(f.single).toBe('The Service "x" is invalid: \n* spec.ports: Required value\n* spec.type: Unsupported value: "Foo"');
    expect(f.multi).toBe(
      'Error from server (Invalid): error when creating "svc.yaml": Service "x" is invalid: [spec.ports: Required value, spec.type: Unsupported value: "Foo"]',
    );
  });
  it("NotFound with and without a source; plain errors lose 'error: ' among others", () => {
    const nf = new APIError("unused", 404, notFound);
    expect(failureOf(nf, "deleting", "STDIN").single).toBe(
      'Error from server (NotFound): error when deleting "STDIN": services "x" not found',
    );
    expect(failureOf(nf).multi).toBe('Error from server (NotFound): services "x" not found');
    expect(failureOf(new CLIError("error: resource name may not be empty"))).toEqual({
      single: "error: resource name may not be empty",
      multi: "resource name may not be empty",
    });
  });
});
