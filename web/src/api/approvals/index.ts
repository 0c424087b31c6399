import useSWR from "swr";
import { apiKey, fetcher, http } from "../api";
import type { BodyOf, ResultOf, Schema } from "../contract";

/**
 * Reads and writes of approvals (share a craft or a campaign for review) and the reviewer's public
 * page, typed by the gateway's OpenAPI document. Keys are the URLs they are read from (`apiKey`).
 */

export type ApprovalLink = Schema<"ApprovalLink">;
export type ApprovalEvent = Schema<"ApprovalEvent">;
export type ApprovalState = Schema<"ApprovalState">;
/** What `GET /api/public/reviews/{token}` answers the reviewer. */
export type Review = Schema<"ApprovalReview">;
/** What can be shared for approval: a craft (workflows) or an email campaign. */
export type SubjectKind = ApprovalLink["subjectKind"];
export type ApprovalStateName = ApprovalState["state"];
export type ReviewKind = ApprovalEvent["kind"];
export type Approvals = ResultOf<"/api/approvals", "get">;
/** One listed item's approval state: who decided, else the latest link's reviewer ("" when unnamed). */
export type SubjectApprovalState = ResultOf<"/api/approvals/states", "get">["states"][number];

export const approvalKeys = {
  list: (subjectKind: SubjectKind, subjectId: string, projectId?: string) =>
    apiKey("/api/approvals", { query: { subjectKind, subjectId, projectId } }),
  states: (subjectKind: SubjectKind, ids: readonly string[], projectId?: string) =>
    apiKey("/api/approvals/states", { query: { subjectKind, ids: ids.join(","), projectId } }),
  review: (token: string) => apiKey("/api/public/reviews/{token}", { path: { token } }),
};

/** The links, comments and state of one craft or campaign. */
export function useApprovals(kind: SubjectKind, id: string | undefined, projectId?: string) {
  return useSWR<Approvals>(id ? approvalKeys.list(kind, id, projectId) : null, fetcher);
}

/**
 * The approval states of a page of a list, in one request (the ids of the rows shown); a map by id.
 * Nothing is asked for an empty page.
 */
export function useApprovalStates(kind: SubjectKind, ids: readonly string[], projectId?: string) {
  const unique = [...new Set(ids)].slice(0, 100);
  const { data, ...rest } = useSWR<ResultOf<"/api/approvals/states", "get">>(
    unique.length > 0 ? approvalKeys.states(kind, unique, projectId) : null,
    fetcher,
  );
  const byId = new Map((data?.states ?? []).map((s) => [s.subjectId, s]));
  return { byId, loaded: data !== undefined, ...rest };
}

/** The page a review link opens (public: the token is the credential). */
export function useReview(token: string) {
  return useSWR<Review>(approvalKeys.review(token), fetcher, {
    shouldRetryOnError: false,
    revalidateOnFocus: false,
    // The page shows its own states (not valid, no longer works): no global "Could not load data" toast.
    onError: () => undefined,
  });
}

/** Makes a review link; its token is only ever in the answer's `url`, once. */
export function createApprovalLink(body: BodyOf<"/api/approvals", "post">) {
  return http.post("/api/approvals", { body });
}

export function revokeApprovalLink(id: string, projectId?: string) {
  return http.post("/api/approvals/{id}/revoke", { path: { id }, query: { projectId } });
}

/** The reviewer's comment or decision. */
export function addReviewEvent(token: string, body: BodyOf<"/api/public/reviews/{token}/events", "post">) {
  return http.post("/api/public/reviews/{token}/events", { path: { token }, body });
}
