/** The gateway paths and shapes of Settings → Sender (notifications' SendersService). */
export const senderPaths = {
  identity: "/api/email/sender",
  confirmation: "/api/email/sender/confirmation",
  confirm: "/api/email/sender/confirm",
  domains: "/api/email/sender/domains",
  check: (domain: string) => `/api/email/sender/domains/${encodeURIComponent(domain)}/check`,
  domain: (domain: string) => `/api/email/sender/domains/${encodeURIComponent(domain)}`,
} as const;

/** A project's sender identity as `GET /api/email/sender` answers it. */
export interface SenderIdentity {
  projectId: string;
  fromName: string;
  fromAddress: string;
  replyTo: string;
  addressStatus: "unset" | "pending" | "verified";
  linkSentAt: string;
  effectiveFrom: { name: string; address: string };
  effectiveReplyTo: string;
  dkimActive: boolean;
  platformAddress: string;
}

export type RecordStatus = "verified" | "pending" | "wrong";

/** A sending domain with the DNS records to publish (never its private key). */
export interface SendingDomain {
  domain: string;
  selector: string;
  records: Array<{
    kind: "dkim" | "spf" | "dmarc";
    type: "TXT";
    host: string;
    value: string;
    status: RecordStatus;
    found: string[];
    reason: string;
  }>;
  checkedAt: string;
  dkimVerified: boolean;
}

/** "Name <address>" as a mail client shows it. */
export function mailbox(address: { name: string; address: string }): string {
  return address.name ? `${address.name} <${address.address}>` : address.address;
}

export const RECORD_LABELS: Record<SendingDomain["records"][number]["kind"], string> = {
  dkim: "DKIM",
  spf: "SPF",
  dmarc: "DMARC",
};
