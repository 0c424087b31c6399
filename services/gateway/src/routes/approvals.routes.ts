import { hitRateLimit, type RateLimitPolicy, type Redis, rateLimitedError } from "@crafter/kit";
import type { ApprovalEvent, ApprovalLink, ApprovalState } from "@crafter/proto/crafter/notifications/v1/approvals_pb";
import type { Request } from "express";
import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import { text } from "../http/rest-bindings";
import { emailOrNone, id } from "../http/schemas";
import type { RouteDeps } from "./deps";

// Approval links of crafts and campaigns: the owner's side (session, in the project) and the
// reviewer's side under /api/public (no session; the link's token is the proof).

/** Rate limits of the reviewer's routes (fixed windows in Redis), per client IP and per link. */
export const REVIEW_LIMITS = {
  readPerIp: { name: "review-read-ip", limit: 120, windowSeconds: 600 },
  writePerIp: { name: "review-write-ip", limit: 20, windowSeconds: 600 },
  writePerLink: { name: "review-write-link", limit: 60, windowSeconds: 3600 },
} satisfies Record<string, RateLimitPolicy>;

async function limit(redis: Redis, hits: Array<[RateLimitPolicy, string]>): Promise<void> {
  for (const [policy, key] of hits) {
    const result = await hitRateLimit(redis, `${policy.name}:${key}`, policy.limit, policy.windowSeconds);
    if (!result.allowed) throw rateLimitedError(policy, result);
  }
}

const ipOf = (req: Request) => req.ip ?? "unknown";

const SUBJECT_KINDS = ["craft", "campaign"] as const;
const LINK_STATUSES = ["active", "revoked", "expired"] as const;
const EVENT_KINDS = ["comment", "approved", "changes_requested"] as const;
const STATES = ["none", "awaiting", "approved", "changes_requested"] as const;
const EMAIL_STATUSES = ["none", "pending", "sent", "failed"] as const;

const subjectKind = z.enum(SUBJECT_KINDS, { error: "subjectKind is craft or campaign" });

const linkSchema = z
  .object({
    id: z.string(),
    subjectKind: z.enum(SUBJECT_KINDS),
    subjectId: z.string(),
    reviewerName: z.string(),
    reviewerEmail: z.string(),
    createdBy: z.string().meta({ description: "The name (else email) of the member who made it." }),
    createdAt: z.string(),
    expiresAt: z.string(),
    revokedAt: z.string().nullable(),
    status: z.enum(LINK_STATUSES),
    emailStatus: z.enum(EMAIL_STATUSES).meta({
      description:
        "The email of the link to reviewerEmail: none (no reviewer email), pending (not accepted by the mail server yet; retried), sent, failed (given up).",
    }),
  })
  .meta({ id: "ApprovalLink" });

const eventSchema = z
  .object({
    id: z.string(),
    linkId: z.string(),
    kind: z.enum(EVENT_KINDS),
    body: z.string(),
    authorName: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: "ApprovalEvent" });

const stateSchema = z
  .object({
    state: z.enum(STATES).meta({
      description:
        "none: never shared; awaiting: shared and not decided since; approved / changes_requested: a reviewer's latest decision (a newer share asks again).",
    }),
    since: z.string().nullable(),
  })
  .meta({ id: "ApprovalState" });

function linkJson(l: ApprovalLink | undefined): z.input<typeof linkSchema> {
  if (!l) throw new Error("the notifications service answered no link");
  return {
    id: l.linkId,
    subjectKind: SUBJECT_KINDS.find((k) => k === l.subjectKind) ?? "craft",
    subjectId: l.subjectId,
    reviewerName: l.reviewerName,
    reviewerEmail: l.reviewerEmail,
    createdBy: l.createdBy,
    createdAt: l.createdAt,
    expiresAt: l.expiresAt,
    revokedAt: l.revokedAt || null,
    status: LINK_STATUSES.find((s) => s === l.status) ?? "expired",
    emailStatus: EMAIL_STATUSES.find((s) => s === l.emailStatus) ?? "none",
  };
}

const eventJson = (e: ApprovalEvent): z.input<typeof eventSchema> => ({
  id: e.eventId,
  linkId: e.linkId,
  kind: EVENT_KINDS.find((k) => k === e.kind) ?? "comment",
  body: e.body,
  authorName: e.authorName,
  createdAt: e.createdAt,
});

const stateJson = (s: ApprovalState | undefined): z.input<typeof stateSchema> => ({
  state: STATES.find((k) => k === s?.state) ?? "none",
  since: s?.since || null,
});

// A token is 43 base64url characters; anything else is answered 404 by the service, not refused here,
// so a cut link reads "not valid" rather than a field error.
const tokenParams = z.object({ token: z.string().min(1, "token is required").max(200, "token is too long") });

const reviewSchema = z
  .object({
    link: linkSchema,
    title: z.string(),
    subject: z.string().meta({ description: "A campaign's subject line; empty for a craft." }),
    preheader: z.string(),
    sections: z.array(z.object({ title: z.string(), html: z.string() })).meta({
      description:
        "A craft's results as shared, sanitised (@crafter/html); or one section, a campaign's email exactly as it will be sent (no tracking; show it in a sandboxed frame, as the campaign preview does).",
    }),
    events: z.array(eventSchema),
    state: stateSchema,
    businessName: z.string(),
  })
  .meta({ id: "ApprovalReview" });

export function approvalsRoutes({ clients, redis, publicOrigin }: RouteDeps): RouteDef[] {
  const reviewUrl = (token: string) => `${publicOrigin.replace(/\/+$/, "")}/review/${token}`;
  const LINK_ERRORS = ["NOT_FOUND", "RATE_LIMITED", "REVIEW_LINK_GONE"] as const;
  return [
    defineRoute({
      method: "post",
      path: "/api/approvals",
      tag: "approvals",
      summary: "Share a craft or an email campaign for approval: a new expiring review link",
      description:
        "The link's token is answered once, inside `url`, and only its SHA-256 is stored. A craft is shared with its results as they are now; a campaign is rendered from its content at each read. The member who makes the link is notified in-app and by email of every comment and decision.",
      auth: "session",
      actsInProject: true,
      status: 201,
      body: z.object({
        projectId: text("projectId", 64).optional(),
        subjectKind,
        subjectId: id("subjectId"),
        reviewerName: text("reviewerName", 80).default(""),
        reviewerEmail: emailOrNone("Invalid email"),
        expiresInDays: z
          .number({ error: "expiresInDays must be a whole number from 1 to 30" })
          .int("expiresInDays must be a whole number from 1 to 30")
          .min(1, "expiresInDays must be a whole number from 1 to 30")
          .max(30, "expiresInDays must be a whole number from 1 to 30")
          .default(7),
      }),
      response: z.object({ link: linkSchema, url: z.string() }),
      errors: ["NOT_FOUND", "CONFLICT"],
      handler: async ({ body, as, project }) => {
        const answer = await clients.approvals.createApprovalLink(
          {
            projectId: project.projectId,
            subjectKind: body.subjectKind,
            subjectId: body.subjectId,
            reviewerName: body.reviewerName,
            reviewerEmail: body.reviewerEmail,
            expiresInDays: body.expiresInDays,
          },
          as,
        );
        return { link: linkJson(answer.link), url: reviewUrl(answer.token) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/approvals",
      tag: "approvals",
      summary:
        "A craft's or campaign's review links (newest first), its reviewers' comments and decisions, and its approval state",
      auth: "session",
      actsInProject: true,
      query: z.object({ projectId: text("projectId", 64).optional(), subjectKind, subjectId: id("subjectId") }),
      response: z.object({ links: z.array(linkSchema), events: z.array(eventSchema), state: stateSchema }),
      errors: ["NOT_FOUND"],
      handler: async ({ query, as, project }) => {
        const answer = await clients.approvals.listApprovals(
          { projectId: project.projectId, subjectKind: query.subjectKind, subjectId: query.subjectId },
          as,
        );
        return {
          links: answer.links.map(linkJson),
          events: answer.events.map(eventJson),
          state: stateJson(answer.state),
        };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/approvals/states",
      tag: "approvals",
      summary: "The approval state of each of a page of crafts or campaigns (the lists' tags), in one read",
      description:
        "One entry per id, in the order asked; an item never shared answers `none`. `reviewer` is who decided (approved, changes_requested), else the reviewer of the latest link.",
      auth: "session",
      actsInProject: true,
      query: z.object({
        projectId: text("projectId", 64).optional(),
        subjectKind,
        // One pattern, so the document states the rule: at most 100 ids of at most 64 characters.
        ids: z
          .string({ error: "ids must be text" })
          .regex(/^[^,]{0,64}(,[^,]{0,64}){0,99}$/, "ids holds at most 100 ids of at most 64 characters")
          .transform((v) =>
            v
              .split(",")
              .map((id) => id.trim())
              .filter((id) => id !== ""),
          )
          .meta({ description: "Comma-separated ids, at most 100, each at most 64 characters." }),
      }),
      response: z.object({
        states: z.array(
          z.object({
            subjectId: z.string(),
            state: z.enum(STATES),
            since: z.string().nullable(),
            reviewer: z.string(),
          }),
        ),
      }),
      errors: ["NOT_FOUND"],
      handler: async ({ query, as, project }) => {
        const answer = await clients.approvals.listApprovalStates(
          { projectId: project.projectId, subjectKind: query.subjectKind, subjectIds: query.ids },
          as,
        );
        return {
          states: answer.states.map((s) => ({
            subjectId: s.subjectId,
            ...stateJson(s.state),
            reviewer: s.reviewer,
          })),
        };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/approvals/{id}/revoke",
      tag: "approvals",
      summary: "Revoke a review link: it stops working at once (idempotent)",
      auth: "session",
      actsInProject: true,
      params: z.object({ id: id("id") }),
      query: z.object({ projectId: text("projectId", 64).optional() }),
      response: z.object({ link: linkSchema }),
      errors: ["NOT_FOUND"],
      handler: async ({ params, as, project }) => {
        const answer = await clients.approvals.revokeApprovalLink(
          { projectId: project.projectId, linkId: params.id },
          as,
        );
        return { link: linkJson(answer.link) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/public/reviews/{token}",
      tag: "public",
      summary: "What a review link shows: the craft or campaign, read-only, with this link's comments",
      description:
        "404 NOT_FOUND for an unknown or altered token; 410 REVIEW_LINK_GONE once the link is revoked or expired (at once). Rate-limited per IP.",
      auth: "public",
      params: tokenParams,
      response: reviewSchema,
      errors: [...LINK_ERRORS],
      handler: async ({ req, params }) => {
        await limit(redis, [[REVIEW_LIMITS.readPerIp, ipOf(req)]]);
        const r = await clients.approvalsAsGateway.getReview({ token: params.token });
        return {
          link: linkJson(r.link),
          title: r.title,
          subject: r.subject,
          preheader: r.preheader,
          sections: r.sections.map((s) => ({ title: s.title, html: s.html })),
          events: r.events.map(eventJson),
          state: stateJson(r.state),
          businessName: r.businessName,
        };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/public/reviews/{token}/events",
      tag: "public",
      summary: "Comment, approve, or request changes (with a comment) on a review link",
      description:
        "The link's creator is notified in-app and by email. Rate-limited per IP and per link; errors as the read's.",
      auth: "public",
      status: 201,
      params: tokenParams,
      body: z.object({
        kind: z.enum(EVENT_KINDS, { error: "kind is comment, approved or changes_requested" }),
        body: text("body", 5000).default(""),
        authorName: text("authorName", 80).default(""),
      }),
      response: z.object({ event: eventSchema, state: stateSchema }),
      errors: [...LINK_ERRORS, "CONFLICT"],
      handler: async ({ req, params, body }) => {
        await limit(redis, [
          [REVIEW_LIMITS.writePerIp, ipOf(req)],
          [REVIEW_LIMITS.writePerLink, params.token.slice(0, 64)],
        ]);
        const answer = await clients.approvalsAsGateway.addReviewEvent({ token: params.token, ...body });
        if (!answer.event) throw new Error("the notifications service answered no event");
        return { event: eventJson(answer.event), state: stateJson(answer.state) };
      },
    }),
  ];
}
