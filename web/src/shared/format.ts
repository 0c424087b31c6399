const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export function formatDateTime(value: string | null | undefined): string {
  if (!value) return "";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? "" : dateTime.format(date);
}

const plural = new Intl.PluralRules("en");

/** "1 credit", "0 credits", "2 credits" (English plural rules). */
export function creditsLabel(count: number): string {
  return `${count} ${plural.select(count) === "one" ? "credit" : "credits"}`;
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
