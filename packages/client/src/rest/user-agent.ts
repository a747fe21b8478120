/**
 * User-Agent strings as client-go builds them (staging/src/k8s.io/client-go/rest/config.go
 * DefaultKubernetesUserAgent, AddUserAgent). The apiserver takes the part before the first `/` as
 * the default field manager (managedFields), so a component's writes are recorded under the name
 * a real cluster records them under: `kube-controller-manager`, `kube-scheduler`, `kubelet`.
 */

/** The Kubernetes release these components implement, as the apiserver's /version reports it. */
const gitVersion = "v1.33.0+servicenet";
const gitCommit = "0000000000000000000000000000000000000000";

/** Go's GOARCH for Node's `process.arch`. */
function goArch(arch: string): string {
  return arch === "x64" ? "amd64" : arch === "ia32" ? "386" : arch;
}

/**
 * DefaultKubernetesUserAgent: `<command>/<version> (<os>/<arch>) kubernetes/<commit>`, the version
 * cut at its first `-` (adjustVersion) and the commit at 7 characters (adjustCommit).
 */
export function defaultKubernetesUserAgent(command: string): string {
  const version = gitVersion.split("-", 1)[0] || "unknown";
  const commit = gitCommit.slice(0, 7) || "unknown";
  return `${command}/${version} (${process.platform}/${goArch(process.arch)}) kubernetes/${commit}`;
}

/** AddUserAgent: `base` followed by `/<suffix>` (a controller's name, as kube-controller-manager adds it). */
export function addUserAgent(base: string, suffix: string): string {
  return `${base}/${suffix}`;
}
