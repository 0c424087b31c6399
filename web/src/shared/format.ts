const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export function formatDateTime(value: string | null | undefined): string {
  if (!value) return "";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? "" : dateTime.format(date);
}

// The interface is English: its numbers and plurals follow English rules wherever it is read.
const numbers = new Intl.NumberFormat("en");
const plurals = new Intl.PluralRules("en");

/** 1234 → "1,234", 0.5 → "0.5" (grouped, English). */
export function formatNumber(value: number): string {
  return numbers.format(value);
}

/**
 * A count with its noun in the right number: countLabel(1, "contact") → "1 contact",
 * countLabel(1200, "contact") → "1,200 contacts", countLabel(2, "entry", "entries") → "2 entries".
 * @param other the plural when it is not `one` + "s"
 */
export function countLabel(count: number, one: string, other = `${one}s`): string {
  return `${formatNumber(count)} ${plurals.select(count) === "one" ? one : other}`;
}

const wholeUsd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });
const centsUsd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2 });

/** US dollars as plan cards and packs show them: "$29", "$24.17", "$1,200", "$290.04". */
export function formatUsd(amount: number): string {
  return (Number.isInteger(amount) ? wholeUsd : centsUsd).format(amount);
}

/** "1 credit", "0 credits", "2,500 credits". */
export function creditsLabel(count: number): string {
  return countLabel(count, "credit");
}

/** "BlogWriter" → "Blog Writer". */
export function humanize(name: string): string {
  return name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim();
}

export function greeting(now = new Date()): string {
  const hour = now.getHours();
  if (hour < 12) return "Good morning";
  if (hour < 18) return "Good afternoon";
  return "Good evening";
}
