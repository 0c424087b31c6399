import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf, requireUser } from "@crafter/kit";
import { ApprovalsService } from "@crafter/proto/crafter/notifications/v1/approvals_pb";
import {
  type ApprovalEventView,
  type ApprovalLinkView,
  type ApprovalStateView,
  type Deps as ApprovalsDeps,
  addReviewEvent,
  createApprovalLink,
  getReview,
  listApprovalStates,
  listApprovals,
  revokeApprovalLink,
} from "../usecases/approvals";

const iso = (date: Date | null) => (date ? date.toISOString() : "");

const linkOut = (l: ApprovalLinkView) => ({
  linkId: l.linkId,
  subjectKind: l.subjectKind,
  subjectId: l.subjectId,
  reviewerName: l.reviewerName,
  reviewerEmail: l.reviewerEmail,
  createdBy: l.createdBy,
  createdAt: iso(l.createdAt),
  expiresAt: iso(l.expiresAt),
  revokedAt: iso(l.revokedAt),
  status: l.status,
  emailStatus: l.emailStatus,
});

const eventOut = (e: ApprovalEventView) => ({
  eventId: e.eventId,
  linkId: e.linkId,
  kind: e.kind,
  body: e.body,
  authorName: e.authorName,
  createdAt: iso(e.createdAt),
});

const stateOut = (s: ApprovalStateView) => ({ state: s.state, since: iso(s.since) });

/** crafter.notifications.v1.ApprovalsService: thin handlers; the use cases hold the logic. */
export function approvalsRoutes(deps: ApprovalsDeps): (router: ConnectRouter) => void {
  return (router) =>
    router.service(ApprovalsService, {
      createApprovalLink: async (req, ctx) => {
        const user = requireUser(ctx);
        const { link, token } = await createApprovalLink(
          deps,
          callerOf(ctx),
          { userId: user.actorUserId || user.userId, email: user.actorEmail || user.email, name: user.display_name },
          req,
        );
        return { link: linkOut(link), token };
      },
      listApprovals: async (req, ctx) => {
        const answer = await listApprovals(deps, callerOf(ctx), req);
        return {
          links: answer.links.map(linkOut),
          events: answer.events.map(eventOut),
          state: stateOut(answer.state),
        };
      },
      revokeApprovalLink: async (req, ctx) => ({ link: linkOut(await revokeApprovalLink(deps, callerOf(ctx), req)) }),
      getReview: async (req) => {
        const review = await getReview(deps, req.token);
        return {
          link: linkOut(review.link),
          title: review.title,
          subject: review.subject,
          preheader: review.preheader,
          sections: review.sections,
          events: review.events.map(eventOut),
          state: stateOut(review.state),
          businessName: review.businessName,
        };
      },
      listApprovalStates: async (req, ctx) => ({
        states: (await listApprovalStates(deps, callerOf(ctx), req)).map((s) => ({
          subjectId: s.subjectId,
          state: stateOut(s),
          reviewer: s.reviewer,
        })),
      }),
      addReviewEvent: async (req) => {
        const answer = await addReviewEvent(deps, req);
        return { event: eventOut(answer.event), state: stateOut(answer.state) };
      },
    });
}
