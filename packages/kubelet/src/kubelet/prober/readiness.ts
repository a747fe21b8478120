/**
 * Readiness probe timing (pkg/kubelet/prober/worker.go): the worker probes right after the
 * container starts and then every periodSeconds (default 10); a probe before initialDelaySeconds
 * counts as a failure. A simulated probe always succeeds once it may, so the container turns
 * ready at the first probe at or after initialDelaySeconds. No probe: ready once running.
 */

interface ProbeFields {
  initialDelaySeconds?: number;
  periodSeconds?: number;
}

/** How long after its start a container of this spec turns ready. */
export function readyAfterMs(container: Readonly<Record<string, unknown>>): number {
  const probe = container["readinessProbe"] as ProbeFields | null | undefined;
  if (probe === undefined || probe === null) return 0;
  const delay = Math.max(0, probe.initialDelaySeconds ?? 0);
  const period = Math.max(1, probe.periodSeconds ?? 10);
  return Math.ceil(delay / period) * period * 1000;
}
