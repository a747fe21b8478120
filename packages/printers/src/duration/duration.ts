/**
 * k8s.io/apimachinery/pkg/util/duration (duration.go): HumanDuration and ShortHumanDuration.
 * Durations are milliseconds. Go converts with `int(d.Seconds())` and `int(d / time.Minute)`,
 * both of which truncate toward zero, so a skew of -1.999 s is still "0s" (not "<invalid>").
 */

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;

/** Go's int(x) of a float: truncation toward zero. */
const int = Math.trunc;

/**
 * HumanDuration: ~2-3 significant figures ("5s", "2m30s", "45m", "3h20m", "12h", "2d3h", "30d",
 * "2y45d", "9y"); up to 2 s in the future (clock skew) is "0s", further is "<invalid>".
 */
export function humanDuration(ms: number): string {
  const seconds = int(ms / second);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = int(ms / minute);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = int(ms / hour);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${int(hours / 24)}d` : `${int(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${int(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = int(hours / 24) % 365;
    const y = int(hours / 24 / 365);
    return dy === 0 ? `${y}y` : `${y}y${dy}d`;
  }
  return `${int(hours / 24 / 365)}y`;
}

/** ShortHumanDuration: one unit only ("59s", "1m", "23h", "364d", "2y"), same skew rule. */
export function shortHumanDuration(ms: number): string {
  const seconds = int(ms / second);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60) return `${seconds}s`;
  const minutes = int(ms / minute);
  if (minutes < 60) return `${minutes}m`;
  const hours = int(ms / hour);
  if (hours < 24) return `${hours}h`;
  if (hours < 24 * 365) return `${int(hours / 24)}d`;
  return `${int(ms / hour / 24 / 365)}y`;
}
