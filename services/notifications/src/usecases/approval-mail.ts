import { openSecret, sealSecret } from "@crafter/kit";
import type { NotificationsDeps } from "../deps";
import { type ReviewKind, reviewNotice } from "../domain/approval";
import { renderReviewNoticeEmail, renderReviewRequestEmail } from "../domain/templates";
import type { ApprovalEventDoc, ApprovalLinkDoc, ApprovalMailDoc } from "../store/approval.repository";
import { businessOf } from "./business-brand";
import { deliverEmail } from "./deliver-email";

/**
 * The approval emails: the reviewer's link and the owner's notice of each review event. Each is
 * recorded in `approval_mail` before its first attempt and stays there until the SMTP server accepts
 * it; a periodic job (`retryApprovalMail`) tries what is still there again, so an SMTP server that is
 * away delays the email instead of losing it. The sending itself is deliverEmail's: an attempt is
 * recorded before each hand-off and a sent email is never sent again, whoever retries it.
 */

type Deps = Pick<NotificationsDeps, "stores" | "email" | "mailer" | "publicOrigin" | "logger" | "now" | "sender">;

/** How long an approval email is retried before it is given up (ms): 3 days. */
export const APPROVAL_MAIL_GIVE_UP_MS = 3 * 86_400_000;

export const reviewRequestMailId = (linkId: string) => `review-request:${linkId}`;
export const reviewNoticeMailId = (eventId: string) => `review-notice:${eventId}`;

export type ApprovalMailOutcome = "sent" | "waiting" | "dropped";

/**
 * Records the reviewer's email of a new link (its token sealed with SECRETS_KEYS, for the link id)
 * and tries it now. Without SECRETS_KEYS the token cannot be kept: it is tried once, not retried.
 */
export async function emailReviewer(deps: Deps, link: ApprovalLinkDoc, token: string): Promise<ApprovalMailOutcome> {
  if (!link.reviewerEmail) return "dropped";
  const mail: ApprovalMailDoc = {
    _id: reviewRequestMailId(link.linkId),
    kind: "review-request",
    linkId: link.linkId,
    eventId: "",
    tokenSealed: deps.sender.keys ? sealSecret(deps.sender.keys, token, link.linkId) : "",
    createdAt: deps.now(),
  };
  if (mail.tokenSealed) await deps.stores.approvals.addMail(mail);
  else deps.logger.warn({ linkId: link.linkId }, "SECRETS_KEYS is not set: the reviewer's email is tried once");
  return sendApprovalMail(deps, mail, { link, token });
}

/** Records the owner's email of a review event and tries it now. */
export async function emailOwner(
  deps: Deps,
  link: ApprovalLinkDoc,
  event: ApprovalEventDoc,
): Promise<ApprovalMailOutcome> {
  if (!link.createdByEmail) return "dropped";
  const mail: ApprovalMailDoc = {
    _id: reviewNoticeMailId(event._id),
    kind: "review-notice",
    linkId: link.linkId,
    eventId: event._id,
    tokenSealed: "",
    createdAt: deps.now(),
  };
  await deps.stores.approvals.addMail(mail);
  return sendApprovalMail(deps, mail, { link, event });
}

/**
 * One try of a waiting approval email. Never throws: a failure leaves it waiting (logged), and past
 * APPROVAL_MAIL_GIVE_UP_MS, or once a reviewer's link has ended, it is dropped (its delivery stays
 * `failed`).
 */
export async function sendApprovalMail(
  deps: Deps,
  mail: ApprovalMailDoc,
  known: { link?: ApprovalLinkDoc; token?: string; event?: ApprovalEventDoc } = {},
): Promise<ApprovalMailOutcome> {
  const approvals = deps.stores.approvals;
  const drop = async (why: string, level: "info" | "error" = "info") => {
    deps.logger[level]({ mail: mail._id }, `approval email dropped: ${why}`);
    await approvals.dropMail(mail._id);
    return "dropped" as const;
  };
  try {
    const link = known.link ?? (await approvals.linkById(mail.linkId));
    if (!link) return await drop("its link is gone");
    if (mail.kind === "review-request") {
      const now = deps.now();
      if (link.expiresAt <= now || (await approvals.revokedAt(link.linkId)))
        return await drop("the link ended before its email was sent");
      const token =
        known.token ?? (deps.sender.keys ? openSecret(deps.sender.keys, mail.tokenSealed, link.linkId) : "");
      if (!token) return await drop("its token cannot be opened", "error");
      const { brand, sender } = await businessOf(deps, link.userId, link.projectId);
      const email = renderReviewRequestEmail({
        reviewerName: link.reviewerName,
        sharedBy: link.createdByName,
        title: link.title,
        link: `${deps.publicOrigin.replace(/\/+$/, "")}/review/${token}`,
        expiresAt: link.expiresAt,
        now,
        ...(brand ? { brand } : {}),
      });
      await deliverEmail(deps, {
        eventId: mail._id,
        userId: link.userId,
        to: link.reviewerEmail,
        template: "review-request",
        email,
        ...(sender ? { sender } : {}),
      });
    } else {
      const event = known.event ?? (await approvals.eventById(mail.eventId));
      if (!event) return await drop("its review event is gone");
      const notice = reviewNotice({
        kind: event.kind as ReviewKind,
        author: event.authorName,
        title: link.title,
        body: event.body,
      });
      // Keyed by the review event's id, not this mail's: notices already delivered under it stay deduplicated.
      await deliverEmail(deps, {
        eventId: event._id,
        userId: link.createdBy,
        to: link.createdByEmail,
        template: "review-notice",
        email: renderReviewNoticeEmail({
          displayName: link.createdByName,
          headline: notice.title,
          comment: event.body,
          link: `${deps.publicOrigin.replace(/\/+$/, "")}${link.appPath}`,
        }),
      });
    }
    await approvals.dropMail(mail._id);
    return "sent";
  } catch (error) {
    if (deps.now().getTime() - mail.createdAt.getTime() > APPROVAL_MAIL_GIVE_UP_MS)
      return drop(`given up after ${APPROVAL_MAIL_GIVE_UP_MS / 3_600_000} h: ${(error as Error).message}`, "error");
    deps.logger.warn({ err: (error as Error).message, mail: mail._id }, "approval email not sent: retried later");
    return "waiting";
  }
}

/**
 * Tries every waiting approval email again, oldest first, one at a time (the periodic job, in one
 * replica per occurrence). @returns how many were sent, still wait, were dropped.
 */
export async function retryApprovalMail(deps: Deps, limit = 200): Promise<Record<ApprovalMailOutcome, number>> {
  const counts: Record<ApprovalMailOutcome, number> = { sent: 0, waiting: 0, dropped: 0 };
  for (const mail of await deps.stores.approvals.waitingMail(limit)) counts[await sendApprovalMail(deps, mail)] += 1;
  return counts;
}
