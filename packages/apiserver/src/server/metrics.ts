/**
 * Request metrics in Prometheus text format, named as kube-apiserver names them:
 * `apiserver_request_total` and `apiserver_request_duration_seconds` by verb, group, version,
 * resource, subresource, scope and (for the counter) code.
 */

const buckets = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

export interface RequestLabels {
  verb: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  scope: string;
}

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

function labelText(l: Record<string, string>): string {
  return Object.entries(l)
    .map(([k, v]) => `${k}="${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`)
    .join(",");
}

/** Counters and latency histograms of served requests. */
export class RequestMetrics {
  private readonly totals = new Map<string, number>();
  private readonly durations = new Map<string, Histogram>();
  /** Label texts by a cheap key of their values: escaping and joining them per request showed in profiles. */
  private readonly labelTexts = new Map<string, { withCode: string; plain: string }>();

  /** Records one finished request. Watches are counted but kept out of the latency histogram, as upstream. */
  observe(labels: RequestLabels, code: number, seconds: number): void {
    const cacheKey = JSON.stringify([labels.verb, labels.group, labels.version, labels.resource, labels.subresource, labels.scope, code]);
    let texts = this.labelTexts.get(cacheKey);
    if (!texts) {
      texts = { withCode: labelText({ ...labels, component: "apiserver", code: String(code) }), plain: labelText({ ...labels, component: "apiserver" }) };
      this.labelTexts.set(cacheKey, texts);
    }
    this.totals.set(texts.withCode, (this.totals.get(texts.withCode) ?? 0) + 1);
    if (labels.verb === "WATCH") return;
    let h = this.durations.get(texts.plain);
    if (!h) this.durations.set(texts.plain, (h = { counts: buckets.map(() => 0), sum: 0, count: 0 }));
    for (let i = 0; i < buckets.length; i++) if (seconds <= buckets[i]!) h.counts[i]!++;
    h.sum += seconds;
    h.count++;
  }

  /** The exposition text. */
  render(): string {
    const out: string[] = [
      "# HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.",
      "# TYPE apiserver_request_total counter",
    ];
    for (const [l, v] of this.totals) out.push(`apiserver_request_total{${l}} ${v}`);
    out.push(
      "# HELP apiserver_request_duration_seconds [STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.",
      "# TYPE apiserver_request_duration_seconds histogram",
    );
    for (const [l, h] of this.durations) {
      buckets.forEach((b, i) => out.push(`apiserver_request_duration_seconds_bucket{${l},le="${b}"} ${h.counts[i]}`));
      out.push(`apiserver_request_duration_seconds_bucket{${l},le="+Inf"} ${h.count}`);
      out.push(`apiserver_request_duration_seconds_sum{${l}} ${h.sum}`);
      out.push(`apiserver_request_duration_seconds_count{${l}} ${h.count}`);
    }
    return `${out.join("\n")}\n`;
  }
}
