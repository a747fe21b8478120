/** Name generation (upstream `names.SimpleNameGenerator`) and the object-meta system fields. */
import { randomInt } from "node:crypto";

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

let lastSecond = -1;
let lastText = "";

/** RFC 3339 with second precision, as metav1.Time serialises (the text is reused within one second). */
export function nowRFC3339(now = new Date()): string {
  const second = Math.floor(now.getTime() / 1000);
  if (second !== lastSecond) {
    lastText = now.toISOString().replace(/\.\d{3}Z$/, "Z");
    lastSecond = second;
  }
  return lastText;
}
