import useSWR from "swr";
import { api, fetcher } from "../../api/api";

/** What can be shared for approval: a craft (workflows) or an email campaign. */
export type SubjectKind = "craft" | "campaign";
export type ApprovalStateName = "none" | "awaiting" | "approved" | "changes_requested";
export type ReviewKind = "comment" | "approved" | "changes_requested";

/** A review link as the owner's pages see it (its token is only ever in `url`, once). */
export interface ApprovalLink {
  id: string;
  subjectKind: SubjectKind;
  subjectId: string;
  reviewerName: string;
  reviewerEmail: string;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  status: "active" | "revoked" | "expired";
  /** The email of the link to reviewerEmail: none, pending (retried), sent, failed (given up). */
  emailStatus: "none" | "pending" | "sent" | "failed";
}

export interface ApprovalEvent {
  id: string;
  linkId: string;
  kind: ReviewKind;
  body: string;
  authorName: string;
  createdAt: string;
}

export interface ApprovalState {
  state: ApprovalStateName;
  since: string | null;
}

export interface Approvals {
  links: ApprovalLink[];
  events: ApprovalEvent[];
  state: ApprovalState;
}

/** What `GET /api/public/reviews/{token}` answers the reviewer. */
export interface Review {
  link: ApprovalLink;
  title: string;
  subject: string;
  preheader: string;
  sections: { title: string; html: string }[];
  events: ApprovalEvent[];
  state: ApprovalState;
  businessName: string;
}

/** One listed item's approval state (`GET /api/approvals/states`). */
export interface SubjectApprovalState extends ApprovalState {
  subjectId: string;
  /** Who decided, else the latest link's reviewer; "" when unnamed. */
  reviewer: string;
}

export const approvalPaths = {
  states: (kind: SubjectKind, ids: readonly string[], projectId?: string) =>
    `/api/approvals/states?subjectKind=${kind}&ids=${ids.map(encodeURIComponent).join(",")}${projectId ? `&projectId=${encodeURIComponent(projectId)}` : ""}`,
  list: (kind: SubjectKind, id: string, projectId?: string) =>
    `/api/approvals?subjectKind=${kind}&subjectId=${encodeURIComponent(id)}${projectId ? `&projectId=${encodeURIComponent(projectId)}` : ""}`,
  create: "/api/approvals",
  revoke: (linkId: string, projectId?: string) =>
    `/api/approvals/${encodeURIComponent(linkId)}/revoke${projectId ? `?projectId=${encodeURIComponent(projectId)}` : ""}`,
  review: (token: string) => `/api/public/reviews/${encodeURIComponent(token)}`,
  reviewEvents: (token: string) => `/api/public/reviews/${encodeURIComponent(token)}/events`,
} as const;

/** The links, comments and state of one craft or campaign. */
export function useApprovals(kind: SubjectKind, id: string | undefined, projectId?: string) {
  return useSWR<Approvals>(id ? approvalPaths.list(kind, id, projectId) : null, fetcher);
}

/**
 * The approval states of a page of a list, in one request (the ids of the rows shown); a map by id.
 * Nothing is asked for an empty page.
 */
export function useApprovalStates(kind: SubjectKind, ids: readonly string[], projectId?: string) {
  const unique = [...new Set(ids)].slice(0, 100);
  const { data, ...rest } = useSWR<{ states: SubjectApprovalState[] }>(
    unique.length > 0 ? approvalPaths.states(kind, unique, projectId) : null,
    fetcher,
  );
  const byId = new Map((data?.states ?? []).map((s) => [s.subjectId, s]));
  return { byId, loaded: data !== undefined, ...rest };
}

export const approvalApi = {
  create: (input: {
    projectId?: string;
    subjectKind: SubjectKind;
    subjectId: string;
    reviewerName: string;
    reviewerEmail: string;
    expiresInDays: number;
  }) => api.post<{ link: ApprovalLink; url: string }>(approvalPaths.create, input),
  revoke: (linkId: string, projectId?: string) =>
    api.post<{ link: ApprovalLink }>(approvalPaths.revoke(linkId, projectId)),
  addEvent: (token: string, input: { kind: ReviewKind; body: string; authorName: string }) =>
    api.post<{ event: ApprovalEvent; state: ApprovalState }>(approvalPaths.reviewEvents(token), input),
};

/** The words and tag colour of each state. */
export const STATE_LABEL: Record<ApprovalStateName, { label: string; color: string }> = {
  none: { label: "Not shared", color: "default" },
  awaiting: { label: "Pending review", color: "processing" },
  approved: { label: "Approved", color: "success" },
  changes_requested: { label: "Changes requested", color: "warning" },
};

export const KIND_LABEL: Record<ReviewKind, string> = {
  comment: "commented",
  approved: "approved",
  changes_requested: "requested changes",
};
