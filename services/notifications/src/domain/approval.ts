/**
 * Approval links (pure): the opaque token and its stored hash, the input rules, a craft's results as
 * sections a reviewer reads, and the approval state derived from the append-only events.
 */

import { createHash, randomBytes } from "node:crypto";
import { sanitizeHtml } from "@crafter/html";
import escapeHtml from "escape-html";

export const SUBJECT_KINDS = ["craft", "campaign"] as const;
export type SubjectKind = (typeof SUBJECT_KINDS)[number];

export const REVIEW_KINDS = ["comment", "approved", "changes_requested"] as const;
export type ReviewKind = (typeof REVIEW_KINDS)[number];

export type ApprovalStateName = "none" | "awaiting" | "approved" | "changes_requested";

export const APPROVAL_LIMITS = {
  name: 80,
  email: 254,
  body: 5000,
  id: 64,
  defaultDays: 7,
  maxDays: 30,
  /** Events one link takes before it refuses more (a reviewer's flood stays bounded). */
  eventsPerLink: 200,
  /** Links one craft or campaign keeps at once. */
  linksPerSubject: 50,
};

/** 32 random bytes, base64url: 43 characters, nothing readable in it. */
export function newReviewToken(): string {
  return randomBytes(32).toString("base64url");
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The stored key of a token: its SHA-256, hex. A database read therefore gives no usable link.
 * @returns null for anything that is not a token's shape (a cut or altered link).
 */
export function reviewTokenHash(token: string): string | null {
  if (!TOKEN_SHAPE.test(token)) return null;
  return createHash("sha256").update(token).digest("hex");
}

/** "craft:<id>" / "campaign:<id>": one key per shared item. */
export const subjectKeyOf = (kind: SubjectKind, id: string) => `${kind}:${id}`;

export const isSubjectKind = (value: string): value is SubjectKind =>
  (SUBJECT_KINDS as readonly string[]).includes(value);
export const isReviewKind = (value: string): value is ReviewKind => (REVIEW_KINDS as readonly string[]).includes(value);

/** Text of one line: control characters out, spaces collapsed, at most `max` characters. */
export function oneLine(value: string, max: number): string {
  return Array.from(value, (c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f ? " " : c))
    .join("")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, max);
}

/** A comment's text: control characters but line breaks out, trimmed. */
export function commentText(value: string): string {
  return Array.from(value.replace(/\r\n?/g, "\n"), (c) => {
    const code = c.charCodeAt(0);
    return (code < 0x20 && c !== "\n") || code === 0x7f ? " " : c;
  })
    .join("")
    .trim();
}

/** Days a link works: 1 to 30, 0 (unset) = 7. @returns null when out of range. */
export function linkDays(days: number): number | null {
  if (days === 0) return APPROVAL_LIMITS.defaultDays;
  if (!Number.isInteger(days) || days < 1 || days > APPROVAL_LIMITS.maxDays) return null;
  return days;
}

export type LinkStatus = "active" | "revoked" | "expired";

/** A link's status now: revoked wins over expired (the owner ended it). */
export function linkStatus(link: { expiresAt: Date }, revokedAt: Date | null, now: Date): LinkStatus {
  if (revokedAt) return "revoked";
  return link.expiresAt.getTime() <= now.getTime() ? "expired" : "active";
}

/**
 * The approval state of one craft or campaign: the latest of its shares (awaiting review) and its
 * reviewers' decisions (approved, changes requested); comments do not change it. A new share after a
 * decision asks for a review again. "none" when it was never shared.
 */
export function approvalState(
  links: ReadonlyArray<{ createdAt: Date }>,
  events: ReadonlyArray<{ kind: string; createdAt: Date }>,
): { state: ApprovalStateName; since: Date | null } {
  let state: ApprovalStateName = "none";
  let since: Date | null = null;
  const marks: Array<{ at: Date; state: ApprovalStateName }> = [
    ...links.map((l) => ({ at: l.createdAt, state: "awaiting" as const })),
    ...events
      .filter((e) => e.kind === "approved" || e.kind === "changes_requested")
      .map((e) => ({ at: e.createdAt, state: e.kind as ApprovalStateName })),
  ];
  for (const mark of marks) {
    // Later wins; at the same instant a decision outranks the share.
    if (!since || mark.at > since || (mark.at.getTime() === since.getTime() && mark.state !== "awaiting")) {
      state = mark.state;
      since = mark.at;
    }
  }
  return { state, since };
}

/**
 * The approval state of one craft or campaign with who it concerns: the decider of the latest
 * decision, else the reviewer of the latest link (name, else email); "" when unnamed or never shared.
 */
export function approvalSummary(
  links: ReadonlyArray<{ createdAt: Date; reviewerName: string; reviewerEmail: string }>,
  events: ReadonlyArray<{ kind: string; createdAt: Date; authorName: string }>,
): { state: ApprovalStateName; since: Date | null; reviewer: string } {
  const { state, since } = approvalState(links, events);
  let reviewer = "";
  if (state === "approved" || state === "changes_requested") {
    const decision = events.findLast((e) => e.kind === state && e.createdAt.getTime() === since?.getTime());
    reviewer = decision?.authorName ?? "";
  } else if (state === "awaiting") {
    const latest = links.reduce<(typeof links)[number] | null>(
      (a, l) => (!a || l.createdAt > a.createdAt ? l : a),
      null,
    );
    reviewer = latest ? latest.reviewerName || latest.reviewerEmail : "";
  }
  return { state, since, reviewer };
}

/** One part of what a reviewer reads: a title and sanitised HTML. */
export interface ReviewSection {
  title: string;
  html: string;
}

/** A craft step as the workflows service answers it (only what a reviewer needs). */
export interface CraftStepLike {
  name?: unknown;
  title?: unknown;
  results?: Array<{ content?: unknown; format?: unknown; selected?: unknown }>;
}

/** "subjectLines" → "Subject lines". */
function humanize(name: string): string {
  const words = name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function textHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`)
    .join("");
}

function resultHtml(content: unknown, format: unknown): string {
  if (typeof content === "string") return format === "html" ? sanitizeHtml(content) : textHtml(content);
  if (Array.isArray(content)) {
    const items = content
      .map((item) => (typeof item === "string" ? item : item && typeof item === "object" ? JSON.stringify(item) : ""))
      .filter((item) => item.trim() !== "");
    return items.length ? `<ul>${items.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>` : "";
  }
  return "";
}

/**
 * A craft's results as a reviewer reads them: per step with results, its selected result (else its
 * latest), HTML through the one sanitiser, text as paragraphs, lists as lists; structured data left out;
 * a result repeated by a later step only once, under the later step's title.
 */
export function craftSections(steps: readonly CraftStepLike[]): ReviewSection[] {
  const sections: ReviewSection[] = [];
  for (const step of steps) {
    const results = (step.results ?? []).filter((r) => r && r.content !== undefined && r.content !== null);
    if (results.length === 0) continue;
    const chosen = results.find((r) => r.selected === true) ?? results[results.length - 1]!;
    const html = resultHtml(chosen.content, chosen.format);
    if (!html.trim()) continue;
    const title =
      typeof step.title === "string" && step.title.trim()
        ? step.title.trim()
        : typeof step.name === "string"
          ? humanize(step.name)
          : "Result";
    sections.push({ title: oneLine(title, 200), html });
  }
  // A later step often carries an earlier one's result on (the final draft): shown once, as the later.
  return sections.filter((section, i) => !sections.slice(i + 1).some((later) => later.html === section.html));
}

const KIND_WORDS: Record<ReviewKind, string> = {
  comment: "commented on",
  approved: "approved",
  changes_requested: "asked for changes to",
};

/** The owner's notification of one review event (in-app and email). */
export function reviewNotice(input: { kind: ReviewKind; author: string; title: string; body: string }): {
  level: "info" | "success" | "warning";
  title: string;
  body: string;
} {
  const who = input.author || "Your reviewer";
  const what = input.title || "your content";
  const level = input.kind === "approved" ? "success" : input.kind === "changes_requested" ? "warning" : "info";
  const body = input.body.length > 400 ? `${input.body.slice(0, 399)}…` : input.body;
  return { level, title: oneLine(`${who} ${KIND_WORDS[input.kind]} “${what}”`, 200), body };
}
