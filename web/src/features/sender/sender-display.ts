import type { SendingDomain } from "../../api/sender";

/** "Name <address>" as a mail client shows it. */
export function mailbox(address: { name: string; address: string }): string {
  return address.name ? `${address.name} <${address.address}>` : address.address;
}

export const RECORD_LABELS: Record<SendingDomain["records"][number]["kind"], string> = {
  dkim: "DKIM",
  spf: "SPF",
  dmarc: "DMARC",
};
