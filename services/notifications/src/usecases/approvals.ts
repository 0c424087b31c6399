import { randomUUID } from "node:crypto";
import { appError, badRequest, type Caller } from "@crafter/kit";
import { emailError, normalizeEmail } from "@crafter/validation";
import type { NotificationsDeps } from "../deps";
import {
  APPROVAL_LIMITS,
  type ApprovalStateName,
  approvalState,
  approvalSummary,
  commentText,
  craftSections,
  isReviewKind,
  isSubjectKind,
  type LinkStatus,
  linkDays,
  linkStatus,
  newReviewToken,
  oneLine,
  type ReviewKind,
  type ReviewSection,
  reviewNotice,
  reviewTokenHash,
  type SubjectKind,
  subjectKeyOf,
} from "../domain/approval";
import type { ApprovalEventDoc, ApprovalLinkDoc } from "../store/approval.repository";
import { emailOwner, emailReviewer, reviewRequestMailId } from "./approval-mail";
import { composeUntracked } from "./email-delivery";
import { notify } from "./inbox";

export type Deps = Pick<
  NotificationsDeps,
  "stores" | "email" | "calendar" | "mailer" | "publicOrigin" | "logger" | "now" | "sender"
>;

/**
 * The email of a link to its reviewer: "" (no reviewer email, or made before links were emailed),
 * pending (not accepted by the SMTP server yet; retried), sent, failed (given up).
 */
export type LinkEmailStatus = "" | "pending" | "sent" | "failed";

/** A link as its owner's pages see it (never its token). */
export interface ApprovalLinkView {
  linkId: string;
  subjectKind: SubjectKind;
  subjectId: string;
  reviewerName: string;
  reviewerEmail: string;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  status: LinkStatus;
  emailStatus: LinkEmailStatus;
}

export interface ApprovalEventView {
  eventId: string;
  linkId: string;
  kind: ReviewKind;
  body: string;
  authorName: string;
  createdAt: Date;
}

export interface ApprovalStateView {
  state: ApprovalStateName;
  since: Date | null;
}

/** Who makes a link: the acting member (their id, email and name from their access token). */
export interface LinkCreator {
  userId: string;
  email: string;
  name: string;
}

function linkView(
  link: ApprovalLinkDoc,
  revokedAt: Date | null,
  now: Date,
  emailStatus: LinkEmailStatus = "",
): ApprovalLinkView {
  return {
    linkId: link.linkId,
    subjectKind: link.subjectKind,
    subjectId: link.subjectId,
    reviewerName: link.reviewerName,
    reviewerEmail: link.reviewerEmail,
    createdBy: link.createdByName || link.createdByEmail,
    createdAt: link.createdAt,
    expiresAt: link.expiresAt,
    revokedAt,
    status: linkStatus(link, revokedAt, now),
    emailStatus,
  };
}

/** Where the email of each link to its reviewer stands (its delivery, and whether it still waits). */
async function emailStatuses(deps: Deps, links: readonly ApprovalLinkDoc[]): Promise<Map<string, LinkEmailStatus>> {
  const statuses = await Promise.all(
    links.map(async (link): Promise<LinkEmailStatus> => {
      if (!link.reviewerEmail) return "";
      const id = reviewRequestMailId(link.linkId);
      const [delivery, waiting] = await Promise.all([
        deps.stores.deliveries.find(id),
        deps.stores.approvals.mailWaiting(id),
      ]);
      if (delivery?.status === "sent") return "sent";
      if (waiting) return "pending";
      return delivery ? "failed" : "";
    }),
  );
  return new Map(links.map((link, i) => [link.linkId, statuses[i]!]));
}

const eventView = (e: ApprovalEventDoc): ApprovalEventView => ({
  eventId: e._id,
  linkId: e.linkId,
  kind: e.kind as ReviewKind,
  body: e.body,
  authorName: e.authorName,
  createdAt: e.createdAt,
});

const reviewEvents = (events: ApprovalEventDoc[]) => events.filter((e) => e.kind !== "revoked").map(eventView);

/** @throws NOT_FOUND for a project a member's delegated token does not reach, or an over-long id. */
function mustReachProject(caller: Caller, projectId: string): void {
  if (projectId.length > APPROVAL_LIMITS.id) throw appError("NOT_FOUND", "No such project.");
  if (caller.delegatedProjectId && caller.delegatedProjectId !== projectId)
    throw appError("NOT_FOUND", "No such project.");
}

function subjectOf(kind: string, id: string): { kind: SubjectKind; id: string } {
  const errors: Record<string, string> = {};
  if (!isSubjectKind(kind)) errors.subjectKind = "subjectKind is craft or campaign";
  if (!id || id.length > APPROVAL_LIMITS.id) errors.subjectId = "subjectId is required";
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  return { kind: kind as SubjectKind, id };
}

/** The shared item as the caller reaches it now. @throws NOT_FOUND otherwise. */
async function sharedItem(
  deps: Deps,
  caller: Caller,
  projectId: string,
  subject: { kind: SubjectKind; id: string },
): Promise<{ title: string; appPath: string; sections: ReviewSection[] }> {
  if (subject.kind === "campaign") {
    const campaign = await deps.stores.campaigns.get(caller.userId, subject.id);
    if (!campaign || campaign.projectId !== projectId) throw appError("NOT_FOUND", "Campaign not found");
    return { title: campaign.name, appPath: `/app/email/campaigns/${encodeURIComponent(campaign._id)}`, sections: [] };
  }
  const craft = await deps.email.crafts.craft(caller, subject.id);
  if (!craft || (craft.projectId !== undefined && craft.projectId !== "" && craft.projectId !== projectId))
    throw appError("NOT_FOUND", "Craft not found");
  const sections = craftSections(craft.steps as never);
  if (sections.length === 0) throw badRequest({ subjectId: "This craft has no results to review yet" });
  return {
    title: craft.name,
    appPath: `/app/crafts/${encodeURIComponent(craft.workflowName)}?craftId=${encodeURIComponent(craft.craftId)}`,
    sections,
  };
}

/**
 * A new approval link for a craft (its results as they are now) or a campaign (rendered from its
 * content at each read). Only the token's SHA-256 is stored; the token is answered once.
 * @throws CR_ERR_BAD_REQUEST (subjectKind, subjectId, reviewerName, reviewerEmail, expiresInDays),
 *   NOT_FOUND (a craft or campaign the caller cannot reach in `projectId`), CONFLICT (too many links).
 */
export async function createApprovalLink(
  deps: Deps,
  caller: Caller,
  creator: LinkCreator,
  input: {
    projectId: string;
    subjectKind: string;
    subjectId: string;
    reviewerName: string;
    reviewerEmail: string;
    expiresInDays: number;
  },
): Promise<{ link: ApprovalLinkView; token: string }> {
  mustReachProject(caller, input.projectId);
  const subject = subjectOf(input.subjectKind, input.subjectId);
  const errors: Record<string, string> = {};
  const days = linkDays(input.expiresInDays);
  if (days === null) errors.expiresInDays = `A link works 1 to ${APPROVAL_LIMITS.maxDays} days`;
  if (input.reviewerName.length > APPROVAL_LIMITS.name) errors.reviewerName = "The name is too long";
  const email = input.reviewerEmail.trim();
  if (email) {
    const invalid = emailError(email);
    if (invalid) errors.reviewerEmail = invalid;
  }
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  const item = await sharedItem(deps, caller, input.projectId, subject);
  const subjectKey = subjectKeyOf(subject.kind, subject.id);
  const now = deps.now();
  const existing = await deps.stores.approvals.linksOf(caller.userId, subjectKey);
  const live = existing.filter((l) => l.expiresAt > now).length;
  if (live >= APPROVAL_LIMITS.linksPerSubject)
    throw appError("CONFLICT", `At most ${APPROVAL_LIMITS.linksPerSubject} links at once: revoke one first`);
  const token = newReviewToken();
  const doc: ApprovalLinkDoc = {
    _id: reviewTokenHash(token)!,
    linkId: randomUUID(),
    userId: caller.userId,
    projectId: input.projectId,
    subjectKind: subject.kind,
    subjectId: subject.id,
    subjectKey,
    title: oneLine(item.title, 200),
    appPath: item.appPath,
    sections: item.sections,
    reviewerName: oneLine(input.reviewerName, APPROVAL_LIMITS.name),
    reviewerEmail: email ? normalizeEmail(email) : "",
    createdBy: creator.userId || caller.userId,
    createdByEmail: creator.email,
    createdByName: oneLine(creator.name, APPROVAL_LIMITS.name),
    createdAt: now,
    expiresAt: new Date(now.getTime() + (days ?? APPROVAL_LIMITS.defaultDays) * 86_400_000),
  };
  await deps.stores.approvals.insertLink(doc);
  // Tried now, retried by the approval mail job while the SMTP server is away (approval-mail.ts).
  const emailed = await emailReviewer(deps, doc, token);
  const emailStatus: LinkEmailStatus = !doc.reviewerEmail
    ? ""
    : emailed === "sent"
      ? "sent"
      : emailed === "waiting"
        ? "pending"
        : "failed";
  return { link: linkView(doc, null, now, emailStatus), token };
}

/** The links, the reviewers' events and the approval state of one craft or campaign of the caller. */
export async function listApprovals(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; subjectKind: string; subjectId: string },
): Promise<{ links: ApprovalLinkView[]; events: ApprovalEventView[]; state: ApprovalStateView }> {
  mustReachProject(caller, input.projectId);
  const subject = subjectOf(input.subjectKind, input.subjectId);
  const key = subjectKeyOf(subject.kind, subject.id);
  const [allLinks, allEvents] = await Promise.all([
    deps.stores.approvals.linksOf(caller.userId, key),
    deps.stores.approvals.eventsOf(caller.userId, key),
  ]);
  // A member sees the links made in the project their token is for, nothing of the owner's others.
  const links = allLinks.filter((l) => l.projectId === input.projectId);
  const ids = new Set(links.map((l) => l.linkId));
  const events = allEvents.filter((e) => ids.has(e.linkId));
  const revoked = new Map(events.filter((e) => e.kind === "revoked").map((e) => [e.linkId, e.createdAt]));
  const now = deps.now();
  const emails = await emailStatuses(deps, links);
  return {
    links: links.map((l) => linkView(l, revoked.get(l.linkId) ?? null, now, emails.get(l.linkId) ?? "")).reverse(),
    events: reviewEvents(events),
    state: approvalState(links, events),
  };
}

/** Ends a link at once; revoking again changes nothing. @throws NOT_FOUND when it is not the caller's. */
export async function revokeApprovalLink(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; linkId: string },
): Promise<ApprovalLinkView> {
  mustReachProject(caller, input.projectId);
  const link =
    input.linkId && input.linkId.length <= APPROVAL_LIMITS.id
      ? await deps.stores.approvals.linkOf(caller.userId, input.linkId)
      : null;
  if (!link || link.projectId !== input.projectId) throw appError("NOT_FOUND", "No such link.");
  await deps.stores.approvals.revoke(link, deps.now());
  return linkView(link, await deps.stores.approvals.revokedAt(link.linkId), deps.now());
}

/**
 * The link of a reviewer's token while it works.
 * @throws NOT_FOUND (no such token: cut, altered or never made), REVIEW_LINK_GONE (revoked or expired).
 */
async function openLink(deps: Deps, token: string): Promise<ApprovalLinkDoc> {
  const hash = reviewTokenHash(token);
  const link = hash ? await deps.stores.approvals.linkByHash(hash) : null;
  if (!link) throw appError("NOT_FOUND", "This review link is not valid. Check that it was copied whole.");
  const revokedAt = await deps.stores.approvals.revokedAt(link.linkId);
  const status = linkStatus(link, revokedAt, deps.now());
  if (status === "revoked") throw appError("REVIEW_LINK_GONE", "This review link was withdrawn by its sender.");
  if (status === "expired")
    throw appError("REVIEW_LINK_GONE", "This review link has expired. Ask its sender for a new one.");
  return link;
}

export interface ReviewView {
  link: ApprovalLinkView;
  title: string;
  subject: string;
  preheader: string;
  sections: ReviewSection[];
  events: ApprovalEventView[];
  state: ApprovalStateView;
  businessName: string;
}

/**
 * What the reviewer reads: a craft's results as shared, or the campaign's email as it will be sent
 * now (smart values at their fallbacks, the business's footer, no tracking, no contact's data); with
 * this link's comments and decisions. @throws as openLink; REVIEW_LINK_GONE for a deleted campaign.
 */
export async function getReview(deps: Deps, token: string): Promise<ReviewView> {
  const link = await openLink(deps, token);
  const [events, business] = await Promise.all([
    deps.stores.approvals.eventsOfLink(link.linkId),
    deps.email.business.footer(link.userId, link.projectId).catch(() => ({ name: "", address: "" })),
  ]);
  let title = link.title;
  let subject = "";
  let preheader = "";
  let sections = link.sections;
  if (link.subjectKind === "campaign") {
    const campaign = await deps.stores.campaigns.get(link.userId, link.subjectId);
    if (!campaign) throw appError("REVIEW_LINK_GONE", "This campaign is no longer available.");
    title = campaign.name;
    const composed = await composeUntracked(deps, campaign, { id: `review-${link.linkId}`, business });
    subject = composed.subject;
    preheader = campaign.preheader;
    // Exactly as sent; the reviewer's page shows it in a sandboxed frame, as the campaign preview does.
    sections = [{ title: "Email", html: composed.html }];
  }
  return {
    link: linkView(link, null, deps.now()),
    title,
    subject,
    preheader,
    sections,
    events: reviewEvents(events),
    state: approvalState([link], events),
    businessName: business.name,
  };
}

/**
 * A reviewer's comment, approval or request for changes (which needs a comment), appended; the
 * link's creator is told in-app and by email from the platform's address. A failed email is not
 * thrown: the review is recorded, the in-app notice stands, and the email is retried later.
 * @throws as openLink; CR_ERR_BAD_REQUEST (kind, body, authorName); CONFLICT when the link is full.
 */
export async function addReviewEvent(
  deps: Deps,
  input: { token: string; kind: string; body: string; authorName: string },
): Promise<{ event: ApprovalEventView; state: ApprovalStateView }> {
  const link = await openLink(deps, input.token);
  const errors: Record<string, string> = {};
  const body = commentText(input.body);
  if (!isReviewKind(input.kind)) errors.kind = "kind is comment, approved or changes_requested";
  if (body.length > APPROVAL_LIMITS.body) errors.body = `A comment has at most ${APPROVAL_LIMITS.body} characters`;
  if (!body && input.kind !== "approved") errors.body = "Write a comment";
  if (input.authorName.length > APPROVAL_LIMITS.name) errors.authorName = "The name is too long";
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  const kind = input.kind as ReviewKind;
  const before = await deps.stores.approvals.eventsOfLink(link.linkId);
  if (before.length >= APPROVAL_LIMITS.eventsPerLink)
    throw appError("CONFLICT", "This review has too many comments. Ask its sender for a new link.");
  const authorName = oneLine(input.authorName, APPROVAL_LIMITS.name) || link.reviewerName || "Reviewer";
  const doc: ApprovalEventDoc = {
    _id: randomUUID(),
    linkId: link.linkId,
    userId: link.userId,
    subjectKey: link.subjectKey,
    kind,
    body,
    authorName,
    createdAt: deps.now(),
  };
  await deps.stores.approvals.addEvent(doc);
  await tellCreator(deps, link, doc);
  return { event: eventView(doc), state: approvalState([link], [...before, doc]) };
}

/** The in-app notice (idempotent per event) and the email to the link's creator. */
async function tellCreator(deps: Deps, link: ApprovalLinkDoc, event: ApprovalEventDoc): Promise<void> {
  const notice = reviewNotice({
    kind: event.kind as ReviewKind,
    author: event.authorName,
    title: link.title,
    body: event.body,
  });
  await notify(deps, {
    userId: link.createdBy,
    level: notice.level,
    title: notice.title,
    body: notice.body,
    link: link.appPath,
    key: `approval:${event._id}`,
  });
  // Retried later while the SMTP server is away: the review stands and the in-app notice is there.
  await emailOwner(deps, link, event);
}

/** The approval state of one listed item: `state`, `since` and who it concerns. */
export interface SubjectApprovalView extends ApprovalStateView {
  subjectId: string;
  reviewer: string;
}

/** At most this many ids per ListApprovalStates (a page of a list). */
export const STATES_PER_CALL = 100;

/**
 * The approval state of each of a page of crafts or campaigns of a project: one indexed read of the
 * project's links, then the events of only the shared items among them (each an indexed equality).
 * @throws CR_ERR_BAD_REQUEST (subjectKind; subjectIds over 100 or an id too long), NOT_FOUND (project).
 */
export async function listApprovalStates(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; subjectKind: string; subjectIds: readonly string[] },
): Promise<SubjectApprovalView[]> {
  mustReachProject(caller, input.projectId);
  const errors: Record<string, string> = {};
  if (!isSubjectKind(input.subjectKind)) errors.subjectKind = "subjectKind is craft or campaign";
  if (input.subjectIds.length > STATES_PER_CALL) errors.subjectIds = `At most ${STATES_PER_CALL} ids`;
  if (input.subjectIds.some((id) => !id || id.length > APPROVAL_LIMITS.id))
    errors.subjectIds = "An id is empty or too long";
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  const kind = input.subjectKind as SubjectKind;
  const wanted = new Set(input.subjectIds.map((id) => subjectKeyOf(kind, id)));
  const byKey = new Map<string, ApprovalLinkDoc[]>();
  for (const link of await deps.stores.approvals.linksOfProject(caller.userId, input.projectId)) {
    if (!wanted.has(link.subjectKey)) continue;
    byKey.set(link.subjectKey, [...(byKey.get(link.subjectKey) ?? []), link]);
  }
  const events = new Map(
    await Promise.all(
      [...byKey.keys()].map(async (key) => [key, await deps.stores.approvals.eventsOf(caller.userId, key)] as const),
    ),
  );
  return input.subjectIds.map((subjectId) => {
    const key = subjectKeyOf(kind, subjectId);
    const links = byKey.get(key) ?? [];
    const ids = new Set(links.map((l) => l.linkId));
    const summary = approvalSummary(
      links,
      (events.get(key) ?? []).filter((e) => ids.has(e.linkId)),
    );
    return { subjectId, ...summary };
  });
}

/**
 * The ids of a project's crafts or campaigns whose approval state is `state` (awaiting, approved,
 * changes_requested): one indexed read of the project's links, then the events of each shared item.
 */
export async function subjectsInState(
  deps: Pick<NotificationsDeps, "stores">,
  userId: string,
  projectId: string,
  kind: SubjectKind,
  state: Exclude<ApprovalStateName, "none">,
): Promise<Set<string>> {
  const byKey = new Map<string, ApprovalLinkDoc[]>();
  for (const link of await deps.stores.approvals.linksOfProject(userId, projectId)) {
    if (link.subjectKind !== kind) continue;
    byKey.set(link.subjectKey, [...(byKey.get(link.subjectKey) ?? []), link]);
  }
  const ids = new Set<string>();
  await Promise.all(
    [...byKey].map(async ([key, links]) => {
      const linkIds = new Set(links.map((l) => l.linkId));
      const events = (await deps.stores.approvals.eventsOf(userId, key)).filter((e) => linkIds.has(e.linkId));
      if (approvalState(links, events).state === state) ids.add(links[0]!.subjectId);
    }),
  );
  return ids;
}
