/** /version: the server reports the Kubernetes minor it implements, so kubectl's skew checks pass. */

export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

/** The version document; servicenet mirrors Kubernetes 1.33 behaviour. */
export function serverVersion(): VersionInfo {
  return {
    major: "1",
    minor: "33",
    gitVersion: "v1.33.0+servicenet",
    gitCommit: "0000000000000000000000000000000000000000",
    gitTreeState: "clean",
    buildDate: "2025-01-01T00:00:00Z",
    goVersion: `node${process.versions.node}`,
    compiler: "tsc",
    platform: `${process.platform}/${process.arch === "x64" ? "amd64" : process.arch}`,
  };
}
