/**
 * The set-up both fuzz suites share: whether `servicenet up` is built (a visible skip when not),
 * and a child apiserver with its discovered endpoints and seed objects for the enclosing describe.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, expect } from "vitest";
import { servicenetUp, startChildApiServer, type ChildApiServer } from "./child-apiserver.ts";
import type { Discovered } from "./discovery-walk.ts";
import { prepare } from "./run.ts";

/** True when the built CLI exists; warns once otherwise, so the skip is visible. */
export function fuzzTargetBuilt(): boolean {
  const built = existsSync(servicenetUp);
  if (!built) console.warn(`fuzz: ${servicenetUp} is missing (run the build), skipping`);
  return built;
}

export interface FuzzTarget {
  server(): ChildApiServer;
  discovered(): Discovered;
}

/** Registers beforeAll/afterAll in the calling describe: start, discover and seed; stop at the end. */
export function useFuzzTarget(): FuzzTarget {
  let server: ChildApiServer | undefined;
  let discovered: Discovered | undefined;
  beforeAll(async () => {
    // Every version the server can serve (beta and alpha are off by default), so they are fuzzed too.
    server = await startChildApiServer(["--runtime-config", "api/all=true"]);
    const p = await prepare(server);
    discovered = p.discovered;
    expect(p.seedsRefused).toEqual([]);
  });
  afterAll(async () => {
    await server?.stop();
  });
  return {
    server: () => server!,
    discovered: () => discovered!,
  };
}
