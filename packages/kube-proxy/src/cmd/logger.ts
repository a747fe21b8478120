/** kube-proxy's logger: klog's text format on stderr (its default `--logging-format=text`). */
import { textLogger, type Logger } from "@servicenet/component-base/logs";

/** klog's text lines on stderr, V(n) lines written up to `verbosity` (`-v`). */
export function stderrLogger(verbosity = 0): Logger {
  return textLogger((l) => void process.stderr.write(`${l}\n`), { verbosity });
}
