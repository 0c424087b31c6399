import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Signed link tokens (pure; unit-tested): `<payload>.<signature>`, both base64url, the signature an
 * HMAC-SHA256 of the payload with CONTACTS_LINK_SECRET. Two kinds:
 * - `confirm` (the double opt-in email): names a lead form submission, expires (`exp`, epoch seconds);
 * - `contact` (preference centre, unsubscribe, one-click): names a contact, no expiry, so an old
 *   email's unsubscribe link keeps working (CAN-SPAM, RFC 8058).
 */
export type LinkPayload =
  | { kind: "confirm"; submissionId: string; exp: number }
  | { kind: "contact"; userId: string; projectId: string; contactId: string };

/** Longest token accepted before any work (ids are ≤ 64 characters each). */
export const MAX_TOKEN_LENGTH = 600;

/** How long a double opt-in link stays valid: 7 days. */
export const CONFIRM_TTL_S = 7 * 24 * 3600;

const sign = (secret: string, payload: string) => createHmac("sha256", secret).update(payload).digest("base64url");

export function signLinkToken(secret: string, payload: LinkPayload): string {
  const compact =
    payload.kind === "confirm"
      ? { k: "c", s: payload.submissionId, e: payload.exp }
      : { k: "p", u: payload.userId, p: payload.projectId, c: payload.contactId };
  const body = Buffer.from(JSON.stringify(compact)).toString("base64url");
  return `${body}.${sign(secret, body)}`;
}

const isId = (value: unknown): value is string => typeof value === "string" && value.length <= 64;

/**
 * The payload of a genuine token, or why not: "invalid" (malformed, forged, other secret) or
 * "expired" (a confirm link past its `exp`). `nowS` in epoch seconds.
 */
export function verifyLinkToken(
  secret: string,
  token: string,
  nowS: number,
): { ok: true; payload: LinkPayload } | { ok: false; reason: "invalid" | "expired" } {
  if (typeof token !== "string" || token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: "invalid" };
  const dot = token.indexOf(".");
  if (dot <= 0 || dot !== token.lastIndexOf(".")) return { ok: false, reason: "invalid" };
  const body = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), "base64url");
  const expected = Buffer.from(sign(secret, body), "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "invalid" };
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return { ok: false, reason: "invalid" };
  }
  if (data.k === "c" && isId(data.s) && typeof data.e === "number") {
    if (data.e < nowS) return { ok: false, reason: "expired" };
    return { ok: true, payload: { kind: "confirm", submissionId: data.s, exp: data.e } };
  }
  if (data.k === "p" && isId(data.u) && isId(data.p) && isId(data.c)) {
    return { ok: true, payload: { kind: "contact", userId: data.u, projectId: data.p, contactId: data.c } };
  }
  return { ok: false, reason: "invalid" };
}

/** The contact's links of emails, on the web origin `origin`. */
export function contactLinks(origin: string, token: string) {
  const base = origin.replace(/\/+$/, "");
  const preferences = `${base}/preferences/${encodeURIComponent(token)}`;
  return {
    unsubscribeUrl: preferences,
    preferencesUrl: preferences,
    oneClickUrl: `${base}/api/public/unsubscribe/${encodeURIComponent(token)}`,
  };
}

/** The double opt-in link (the web's /confirm page). */
export function confirmLink(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, "")}/confirm?token=${encodeURIComponent(token)}`;
}
