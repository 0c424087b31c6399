import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * A project's sender identity: who its campaigns and automations' emails come from. The from
 * address is used only once it is verified (a confirmation link sent to it); until then mail goes
 * from the platform's address with the business's name, and the business's address as Reply-To.
 */

/** An address with a display name, as nodemailer takes it (it quotes and encodes the name). */
export interface MailAddress {
  name: string;
  address: string;
}

/** What a sender identity holds (as saved by the owner or a project admin). */
export interface SenderSettings {
  fromName: string;
  /** The address the business wants to send from ("" when none). */
  fromAddress: string;
  /** Where replies go ("" = the from address). */
  replyTo: string;
}

/** The DKIM signing options of nodemailer (`dkim`), for one sending domain. */
export interface DkimSigning {
  domainName: string;
  keySelector: string;
  /** PKCS#8 PEM; never logged, never answered. */
  privateKey: string;
}

/** How an email is sent for a project: its From, Reply-To and DKIM signature. */
export interface ResolvedSender {
  from: MailAddress;
  /** Absent: replies go to From. */
  replyTo?: string;
  dkim?: DkimSigning;
  /** Whether the From is the business's own, verified address (else the platform's). */
  ownAddress: boolean;
}

export const LIMITS = { fromName: 100, address: 254 } as const;

/** A display name safe for a header: no line breaks, control characters or angle brackets. */
export function headerDisplayName(name: string): string {
  return name
    .replace(/[\p{Cc}<>"]/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, LIMITS.fromName);
}

/** The domain of an address, lower case ("" when there is none). */
export function domainOf(address: string): string {
  const at = address.lastIndexOf("@");
  return at > 0 ? address.slice(at + 1).toLowerCase() : "";
}

/** An address as stored and compared: trimmed, lower case. */
export function normalAddress(address: string): string {
  return address.trim().toLowerCase();
}

/**
 * The sender of a project's email.
 * - A verified from address: `fromName <fromAddress>`, Reply-To the reply-to when set; signed with
 *   `dkim` when given (the caller gives it only for a domain whose DKIM record checked as verified
 *   and that is the from address's domain).
 * - Otherwise: the platform's address with the business's name (the identity's from name, else the
 *   business profile's name, else the platform's), Reply-To the reply-to, else the business's from
 *   address; never signed with the business's key.
 */
export function resolveSender(input: {
  settings: SenderSettings | null;
  /** Whether `settings.fromAddress` is verified. */
  verified: boolean;
  /** The business profile's name ("" when unknown). */
  businessName: string;
  /** The platform's From (MAIL_FROM / EMAIL_FROM). */
  platform: MailAddress;
  dkim?: DkimSigning | null;
}): ResolvedSender {
  const { settings, verified, platform } = input;
  const name =
    headerDisplayName(settings?.fromName ?? "") || headerDisplayName(input.businessName) || platform.name || "";
  const fromAddress = settings ? normalAddress(settings.fromAddress) : "";
  const replyTo = settings ? normalAddress(settings.replyTo) : "";
  if (fromAddress && verified) {
    const dkim = input.dkim && input.dkim.domainName === domainOf(fromAddress) ? input.dkim : undefined;
    return {
      from: { name, address: fromAddress },
      ...(replyTo && replyTo !== fromAddress ? { replyTo } : {}),
      ...(dkim ? { dkim } : {}),
      ownAddress: true,
    };
  }
  const reply = replyTo || fromAddress;
  return { from: { name, address: platform.address }, ...(reply ? { replyTo: reply } : {}), ownAddress: false };
}

/** "Name <a@b>" → { name, address } (MAIL_FROM's form). */
export function parseMailbox(text: string): MailAddress {
  const match = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(text);
  if (!match) return { name: "", address: text.trim() };
  return { name: match[1]!.replace(/^"|"$/g, "").trim(), address: match[2]!.trim() };
}

/** The claim of an address confirmation link: this project's address, until `expiresAt` (ms). */
export interface AddressClaim {
  /** Single use: the first confirmation records this id. */
  tokenId: string;
  projectId: string;
  address: string;
  expiresAt: number;
}

const mac = (secret: string, payload: string) =>
  createHmac("sha256", secret).update("sender-address\n").update(payload).digest("base64url");

/** A signed token carrying `claim` (base64url JSON and its HMAC-SHA256). */
export function signAddressToken(secret: string, claim: AddressClaim): string {
  const payload = Buffer.from(
    JSON.stringify({ t: claim.tokenId, p: claim.projectId, a: claim.address, e: claim.expiresAt }),
  ).toString("base64url");
  return `${payload}.${mac(secret, payload)}`;
}

/**
 * The claim of a token this secret signed, or why it is refused: "invalid" (tampered, truncated,
 * foreign) or "expired" (after `expiresAt`).
 */
export function verifyAddressToken(
  secret: string,
  token: string,
  now: number,
): { claim: AddressClaim } | { error: "invalid" | "expired" } {
  const dot = token.lastIndexOf(".");
  if (dot <= 0 || token.length > 2048) return { error: "invalid" };
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(mac(secret, payload));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { error: "invalid" };
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return { error: "invalid" };
  }
  const { t, p, a, e } = (raw ?? {}) as Record<string, unknown>;
  if (typeof t !== "string" || typeof p !== "string" || typeof a !== "string" || typeof e !== "number")
    return { error: "invalid" };
  if (now > e) return { error: "expired" };
  return { claim: { tokenId: t, projectId: p, address: a, expiresAt: e } };
}
