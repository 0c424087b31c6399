import type { AutomationContacts, ContactMailer } from "../domain/automation-ports";
import { escapeHtml } from "../domain/templates";
import { deliverEmail } from "./deliver-email";

/**
 * The automations' ContactMailer until email-api's `sendToContact` is merged (docs/email-contract.md):
 * consent checked (subscribed only), the contact's smart values filled, one SMTP delivery per key
 * (the deliveries' unique key). It has no footer, tracking or `emails` counter yet; main.ts swaps it
 * for `sendToContact` at merge.
 */
export function interimContactMailer(
  deps: Parameters<typeof deliverEmail>[0],
  contacts: AutomationContacts,
): ContactMailer {
  return {
    async sendToContact(input) {
      const contact = await contacts.get(input.userId, input.projectId, input.contactId);
      if (!contact) throw new Error("The contact no longer exists");
      if (contact.consent !== "subscribed") return { deliveryId: "", status: "skipped", reason: "not_subscribed" };
      const values: Record<string, string> = {
        "contact.firstName": contact.firstName,
        "contact.lastName": contact.lastName,
        "contact.email": contact.email,
      };
      const html = fillSmartValues(input.html, values, escapeHtml);
      const sent = await deliverEmail(deps, {
        eventId: input.key,
        userId: input.userId,
        to: contact.email,
        template: "automation",
        email: {
          subject: fillSmartValues(input.subject, values, (s) => s),
          html,
          text: html
            .replace(/<\/p>/g, "\n\n")
            .replace(/<[^>]*>/g, "")
            .trim(),
        },
      });
      return sent === "sent"
        ? { deliveryId: input.key, status: "queued" }
        : { deliveryId: input.key, status: "skipped", reason: "duplicate" };
    },
  };
}

/** Replaces `{{name}}` and `{{name | "fallback"}}` with the values given (unknown names: their fallback or ""). */
export function fillSmartValues(
  template: string,
  values: Record<string, string>,
  escapeText: (value: string) => string,
): string {
  return template.replace(
    /\{\{\s*([a-zA-Z_.]+)\s*(?:\|\s*"([^"]*)"\s*)?\}\}/g,
    (_all, name: string, fallback?: string) => escapeText(values[name] || fallback || ""),
  );
}
