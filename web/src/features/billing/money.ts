/** Cents in a currency → "$12.00". */
export function money(cents: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() || "USD" }).format(
    cents / 100,
  );
}
