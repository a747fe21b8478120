/** The two ways kube-proxy exits at once (Options.Run): `--write-config-to` and `--cleanup`. */
import { writeFile } from "node:fs/promises";
import type { Logger } from "@servicenet/component-base/logs";
import { encodeKubeProxyConfiguration } from "../apis/config/load.ts";
import { platformCleanup } from "../runner/cleanup.ts";
import type { ProxyServerOptions } from "./options.ts";

/** `writeConfigFile`: the effective configuration as YAML; logs upstream's line. */
export async function writeConfigFile(o: Pick<ProxyServerOptions, "config" | "writeConfigTo">, logger: Logger): Promise<void> {
  if (o.writeConfigTo === undefined) return;
  await writeFile(o.writeConfigTo, encodeKubeProxyConfiguration(o.config));
  logger.info("Wrote configuration", { file: o.writeConfigTo });
}

/** `--cleanup`: every mode's rules of both families; throws upstream's error when something failed. */
export async function cleanupAndExit(o: Pick<ProxyServerOptions, "proxyMode">, logger: Logger, netns?: string): Promise<void> {
  const errors = await platformCleanup(o.proxyMode, true, netns);
  for (const e of errors) logger.error(e);
  if (errors.length > 0) throw new Error("encountered an error while tearing down rules");
}
