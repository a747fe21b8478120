/**
 * The one Prometheus registry of every component (component-base/metrics over
 * prometheus/client_golang): counters, gauges and histograms with labels, rendered in the text
 * exposition format 0.0.4 (prometheus/common expfmt). Names carry their namespace and subsystem
 * already joined, as upstream's `metrics.NewCounterVec(Namespace, Subsystem, Name)` exposes them;
 * `ALPHA` metrics get upstream's `[ALPHA] ` help prefix.
 */

/** Upstream prometheus.DefBuckets. */
export const defBuckets: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** `prometheus.ExponentialBuckets(start, factor, count)`. */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => start * factor ** i);
}

/** A sample value as expfmt writes it: `+Inf`, `-Inf` and `NaN` spelled out. */
export function formatValue(v: number): string {
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  return Number.isNaN(v) ? "NaN" : String(v);
}

export type Labels = Readonly<Record<string, string>>;

function labelKey(labels: Labels): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}="${labels[k]!.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`)
    .join(",");
}

interface Metric {
  render(out: string[]): void;
}

abstract class Vec<V> implements Metric {
  protected readonly values = new Map<string, V>();
  readonly name: string;
  readonly #help: string;
  readonly #type: string;

  constructor(name: string, help: string, type: string) {
    this.name = name;
    this.#help = help;
    this.#type = type;
  }

  protected slot(labels: Labels, init: () => V): V {
    const k = labelKey(labels);
    let v = this.values.get(k);
    if (v === undefined) this.values.set(k, (v = init()));
    return v;
  }

  render(out: string[]): void {
    out.push(`# HELP ${this.name} ${this.#help}`, `# TYPE ${this.name} ${this.#type}`);
    for (const [k, v] of this.values) this.renderValue(out, k, v);
  }

  protected abstract renderValue(out: string[], key: string, v: V): void;
}

const braces = (k: string, extra = ""): string => {
  const all = [k, extra].filter((s) => s !== "").join(",");
  return all === "" ? "" : `{${all}}`;
};

/** A monotonically increasing counter per label set. */
export class CounterVec extends Vec<{ v: number }> {
  constructor(name: string, help: string) {
    super(name, help, "counter");
  }

  inc(labels: Labels = {}, by = 1): void {
    this.slot(labels, () => ({ v: 0 })).v += by;
  }

  /**
   * The counter of one label set (client_golang `With`), for hot paths: the label text is
   * escaped and sorted once, not on every increment.
   */
  with(labels: Labels = {}): { inc(by?: number): void } {
    const slot = this.slot(labels, () => ({ v: 0 }));
    return {
      inc(by = 1) {
        slot.v += by;
      },
    };
  }

  /** The current value (tests). */
  get(labels: Labels = {}): number {
    return this.values.get(labelKey(labels))?.v ?? 0;
  }

  protected renderValue(out: string[], k: string, v: { v: number }): void {
    out.push(`${this.name}${braces(k)} ${formatValue(v.v)}`);
  }
}

/** A value that goes up and down per label set. */
export class GaugeVec extends Vec<{ v: number }> {
  constructor(name: string, help: string) {
    super(name, help, "gauge");
  }

  set(labels: Labels, value: number): void {
    this.slot(labels, () => ({ v: 0 })).v = value;
  }

  get(labels: Labels = {}): number {
    return this.values.get(labelKey(labels))?.v ?? 0;
  }

  protected renderValue(out: string[], k: string, v: { v: number }): void {
    out.push(`${this.name}${braces(k)} ${formatValue(v.v)}`);
  }
}

interface Hist {
  counts: number[];
  sum: number;
  count: number;
}

/** A histogram per label set. */
export class HistogramVec extends Vec<Hist> {
  readonly #buckets: readonly number[];

  constructor(name: string, help: string, buckets: readonly number[] = defBuckets) {
    super(name, help, "histogram");
    this.#buckets = buckets;
  }

  observe(labels: Labels, seconds: number): void {
    this.#observe(this.#slot(labels), seconds);
  }

  /** The histogram of one label set (client_golang `With`), for hot paths. */
  with(labels: Labels = {}): { observe(seconds: number): void } {
    const h = this.#slot(labels);
    return { observe: (seconds) => this.#observe(h, seconds) };
  }

  #slot(labels: Labels): Hist {
    return this.slot(labels, () => ({ counts: this.#buckets.map(() => 0), sum: 0, count: 0 }));
  }

  #observe(h: Hist, seconds: number): void {
    const buckets = this.#buckets;
    for (let i = 0; i < buckets.length; i++) if (seconds <= buckets[i]!) h.counts[i]!++;
    h.sum += seconds;
    h.count++;
  }

  /** Number of observations (tests). */
  count(labels: Labels = {}): number {
    return this.values.get(labelKey(labels))?.count ?? 0;
  }

  protected renderValue(out: string[], k: string, h: Hist): void {
    this.#buckets.forEach((b, i) => out.push(`${this.name}_bucket${braces(k, `le="${formatValue(b)}"`)} ${h.counts[i]}`));
    out.push(
      `${this.name}_bucket${braces(k, 'le="+Inf"')} ${h.count}`,
      `${this.name}_sum${braces(k)} ${formatValue(h.sum)}`,
      `${this.name}_count${braces(k)} ${h.count}`,
    );
  }
}

/** A set of metrics rendered together. Registering a name twice returns the first metric. */
export class MetricsRegistry {
  readonly #metrics = new Map<string, Metric>();
  readonly #collectors: (() => void)[] = [];

  /** Runs `fn` before every render: gauges that are costly to keep current are set there. */
  addCollector(fn: () => void): void {
    this.#collectors.push(fn);
  }

  #get<M extends Metric>(name: string, make: () => M): M {
    let m = this.#metrics.get(name);
    if (!m) this.#metrics.set(name, (m = make()));
    return m as M;
  }

  counter(name: string, help: string): CounterVec {
    return this.#get(name, () => new CounterVec(name, help));
  }

  gauge(name: string, help: string): GaugeVec {
    return this.#get(name, () => new GaugeVec(name, help));
  }

  histogram(name: string, help: string, buckets?: readonly number[]): HistogramVec {
    return this.#get(name, () => new HistogramVec(name, help, buckets));
  }

  /** The exposition text (empty when nothing is registered). */
  render(): string {
    for (const c of this.#collectors) c();
    const out: string[] = [];
    for (const m of this.#metrics.values()) m.render(out);
    return out.length === 0 ? "" : `${out.join("\n")}\n`;
  }
}
