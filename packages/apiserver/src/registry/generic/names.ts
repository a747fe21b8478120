/** Name generation (upstream `names.SimpleNameGenerator`) and the object-meta system fields. */
import { randomInt } from "node:crypto";
import { formatRFC3339 } from "../../util/time/rfc3339.ts";

// Upstream's alphabet: no vowels (no accidental words) and no confusable characters.
const alphabet = "bcdfghjklmnpqrstvwxz2456789";
const randomLength = 5;
const maxGeneratedNameLength = 63 - randomLength;

/** `generateName` + 5 random characters, the base cut to keep the total within 63. */
export function generateName(base: string): string {
  const b = base.length > maxGeneratedNameLength ? base.slice(0, maxGeneratedNameLength) : base;
  let s = "";
  for (let i = 0; i < randomLength; i++) s += alphabet[randomInt(alphabet.length)];
  return b + s;
}

/** RFC 3339 with second precision, as metav1.Time serialises. */
export function nowRFC3339(now = new Date()): string {
  return formatRFC3339(now);
}
