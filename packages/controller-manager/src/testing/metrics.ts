/** Reading the controller-manager's metrics registry in tests, as a scraper would. */
import type { MetricsRegistry } from "@servicenet/component-base/metrics";

/** The value of one sample line (`series` with its labels as rendered) of the exposition text. */
export function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** A reader of one registry's current samples. */
export function sampleReader(registry: MetricsRegistry): (series: string) => number | undefined {
  return (series) => sample(registry.render(), series);
}
