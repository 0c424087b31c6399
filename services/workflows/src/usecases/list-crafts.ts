import { badRequest, type Caller, type Page } from "@crafter/kit";
import type { WorkflowsDeps } from "../deps";
import { queryTokens } from "../domain/craft-index";
import { type CraftSummaryView, summaryView } from "../domain/view";

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** A query of more words than this is refused (each is one more condition). */
export const MAX_QUERY_WORDS = 10;

const STATES = ["NotStarted", "InProgress", "Completed"];
const SORTS = { created: "createdAt", updated: "updatedAt" } as const;

export interface ListCraftsInput {
  projectId: string;
  workflowName: string;
  page: number;
  pageSize: number;
  /** Only the favorites. */
  favorites?: boolean;
  /** Words that must all be in the craft's name or text. */
  query?: string;
  /** NotStarted | InProgress | Completed; "" for any. */
  state?: string;
  profileId?: string;
  /** "created" (default) or "updated": newest first by that date. */
  sort?: string;
}

/**
 * The user's crafts, newest first by creation or by last change, filtered by project, workflow,
 * state, profile and favorite, and searched by words of their name and text (token equality);
 * paginated.
 * @throws CR_ERR_BAD_REQUEST for an unknown state or sort, or a query of more than 10 words.
 */
export async function listCrafts(
  deps: WorkflowsDeps,
  caller: Caller,
  input: ListCraftsInput,
): Promise<Page<CraftSummaryView>> {
  const { userId } = caller;
  const page = Math.max(1, Math.trunc(input.page) || 1);
  const pageSize = input.pageSize > 0 ? Math.min(MAX_PAGE_SIZE, Math.trunc(input.pageSize)) : DEFAULT_PAGE_SIZE;
  const state = input.state?.trim() ?? "";
  if (state && !STATES.includes(state)) throw badRequest({ state: `state must be one of ${STATES.join(", ")}` });
  const sortKey = input.sort?.trim() || "created";
  if (!(sortKey in SORTS)) throw badRequest({ sort: "sort must be created or updated" });
  const tokens = queryTokens(input.query ?? "");
  if (tokens.length > MAX_QUERY_WORDS) throw badRequest({ query: `Search with at most ${MAX_QUERY_WORDS} words.` });

  const filter: Record<string, unknown> = {};
  if (input.favorites) filter.favorite = true;
  if (input.projectId.trim()) filter.projectId = input.projectId.trim();
  if (input.workflowName.trim()) filter.workflowName = input.workflowName.trim();
  if (input.profileId?.trim()) filter.profileId = input.profileId.trim();
  if (state) filter.state = state;
  // The longest word is an equality on the indexed array (pushed down); the others narrow its few matches.
  if (tokens.length > 0) filter.searchTokens = tokens[0];
  if (tokens.length > 1) filter.$and = tokens.slice(1).map((token) => ({ searchTokens: token }));
  const field = SORTS[sortKey as keyof typeof SORTS];
  const result = await deps.stores.crafts.list(userId, filter, { page, pageSize, sort: { [field]: -1, _id: -1 } });
  return { ...result, items: result.items.map(summaryView) };
}
