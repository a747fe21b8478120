import { describe, expect, it } from "vitest";
import { resolveLocation, scratchLock, type Lockfile } from "./scratch-lock.ts";

const ws: Lockfile = {
  lockfileVersion: 3,
  packages: {
    "": { name: "root" },
    "node_modules/@servicenet/apiserver": { resolved: "packages/apiserver", link: true },
    "node_modules/yaml": { version: "1.10.2", integrity: "sha512-old", dev: true },
    "packages/apiserver/node_modules/yaml": { version: "2.8.1", integrity: "sha512-new" },
    "node_modules/a": { version: "1.0.0", integrity: "sha512-a", dependencies: { b: "^1" }, optionalDependencies: { missing: "^1" } },
    "node_modules/a/node_modules/b": { version: "1.0.0", integrity: "sha512-b1" },
    "node_modules/b": { version: "2.0.0", integrity: "sha512-b2" },
    "node_modules/unused": { version: "1.0.0", integrity: "sha512-u" },
  },
};

describe("resolveLocation", () => {
  it.each([
    { from: "", name: "b", want: "node_modules/b" },
    { from: "node_modules/a", name: "b", want: "node_modules/a/node_modules/b" },
    { from: "packages/apiserver", name: "yaml", want: "packages/apiserver/node_modules/yaml" },
    { from: "", name: "yaml", want: "node_modules/yaml" },
    { from: "", name: "@servicenet/apiserver", want: undefined },
  ])("$name from '$from' is $want", ({ from, name, want }) => expect(resolveLocation(ws, from, name)).toBe(want));
});

describe("scratchLock", () => {
  it("keeps the closure at its locations, moves workspace-nested deps under @servicenet and drops dev flags", () => {
    const lock = scratchLock(
      ws,
      "scratch",
      [
        { from: "packages/apiserver", name: "yaml" },
        { from: "", name: "a" },
      ],
      { a: "1.0.0" },
    );
    expect(Object.keys(lock.packages)).toEqual([
      "",
      "node_modules/@servicenet/apiserver/node_modules/yaml",
      "node_modules/a",
      "node_modules/a/node_modules/b",
    ]);
    expect(lock.packages["node_modules/@servicenet/apiserver/node_modules/yaml"]).toEqual({ version: "2.8.1", integrity: "sha512-new" });
    expect(lock.packages[""]).toEqual({ name: "scratch", dependencies: { a: "1.0.0" } });
  });

  it("fails on a required dependency the lock lacks", () => {
    expect(() => scratchLock(ws, "s", [{ from: "", name: "nope" }], {})).toThrow(/nope .* not in the workspace lock/);
  });
});
