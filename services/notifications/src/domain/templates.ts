/**
 * Transactional email templates. Pure: every input (names, links, times) is passed in, nothing is
 * read from the clock or the environment, so the output is deterministic and unit-tested.
 */

import escapeHtml from "escape-html";

/** A rendered email, ready for the mailer. */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** Names of the templates, as recorded on each delivery. */
export type TemplateName =
  | "verify-email"
  | "reset-password"
  | "confirm-subscription"
  | "confirm-email-change"
  | "email-change-notice"
  | "project-invite"
  | "review-notice"
  | "review-request";

export const VERIFY_SUBJECT = "Verify your email for Crafter";
export const RESET_SUBJECT = "Reset your Crafter password";

/** A user-provided display name made safe for one line of text: control characters removed, at most 80 characters. */
export function cleanDisplayName(name: string | undefined): string {
  const printable = Array.from(name ?? "", (char) => {
    const code = char.charCodeAt(0);
    return code < 0x20 || code === 0x7f ? " " : char;
  }).join("");
  const cleaned = printable.replace(/\s+/g, " ").trim();
  return cleaned.length > 80 ? `${cleaned.slice(0, 79)}…` : cleaned;
}

/**
 * A link to a page of this deployment carrying a one-time token.
 * @param origin e.g. "http://localhost:8080" (a trailing slash is tolerated).
 * @param path e.g. "/verify".
 */
export function tokenLink(origin: string, path: string, token: string): string {
  return `${origin.replace(/\/+$/, "")}${path}?token=${encodeURIComponent(token)}`;
}

/**
 * Says when a link expires, relative to `now` and as an absolute UTC time:
 * "in 24 hours (Tue, 25 Nov 2025 10:00 UTC)". Null or invalid `expiresAt` → "soon".
 */
export function describeExpiry(expiresAt: Date | null | undefined, now: Date): string {
  if (!expiresAt || Number.isNaN(expiresAt.getTime())) return "soon";
  const minutes = Math.round((expiresAt.getTime() - now.getTime()) / 60_000);
  const absolute = formatUtc(expiresAt);
  if (minutes <= 0) return `at ${absolute}`;
  let relative: string;
  if (minutes < 90) relative = plural(minutes, "minute");
  else if (minutes < 48 * 60) relative = plural(Math.round(minutes / 60), "hour");
  else relative = plural(Math.round(minutes / (24 * 60)), "day");
  return `in ${relative} (${absolute})`;
}

const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? "" : "s"}`;

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (value: number) => String(value).padStart(2, "0");

/** "Tue, 25 Nov 2025 10:00 UTC". */
export function formatUtc(date: Date): string {
  return `${DAYS[date.getUTCDay()]}, ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

interface Layout {
  greeting: string;
  intro: string;
  action: string;
  link: string;
  expiry: string;
  ignore: string;
  /** The closing line; default "— The Crafter team". */
  signature?: string;
  /** A second link under the message (a contact's preference centre). */
  footerLink?: { label: string; link: string };
  /** A business's name and logo heading the message (email a business sends), instead of none. */
  brand?: EmailBrand;
}

/** The business an email is branded with: its name and its logo's absolute URL ("" when none). */
export interface EmailBrand {
  name: string;
  logoUrl: string;
}

function renderText(layout: Layout): string {
  return [
    ...(layout.brand?.name ? [layout.brand.name, ""] : []),
    layout.greeting,
    "",
    layout.intro,
    "",
    `${layout.action}:`,
    layout.link,
    "",
    layout.expiry,
    "",
    layout.ignore,
    "",
    ...(layout.footerLink ? [`${layout.footerLink.label}: ${layout.footerLink.link}`, ""] : []),
    layout.signature ?? "— The Crafter team",
    "",
  ].join("\n");
}

function renderHtml(subject: string, layout: Layout): string {
  const link = escapeHtml(layout.link);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f5f5f5;font-family:Arial,Helvetica,sans-serif;color:#1f1f1f;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px;">
<tr><td>
${brandHeader(layout.brand)}<p style="margin:0 0 16px;">${escapeHtml(layout.greeting)}</p>
<p style="margin:0 0 24px;">${escapeHtml(layout.intro)}</p>
<p style="margin:0 0 24px;"><a href="${link}" style="display:inline-block;background:#1677ff;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;">${escapeHtml(layout.action)}</a></p>
<p style="margin:0 0 8px;font-size:13px;color:#595959;">If the button does not work, copy this link into your browser:</p>
<p style="margin:0 0 24px;font-size:13px;word-break:break-all;"><a href="${link}">${link}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#595959;">${escapeHtml(layout.expiry)}</p>
<p style="margin:0 0 24px;font-size:13px;color:#595959;">${escapeHtml(layout.ignore)}</p>
${layout.footerLink ? `<p style="margin:0 0 24px;font-size:13px;color:#595959;"><a href="${escapeHtml(layout.footerLink.link)}">${escapeHtml(layout.footerLink.label)}</a></p>` : ""}
<p style="margin:0;font-size:13px;color:#8c8c8c;">${escapeHtml(layout.signature ?? "— The Crafter team")}</p>
</td></tr>
</table>
</body>
</html>
`;
}

/** The logo (when it is an http(s) URL) and the name over the message; "" without a name. */
function brandHeader(brand: EmailBrand | undefined): string {
  if (!brand?.name) return "";
  const name = escapeHtml(brand.name);
  const logo = /^https?:\/\//i.test(brand.logoUrl)
    ? `<img src="${escapeHtml(brand.logoUrl)}" alt="${name}" height="48" style="display:block;height:48px;width:auto;max-width:200px;margin:0 0 12px;border:0;">`
    : "";
  return `<div style="margin:0 0 24px;padding:0 0 16px;border-bottom:1px solid #f0f0f0;">${logo}<p style="margin:0;font-size:18px;font-weight:bold;">${name}</p></div>\n`;
}

/**
 * A logo reference made absolute for an email: http(s) URLs as they are, a path of this deployment
 * (`/media/…`) under `origin`; "" for anything else.
 */
export function absoluteLogoUrl(logoUrl: string, origin: string): string {
  if (/^https?:\/\//i.test(logoUrl)) return logoUrl;
  if (logoUrl.startsWith("/") && !logoUrl.startsWith("//")) return `${origin.replace(/\/+$/, "")}${logoUrl}`;
  return "";
}

function greeting(displayName: string | undefined): string {
  const name = cleanDisplayName(displayName);
  return name ? `Hi ${name},` : "Hi,";
}

/** Input of the verification email. */
export interface VerificationEmailInput {
  /** The name the user signed up with (user-provided; escaped in HTML). */
  displayName?: string;
  /** Absolute link to `/verify?token=…` of this deployment. */
  link: string;
  expiresAt: Date | null;
  /** The time of rendering, for the relative expiry. */
  now: Date;
}

/** The email that confirms a new account's address. Subject: "Verify your email for Crafter". */
export function renderVerificationEmail(input: VerificationEmailInput): RenderedEmail {
  const layout: Layout = {
    greeting: greeting(input.displayName),
    intro: "Welcome to Crafter! Please confirm your email address to finish setting up your account.",
    action: "Verify your email",
    link: input.link,
    expiry: `This link expires ${describeExpiry(input.expiresAt, input.now)}.`,
    ignore: "If you did not create a Crafter account, you can ignore this email.",
  };
  return { subject: VERIFY_SUBJECT, text: renderText(layout), html: renderHtml(VERIFY_SUBJECT, layout) };
}

/** Input of the password-reset email. */
export interface PasswordResetEmailInput {
  displayName?: string;
  /** Absolute link to `/reset-password?token=…` of this deployment. */
  link: string;
  expiresAt: Date | null;
  now: Date;
}

/** The email with a password-reset link. Subject: "Reset your Crafter password". */
export function renderPasswordResetEmail(input: PasswordResetEmailInput): RenderedEmail {
  const layout: Layout = {
    greeting: greeting(input.displayName),
    intro: "We received a request to reset the password of your Crafter account.",
    action: "Reset your password",
    link: input.link,
    expiry: `This link expires ${describeExpiry(input.expiresAt, input.now)} and can be used once.`,
    ignore: "If you did not ask to reset your password, you can ignore this email; your password stays the same.",
  };
  return { subject: RESET_SUBJECT, text: renderText(layout), html: renderHtml(RESET_SUBJECT, layout) };
}

/** Input of the double opt-in email of a lead form. */
export interface ConsentEmailInput {
  firstName?: string;
  /** The form's title (user-provided; escaped in HTML), e.g. "Join our newsletter". */
  formTitle: string;
  /** Absolute link to `/confirm?token=…` of this deployment. */
  link: string;
  /** The contact's preference centre (`/preferences/<token>`), when known. */
  preferencesLink?: string;
  /** The business whose form it is (its name heads and signs the email); absent: unbranded. */
  brand?: EmailBrand;
}

export const CONSENT_SUBJECT = "Please confirm your subscription";

/**
 * The double opt-in email: the visitor confirms their address before anything is sent to them.
 * Subject "Please confirm your subscription", with " to <business>" when the business is known.
 */
export function renderConsentEmail(input: ConsentEmailInput): RenderedEmail {
  const title = cleanDisplayName(input.formTitle);
  const business = cleanDisplayName(input.brand?.name);
  const subject = business ? `${CONSENT_SUBJECT} to ${business}` : CONSENT_SUBJECT;
  const layout: Layout = {
    greeting: greeting(input.firstName),
    intro: `You signed up${business ? ` to hear from ${business}` : ""}${title ? ` via "${title}"` : ""}. Please confirm your email address so we may send you emails.`,
    action: "Confirm your subscription",
    link: input.link,
    expiry: "This link expires in 7 days.",
    ignore: "If you did not sign up, ignore this email: you will not be subscribed.",
    signature: business ? `— ${business}` : "",
    ...(input.preferencesLink
      ? { footerLink: { label: "Manage your email preferences", link: input.preferencesLink } }
      : {}),
    ...(business ? { brand: { name: business, logoUrl: input.brand?.logoUrl ?? "" } } : {}),
  };
  return { subject, text: renderText(layout), html: renderHtml(subject, layout) };
}

export const EMAIL_CHANGE_SUBJECT = "Confirm your new email for Crafter";
export const EMAIL_CHANGE_NOTICE_SUBJECT = "Your Crafter email is being changed";

/** Input of the two email-change emails. */
export interface EmailChangeEmailInput {
  displayName?: string;
  /** The address the user asked to change to (user-provided; escaped in HTML). */
  newEmail: string;
  /** The new address's link (`/confirm-email?token=…`), or for the notice the change-password page. */
  link: string;
  expiresAt: Date | null;
  now: Date;
}

/** To the new address: the link that applies the change. */
export function renderEmailChangeEmail(input: EmailChangeEmailInput): RenderedEmail {
  const layout: Layout = {
    greeting: greeting(input.displayName),
    intro: "You asked to use this address for your Crafter account. Confirm it to finish the change.",
    action: "Confirm your new email",
    link: input.link,
    expiry: `This link expires ${describeExpiry(input.expiresAt, input.now)} and can be used once.`,
    ignore: "If you did not ask for this, you can ignore this email; the account keeps its current address.",
  };
  return { subject: EMAIL_CHANGE_SUBJECT, text: renderText(layout), html: renderHtml(EMAIL_CHANGE_SUBJECT, layout) };
}

/** To the current address: a notice that a change to `newEmail` was asked for. */
export function renderEmailChangeNotice(input: EmailChangeEmailInput): RenderedEmail {
  const layout: Layout = {
    greeting: greeting(input.displayName),
    intro: `Someone signed in to your Crafter account asked to change its email to ${input.newEmail}. The change happens only when the link sent to that address is used.`,
    action: "Change your password",
    link: input.link,
    expiry: "Nothing changes until the new address is confirmed.",
    ignore:
      "If this was you, there is nothing to do. If not, change your password now: it stops the change from being requested again.",
  };
  return {
    subject: EMAIL_CHANGE_NOTICE_SUBJECT,
    text: renderText(layout),
    html: renderHtml(EMAIL_CHANGE_NOTICE_SUBJECT, layout),
  };
}

export const INVITE_SUBJECT = "You are invited to a project on Crafter";

/** Input of the team invitation email. */
export interface InviteEmailInput {
  /** Who invited (their display name; escaped in HTML). */
  inviterName: string;
  /** The project's name (user-provided; escaped in HTML). */
  projectTitle: string;
  /** "manager" or "projectAdmin". */
  role: string;
  /** `/invite?token=…`. */
  link: string;
  expiresAt: Date | null;
  now: Date;
}

const ROLE_LABELS: Record<string, string> = { manager: "manager", projectAdmin: "project admin" };

/** To the invited address: the single-use link that joins the project. */
export function renderInviteEmail(input: InviteEmailInput): RenderedEmail {
  const inviter = cleanDisplayName(input.inviterName) || "A Crafter user";
  const project = cleanDisplayName(input.projectTitle) || "a project";
  const layout: Layout = {
    greeting: greeting(undefined),
    intro: `${inviter} invited you to work on "${project}" on Crafter as ${ROLE_LABELS[input.role] ?? input.role}. Sign in or create an account with this email address, then accept.`,
    action: "Accept the invitation",
    link: input.link,
    expiry: `This link expires ${describeExpiry(input.expiresAt, input.now)} and can be used once.`,
    ignore: "If you do not know this person, ignore this email: nothing happens without you.",
  };
  return { subject: INVITE_SUBJECT, text: renderText(layout), html: renderHtml(INVITE_SUBJECT, layout) };
}

export const SENDER_ADDRESS_SUBJECT = "Confirm this address for sending email";

/** Input of the sender address confirmation email. */
export interface SenderAddressEmailInput {
  /** The business the address will send for (user-provided; escaped in HTML). */
  businessName: string;
  address: string;
  /** `/confirm-sender?token=…`. */
  link: string;
  expiresAt: Date | null;
  now: Date;
}

/** To a from address a business entered: the single-use link that lets its email go from it. */
export function renderSenderAddressEmail(input: SenderAddressEmailInput): RenderedEmail {
  const business = cleanDisplayName(input.businessName) || "A business";
  const layout: Layout = {
    greeting: greeting(undefined),
    intro: `${business} wants to send its email campaigns from ${input.address} through Crafter. Confirm that this address is yours and may be used.`,
    action: "Confirm this address",
    link: input.link,
    expiry: `This link expires ${describeExpiry(input.expiresAt, input.now)} and can be used once.`,
    ignore: "If you did not ask for this, ignore this email: nothing is sent from your address without it.",
  };
  return {
    subject: SENDER_ADDRESS_SUBJECT,
    text: renderText(layout),
    html: renderHtml(SENDER_ADDRESS_SUBJECT, layout),
  };
}

/** Input of the email to a link's creator when its reviewer comments or decides. */
export interface ReviewNoticeEmailInput {
  /** The creator's name (escaped in HTML). */
  displayName?: string;
  /** One line saying who did what to which craft or campaign (domain/approval.ts reviewNotice). */
  headline: string;
  /** The reviewer's comment ("" for none). */
  comment: string;
  /** Absolute link to the craft's or campaign's page in the app. */
  link: string;
}

/** To the member who shared a craft or campaign for approval: what their reviewer said. */
export function renderReviewNoticeEmail(input: ReviewNoticeEmailInput): RenderedEmail {
  const subject = cleanDisplayName(input.headline) || "Your reviewer answered";
  const layout: Layout = {
    greeting: greeting(input.displayName),
    intro: input.comment ? `${subject}: “${input.comment}”` : `${subject}.`,
    action: "Open it in Crafter",
    link: input.link,
    expiry: "The comments and the approval state are on its page.",
    ignore: "You get this email because you shared it for approval. Revoke the link on its page to end the review.",
  };
  return { subject, text: renderText(layout), html: renderHtml(subject, layout) };
}

/** Input of the email that gives a reviewer their approval link. */
export interface ReviewRequestEmailInput {
  /** The reviewer's name ("" for none). */
  reviewerName: string;
  /** The member who shared it ("" when unknown). */
  sharedBy: string;
  /** The craft's or campaign's name. */
  title: string;
  /** `${PUBLIC_ORIGIN}/review/<token>`. */
  link: string;
  expiresAt: Date;
  now: Date;
  /** The business asking for the review: it heads and signs the email. */
  brand?: EmailBrand;
}

/** To a reviewer without an account: the link to read, comment and approve, from the business. */
export function renderReviewRequestEmail(input: ReviewRequestEmailInput): RenderedEmail {
  const business = cleanDisplayName(input.brand?.name);
  const title = cleanDisplayName(input.title);
  const who = cleanDisplayName(input.sharedBy) || business || "Someone";
  const subject = `${business || who} asks for your review${title ? `: ${title}` : ""}`.slice(0, 200);
  const layout: Layout = {
    greeting: greeting(input.reviewerName),
    intro: `${who}${business && who !== business ? ` at ${business}` : ""} shared ${title ? `"${title}"` : "a draft"} with you for approval. Read it, comment, and approve it or ask for changes; no account is needed.`,
    action: "Open the review",
    link: input.link,
    expiry: `This link expires ${describeExpiry(input.expiresAt, input.now)}. Anyone with it can read the draft, so do not forward it.`,
    ignore: "If you did not expect this, you can ignore this email.",
    signature: business ? `— ${business}` : "",
    ...(business ? { brand: { name: business, logoUrl: input.brand?.logoUrl ?? "" } } : {}),
  };
  return { subject, text: renderText(layout), html: renderHtml(subject, layout) };
}
