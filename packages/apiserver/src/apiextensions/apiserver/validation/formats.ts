/**
 * The string formats a CRD schema may use (apiextensions-apiserver pkg/apiserver/validation/
 * formats.go supportedVersionedFormats, as of 1.33) and their checks (kube-openapi
 * pkg/validation/strfmt default.go, date.go, time.go, duration.go, bson.go). Any other format is
 * stripped from the schema (StripUnsupportedFormatsPostProcess): it validates nothing.
 */
import { isIP } from "node:net";

const rxHostname =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const rxUUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const rxUUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const rxUUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const rxUUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const rxBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const rxTime = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;
const rxDurationPart = /(\d+)\s*([A-Za-zµ]+)/g;
const rxGoDuration = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/;
const rxMAC =
  /^(?:[0-9a-f]{2}(?::[0-9a-f]{2}){5}|[0-9a-f]{2}(?::[0-9a-f]{2}){7}|[0-9a-f]{2}(?::[0-9a-f]{2}){19}|[0-9a-f]{2}(?:-[0-9a-f]{2}){5}|[0-9a-f]{2}(?:-[0-9a-f]{2}){7}|[0-9a-f]{2}(?:-[0-9a-f]{2}){19}|[0-9a-f]{4}(?:\.[0-9a-f]{4}){2}|[0-9a-f]{4}(?:\.[0-9a-f]{4}){3}|[0-9a-f]{4}(?:\.[0-9a-f]{4}){9})$/i;
const rxSSN = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const rxHexColor = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const rgbPart = "(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])";
const rxRGBColor = new RegExp(`^rgb\\(\\s*${rgbPart}\\s*,\\s*${rgbPart}\\s*,\\s*${rgbPart}\\s*\\)$`);
const durationUnits = [
  ["ns", "nano"],
  ["us", "µs", "micro"],
  ["ms", "milli"],
  ["s", "sec"],
  ["m", "min"],
  ["h", "hr", "hour"],
  ["d", "day"],
  ["w", "wk", "week"],
];

/** strfmt IsHostname: the pattern, at most 255 bytes, labels of at most 63. */
function isHostname(s: string): boolean {
  return rxHostname.test(s) && Buffer.byteLength(s) <= 255 && s.split(".").every((p) => Buffer.byteLength(p) <= 63);
}

/** time.Parse("2006-01-02"): a real calendar date. */
function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return mo >= 1 && mo <= 12 && d >= 1 && d <= days;
}

/** strfmt IsDateTime: a date, `t`, then a time with a zone. */
function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split("t");
  if (parts.length < 2 || !isDate(parts[0]!)) return false;
  const m = rxTime.exec(parts[1]!);
  return m !== null && m[1]! <= "23" && m[2]! <= "59" && m[3]! <= "59";
}

/** strfmt ParseDuration: Go's time.ParseDuration, or `<n> <unit>` groups with lenient unit names. */
function isDuration(s: string): boolean {
  if (s === "0" || rxGoDuration.test(s)) return true;
  for (const m of s.matchAll(rxDurationPart)) {
    const unit = m[2]!.trim().toLowerCase();
    for (const variants of durationUnits)
      if (variants.some((v, i) => (i === variants.length - 1 && unit.startsWith(v)) || v === unit)) return true;
  }
  return false;
}

/** net/url.ParseRequestURI: an absolute URI or an absolute path, no spaces or control bytes. */
function isRequestURI(s: string): boolean {
  if (/[\s\x00-\x1f\x7f]/.test(s)) return false;
  if (s.startsWith("/")) return true;
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:./.test(s);
}

/** net/mail.ParseAddress: `local@domain` or `Name <local@domain>`. */
function isEmail(s: string): boolean {
  const addr = /^[^<>]*<([^<>]+)>$/.exec(s)?.[1] ?? s;
  return /^[^\s@"(),:;<>[\]\\]+@[^\s@"(),:;<>[\]\\]+$/.test(addr.trim()) && !addr.trim().endsWith(".");
}

/** netutils.ParseCIDRSloppy. */
function isCIDR(s: string): boolean {
  const i = s.indexOf("/");
  if (i < 0) return false;
  const ip = s.slice(0, i).replace(/(^|\.)0+(\d)/g, "$1$2");
  const bits = s.slice(i + 1);
  const fam = isIP(ip);
  return fam !== 0 && /^\d{1,3}$/.test(bits) && Number(bits) <= (fam === 4 ? 32 : 128);
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

function isISBN10(s: string): boolean {
  const v = s.replace(/[\s-]/g, "");
  if (!/^\d{9}[\dX]$/.test(v)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (i + 1) * (v[i] === "X" ? 10 : Number(v[i]));
  return sum % 11 === 0;
}

function isISBN13(s: string): boolean {
  const v = s.replace(/[\s-]/g, "");
  if (!/^\d{13}$/.test(v)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(v[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(v[12]);
}

const checks: Record<string, (s: string) => boolean> = {
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  uri: isRequestURI,
  email: isEmail,
  hostname: isHostname,
  ipv4: (s) => s.includes(".") && isIP(s.replace(/(^|\.)0+(\d)/g, "$1$2")) !== 0,
  ipv6: (s) => isIP(s) === 6,
  cidr: isCIDR,
  mac: (s) => rxMAC.test(s),
  uuid: (s) => rxUUID.test(s),
  uuid3: (s) => rxUUID3.test(s),
  uuid4: (s) => rxUUID4.test(s),
  uuid5: (s) => rxUUID5.test(s),
  isbn: (s) => isISBN10(s) || isISBN13(s),
  isbn10: isISBN10,
  isbn13: isISBN13,
  creditcard: (s) => {
    const d = s.replace(/[ -]/g, "");
    return /^\d{12,19}$/.test(d) && luhn(d);
  },
  ssn: (s) => rxSSN.test(s),
  hexcolor: (s) => rxHexColor.test(s),
  rgbcolor: (s) => rxRGBColor.test(s),
  byte: (s) => rxBase64.test(s),
  password: () => true,
  date: isDate,
  duration: isDuration,
  datetime: isDateTime,
};

/** The check of a supported format (names compared without dashes, as strfmt normalizes them), or undefined. */
export function formatCheck(format: string | undefined): ((s: string) => boolean) | undefined {
  if (format === undefined || format === "") return undefined;
  return checks[format.replaceAll("-", "")];
}
