/** A minimal Prometheus registry: counters, gauges and histograms with labels, rendered as text format 0.0.4. */

type Labels = Readonly<Record<string, string>>;

function labelKey(labels: Labels): string {
  const keys = Object.keys(labels).sort();
  return keys.map((k) => `${k}="${(labels[k] ?? "").replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`).join(",");
}

function fmt(v: number): string {
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  return Number.isNaN(v) ? "NaN" : String(v);
}

abstract class Metric {
  readonly name: string;
  readonly help: string;
  abstract readonly type: string;
  constructor(name: string, help: string) {
    this.name = name;
    this.help = help;
  }
  abstract samples(): string[];
  render(): string {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`, ...this.samples()].join("\n");
  }
}

export class Counter extends Metric {
  readonly type = "counter";
  readonly #values = new Map<string, number>();
  inc(labels: Labels = {}, by = 1): void {
    const k = labelKey(labels);
    this.#values.set(k, (this.#values.get(k) ?? 0) + by);
  }
  get(labels: Labels = {}): number {
    return this.#values.get(labelKey(labels)) ?? 0;
  }
  samples(): string[] {
    return [...this.#values].map(([k, v]) => `${this.name}${k ? `{${k}}` : ""} ${fmt(v)}`);
  }
}

export class Gauge extends Metric {
  readonly type = "gauge";
  readonly #values = new Map<string, number>();
  set(value: number, labels: Labels = {}): void {
    this.#values.set(labelKey(labels), value);
  }
  get(labels: Labels = {}): number {
    return this.#values.get(labelKey(labels)) ?? 0;
  }
  samples(): string[] {
    return [...this.#values].map(([k, v]) => `${this.name}${k ? `{${k}}` : ""} ${fmt(v)}`);
  }
}

interface HistogramSeries {
  counts: number[];
  sum: number;
  count: number;
}

export class Histogram extends Metric {
  readonly type = "histogram";
  readonly buckets: readonly number[];
  readonly #series = new Map<string, HistogramSeries>();
  constructor(name: string, help: string, buckets: readonly number[]) {
    super(name, help);
    this.buckets = buckets;
  }
  observe(value: number, labels: Labels = {}): void {
    const k = labelKey(labels);
    let s = this.#series.get(k);
    if (s === undefined) this.#series.set(k, (s = { counts: this.buckets.map(() => 0), sum: 0, count: 0 }));
    this.buckets.forEach((b, i) => {
      if (value <= b) s.counts[i] = (s.counts[i] ?? 0) + 1;
    });
    s.sum += value;
    s.count++;
  }
  /** Number of observations of one series. */
  count(labels: Labels = {}): number {
    return this.#series.get(labelKey(labels))?.count ?? 0;
  }
  samples(): string[] {
    const out: string[] = [];
    for (const [k, s] of this.#series) {
      const sep = k ? `${k},` : "";
      this.buckets.forEach((b, i) => out.push(`${this.name}_bucket{${sep}le="${fmt(b)}"} ${s.counts[i] ?? 0}`));
      out.push(`${this.name}_bucket{${sep}le="+Inf"} ${s.count}`);
      out.push(`${this.name}_sum${k ? `{${k}}` : ""} ${fmt(s.sum)}`);
      out.push(`${this.name}_count${k ? `{${k}}` : ""} ${s.count}`);
    }
    return out;
  }
}

/** `prometheus.ExponentialBuckets(start, factor, count)`. */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => start * factor ** i);
}

export class Registry {
  readonly #metrics: Metric[] = [];
  register<M extends Metric>(m: M): M {
    this.#metrics.push(m);
    return m;
  }
  /** The text exposition of every registered metric. */
  render(): string {
    return this.#metrics.map((m) => m.render()).join("\n") + "\n";
  }
}
