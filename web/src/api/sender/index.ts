import useSWR from "swr";
import { apiKey, fetcher, http } from "../api";
import type { PathsFor, ResultOf, Schema } from "../contract";

/**
 * Reads and writes of Settings → Sender (notifications' SendersService), typed by the gateway's
 * OpenAPI document. Keys are the URLs they are read from (`apiKey`).
 */

export type SenderIdentity = Schema<"SenderIdentity">;
export type SendingDomain = Schema<"SendingDomain">;
export type DnsRecord = SendingDomain["records"][number];
export type RecordStatus = DnsRecord["status"];

/** Where a from address's emailed confirmation link is POSTed (`{ token }`). */
export const SENDER_CONFIRM_PATH = "/api/email/sender/confirm" satisfies PathsFor<"post">;

export const senderKeys = {
  /** The active project's sender, or `projectId`'s. */
  identity: (projectId?: string) => apiKey("/api/email/sender", projectId ? { query: { projectId } } : undefined),
  domains: () => apiKey("/api/email/sender/domains"),
};

export function useSenderIdentity(projectId?: string) {
  return useSWR<SenderIdentity>(senderKeys.identity(projectId), fetcher);
}

export function useSendingDomains() {
  return useSWR<ResultOf<"/api/email/sender/domains", "get">>(senderKeys.domains(), fetcher);
}

/** Saves the sender; a new from address gets a confirmation link and is used once confirmed. */
export function saveSenderIdentity(body: { fromName: string; fromAddress: string; replyTo: string }) {
  return http.put("/api/email/sender", { body });
}

/** Emails a new confirmation link to the pending from address. */
export function resendSenderConfirmation() {
  return http.post("/api/email/sender/confirmation", { body: {} });
}

export function addSendingDomain(domain: string) {
  return http.post("/api/email/sender/domains", { body: { domain } });
}

/** Looks the domain's DKIM, SPF and DMARC records up now. */
export function checkSendingDomain(domain: string) {
  return http.post("/api/email/sender/domains/{domain}/check", { path: { domain } });
}

export function removeSendingDomain(domain: string) {
  return http.del("/api/email/sender/domains/{domain}", { path: { domain } });
}
