/**
 * A business's own SendGrid account, connected by API key (spec section 1): what its v3 Web API
 * answers mean and what is sent to it. Pure.
 *
 * Sources: SendGrid v3 API reference — "Retrieve a list of scopes" (`GET /v3/scopes`), "Get All
 * Verified Senders" (`GET /v3/verified_senders`, `limit`, `lastSeenID`), the Event Webhooks API
 * (`POST /v3/user/webhooks/event/settings`, `GET …/settings/all`, `PATCH …/settings/{id}`,
 * `PATCH …/settings/signed/{id}`), and its error shape `{"errors":[{"message","field","help"}]}`.
 */

/** The scope a key needs to send mail: without it the key is refused. */
export const SEND_SCOPE = "mail.send";
/** The scopes that set up the event webhook; without them the key sends, but no events come back. */
export const WEBHOOK_SCOPES = ["user.webhooks.event.settings.read", "user.webhooks.event.settings.update"] as const;

/** What our event webhook is called in the business's SendGrid account. */
export const WEBHOOK_NAME = "Crafter";

/** Senders asked for per page (SendGrid's limit). */
export const SENDERS_PAGE = 100;

/** The gateway's webhook path for one business's SendGrid events. */
export function sendgridWebhookUrl(publicOrigin: string, projectId: string): string {
  return `${publicOrigin.replace(/\/+$/, "")}/api/email/webhooks/sendgrid/${encodeURIComponent(projectId)}`;
}

/** SendGrid's first error message of an answer (`errors[0].message`), or `HTTP <status>`. At most 200 characters. */
export function sendgridErrorText(status: number, json: unknown): string {
  const errors = (json as { errors?: unknown } | null)?.errors;
  const first = Array.isArray(errors) ? (errors[0] as { message?: unknown } | undefined) : undefined;
  const message = typeof first?.message === "string" && first.message ? first.message : `HTTP ${status}`;
  return `${status}: ${message}`.slice(0, 200);
}

/** The key's scopes from `GET /v3/scopes` (`{"scopes":[…]}`); [] for anything else. */
export function scopesOf(json: unknown): string[] {
  const scopes = (json as { scopes?: unknown } | null)?.scopes;
  return Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === "string").slice(0, 500) : [];
}

/** Why a key cannot be connected, readable for the owner; null when it can send mail. */
export function refusalOfScopes(scopes: readonly string[]): string | null {
  if (scopes.includes(SEND_SCOPE)) return null;
  return "This key cannot send mail: give it the Mail Send permission (mail.send) in SendGrid › Settings › API Keys, or create a key with Full Access.";
}

/** Whether the key may set up the event webhook. */
export function canSetUpWebhook(scopes: readonly string[]): boolean {
  return WEBHOOK_SCOPES.every((scope) => scopes.includes(scope));
}

/**
 * The settings of our event webhook: the events Crafter records (delivered, bounce, dropped,
 * spam reports, opens, clicks), enabled, at `url`.
 */
export function eventWebhookSettings(url: string) {
  return {
    enabled: true,
    url,
    friendly_name: WEBHOOK_NAME,
    delivered: true,
    bounce: true,
    dropped: true,
    spam_report: true,
    open: true,
    click: true,
    processed: false,
    deferred: false,
    unsubscribe: false,
    group_unsubscribe: false,
    group_resubscribe: false,
  };
}

/** Of `GET …/settings/all` (`{"webhooks":[…]}`), the id of a webhook posting to `url`, or "". */
export function webhookIdFor(json: unknown, url: string): string {
  const webhooks = (json as { webhooks?: unknown } | null)?.webhooks;
  if (!Array.isArray(webhooks)) return "";
  const hit = webhooks.find((w) => (w as { url?: unknown })?.url === url) as { id?: unknown } | undefined;
  return typeof hit?.id === "string" ? hit.id : "";
}

/** A sender identity as Settings shows it. */
export interface Sender {
  id: string;
  email: string;
  name: string;
  replyTo: string;
  verified: boolean;
}

/** The senders of `GET /v3/verified_senders` (`{"results":[…]}`), and the `lastSeenID` of the next page ("" on the last). */
export function sendersOf(json: unknown, limit: number): { senders: Sender[]; next: string } {
  const results = (json as { results?: unknown } | null)?.results;
  const list = Array.isArray(results) ? results : [];
  const senders = list.flatMap((raw) => {
    const s = raw as Record<string, unknown>;
    if (typeof s?.from_email !== "string" || (typeof s.id !== "number" && typeof s.id !== "string")) return [];
    return [
      {
        id: String(s.id),
        email: s.from_email.slice(0, 320),
        name: typeof s.from_name === "string" ? s.from_name.slice(0, 200) : "",
        replyTo: typeof s.reply_to === "string" ? s.reply_to.slice(0, 320) : "",
        verified: s.verified === true,
      },
    ];
  });
  return { senders, next: list.length >= limit && senders.length > 0 ? senders.at(-1)!.id : "" };
}

/** A key as the owner typed it: trimmed; null when it cannot be a key (empty, spaces inside, too long). */
export function cleanApiKey(value: string): string | null {
  const key = value.trim();
  return key.length > 0 && key.length <= 200 && /^[\x21-\x7e]+$/.test(key) ? key : null;
}
