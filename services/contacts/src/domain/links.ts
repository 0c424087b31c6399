import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { type KeyRing, keyRing, openSecret, sealSecret } from "@crafter/kit";

/**
 * Contact link tokens (pure; unit-tested), opaque: the payload is sealed with AES-256-GCM by the
 * kit's secret box (`v2.<keyId>.<iv>.<tag>.<ciphertext>`, base64url parts) under a key derived from
 * CONTACTS_LINK_SECRET, so a token names no user, project or contact to whoever decodes it, cannot
 * be altered, needs no storage and opens after a restart. Two kinds, both expiring (`exp`, epoch
 * seconds):
 * - `confirm` (the double opt-in email): names a lead form submission or an ask, CONFIRM_TTL_S;
 * - `contact` (preference centre, unsubscribe, RFC 8058 one-click): names a contact,
 *   CONTACT_LINK_TTL_S, long past CAN-SPAM's 30 days so an old email's unsubscribe link works.
 * Tokens of the older signed form (`<base64url JSON>.<HMAC>`, readable) still open: a confirm link
 * until its own `exp`, a contact link (which had none) until LEGACY_CONTACT_LINKS_UNTIL_S.
 */
export type LinkPayload =
  | { kind: "confirm"; submissionId: string; exp: number }
  /** `exp` defaults to the signing time plus CONTACT_LINK_TTL_S. */
  | { kind: "contact"; userId: string; projectId: string; contactId: string; exp?: number };

/** Longest token accepted before any work (ids are ≤ 64 characters each). */
export const MAX_TOKEN_LENGTH = 600;

/** How long a double opt-in link stays valid: 7 days. */
export const CONFIRM_TTL_S = 7 * 24 * 3600;

/** How long a contact's preference and unsubscribe links stay valid: 400 days. */
export const CONTACT_LINK_TTL_S = 400 * 24 * 3600;

/** Until when contact links of the older readable form open (2027-03-01T00:00:00Z): they had no expiry. */
export const LEGACY_CONTACT_LINKS_UNTIL_S = Date.UTC(2027, 2, 1) / 1000;

/** Additional data of the seal, so no other secret sealed with the same key passes for a link. */
const AAD = "crafter.contacts.link";

const rings = new Map<string, KeyRing>();
/** The ring of a link secret: one AES key, HKDF-SHA256 of the secret, made once per secret. */
function ringOf(secret: string): KeyRing {
  let ring = rings.get(secret);
  if (!ring) {
    const key = Buffer.from(hkdfSync("sha256", secret, "", "crafter contact links v2", 32));
    ring = keyRing([{ id: "l1", key }]);
    rings.set(secret, ring);
  }
  return ring;
}

/** `nowS` (epoch seconds) sets a contact link's default expiry. */
export function signLinkToken(secret: string, payload: LinkPayload, nowS = Math.floor(Date.now() / 1000)): string {
  const compact =
    payload.kind === "confirm"
      ? { k: "c", s: payload.submissionId, e: payload.exp }
      : {
          k: "p",
          u: payload.userId,
          p: payload.projectId,
          c: payload.contactId,
          e: payload.exp ?? nowS + CONTACT_LINK_TTL_S,
        };
  return sealSecret(ringOf(secret), JSON.stringify(compact), AAD);
}

const isId = (value: unknown): value is string => typeof value === "string" && value.length <= 64;

type Verified = { ok: true; payload: LinkPayload } | { ok: false; reason: "invalid" | "expired" };

/** The payload of a token's decoded JSON, or why not; `legacyContactExp` for contact links without `e`. */
function payloadOf(data: Record<string, unknown>, nowS: number, legacyContactExp?: number): Verified {
  if (data.k === "c" && isId(data.s) && typeof data.e === "number") {
    if (data.e < nowS) return { ok: false, reason: "expired" };
    return { ok: true, payload: { kind: "confirm", submissionId: data.s, exp: data.e } };
  }
  const exp = legacyContactExp ?? data.e;
  if (data.k === "p" && isId(data.u) && isId(data.p) && isId(data.c) && typeof exp === "number") {
    if (exp < nowS) return { ok: false, reason: "expired" };
    return { ok: true, payload: { kind: "contact", userId: data.u, projectId: data.p, contactId: data.c, exp } };
  }
  return { ok: false, reason: "invalid" };
}

const parse = (text: string): Record<string, unknown> | undefined => {
  try {
    const data = JSON.parse(text);
    return data && typeof data === "object" ? data : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The payload of a genuine token, or why not: "invalid" (malformed, altered, other secret) or
 * "expired" (past its `exp`). `nowS` in epoch seconds.
 */
export function verifyLinkToken(secret: string, token: string, nowS: number): Verified {
  if (typeof token !== "string" || token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: "invalid" };
  if (token.startsWith("v2.")) {
    let text: string;
    try {
      text = openSecret(ringOf(secret), token, AAD);
    } catch {
      return { ok: false, reason: "invalid" };
    }
    const data = parse(text);
    return data ? payloadOf(data, nowS) : { ok: false, reason: "invalid" };
  }
  return verifyLegacy(secret, token, nowS);
}

/** The older signed form: `<base64url JSON>.<HMAC-SHA256 of it>`. */
function verifyLegacy(secret: string, token: string, nowS: number): Verified {
  const dot = token.indexOf(".");
  if (dot <= 0 || dot !== token.lastIndexOf(".")) return { ok: false, reason: "invalid" };
  const body = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), "base64url");
  const expected = createHmac("sha256", secret).update(body).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "invalid" };
  const data = parse(Buffer.from(body, "base64url").toString("utf8"));
  return data
    ? payloadOf(data, nowS, data.k === "p" ? LEGACY_CONTACT_LINKS_UNTIL_S : undefined)
    : { ok: false, reason: "invalid" };
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
