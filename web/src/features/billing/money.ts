import { formatUsd } from "../../shared/format";

/** "$29" / "$24.17": USD as the plan cards show it. */
export function usd(amount: number): string {
  return formatUsd(amount);
}

/** Cents in a currency → "$12.00". */
export function money(cents: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() || "USD" }).format(
    cents / 100,
  );
}
