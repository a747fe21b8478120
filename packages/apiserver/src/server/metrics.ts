/**
 * Request metrics, named as kube-apiserver names them (staging/src/k8s.io/apiserver/pkg/endpoints/
 * metrics/metrics.go): `apiserver_request_total` and `apiserver_request_duration_seconds` by verb,
 * group, version, resource, subresource, scope and (for the counter) code, on component-base's
 * one registry and renderer (label names sorted, as client_golang writes them).
 */
import { MetricsRegistry, type CounterVec, type HistogramVec } from "@servicenet/component-base/metrics";

const buckets = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

export interface RequestLabels {
  verb: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  scope: string;
}

interface Series {
  total: { inc(): void };
  duration: { observe(seconds: number): void };
}

/** Counters and latency histograms of served requests. */
export class RequestMetrics {
  readonly registry = new MetricsRegistry();
  readonly #total: CounterVec;
  readonly #duration: HistogramVec;
  /** Series by a cheap key of their label values: escaping and sorting labels per request showed in profiles. */
  readonly #series = new Map<string, Series>();

  constructor() {
    this.#total = this.registry.counter(
      "apiserver_request_total",
      "[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.",
    );
    this.#duration = this.registry.histogram(
      "apiserver_request_duration_seconds",
      "[STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.",
      buckets,
    );
  }

  /** Records one finished request. Watches are counted but kept out of the latency histogram, as upstream. */
  observe(labels: RequestLabels, code: number, seconds: number): void {
    const cacheKey = JSON.stringify([labels.verb, labels.group, labels.version, labels.resource, labels.subresource, labels.scope, code]);
    let s = this.#series.get(cacheKey);
    if (!s) {
      const plain = { ...labels, component: "apiserver" };
      const total = this.#total.with({ ...plain, code: String(code) });
      // The histogram series is created on first use only: watches never get one.
      let duration: Series["duration"] | undefined;
      s = { total, duration: { observe: (sec) => (duration ??= this.#duration.with(plain)).observe(sec) } };
      this.#series.set(cacheKey, s);
    }
    s.total.inc();
    if (labels.verb !== "WATCH") s.duration.observe(seconds);
  }

  /** The exposition text. */
  render(): string {
    return this.registry.render();
  }
}
