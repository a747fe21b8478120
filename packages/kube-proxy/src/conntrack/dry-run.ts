/**
 * The conntrack table of a dry-run kube-proxy: there is no kernel table to list, so nothing is
 * deleted; instead `<dir>/conntrack-ipv4.txt` (and `-ipv6`) say after every sync what the
 * reconciler enforces: each UDP frontend and the serving endpoints its flows may reply from
 * (flows to it from any other source would be deleted).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { IPFamily } from "@servicenet/api";
import type { ConntrackFrontends } from "./cleanup.ts";
import type { Conntrack, ConntrackFlow } from "./conntrack.ts";

/** A Conntrack with no flows that writes the enforced frontends to files in `dir`. */
export class DryRunConntrack implements Conntrack {
  readonly #dir: string;
  constructor(dir: string) {
    this.#dir = dir;
  }
  /** The file of one family's frontends. */
  fileFor(family: IPFamily): string {
    return join(this.#dir, `conntrack-${family.toLowerCase()}.txt`);
  }
  async listEntries(): Promise<ConntrackFlow[]> {
    return [];
  }
  async clearEntries(): Promise<number> {
    return 0;
  }
  async reconciled(family: IPFamily, frontends: ConntrackFrontends): Promise<void> {
    const lines = [...frontends]
      .map(([frontend, endpoints]) => `udp ${frontend} keeps flows replied by ${[...endpoints].sort().join(",")}`)
      .sort();
    await mkdir(this.#dir, { recursive: true });
    await writeFile(this.fileFor(family), lines.length === 0 ? "" : lines.join("\n") + "\n");
  }
}
