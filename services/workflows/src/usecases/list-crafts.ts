import type { Caller, Page } from "@crafter/kit";
import type { WorkflowsDeps } from "../deps";
import { type CraftSummaryView, summaryView } from "../domain/view";

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface ListCraftsInput {
  projectId: string;
  workflowName: string;
  page: number;
  pageSize: number;
  /** Only the favorites. */
  favorites?: boolean;
}

/** The user's crafts, newest first, optionally of one project and one workflow, or favorites; paginated. */
export async function listCrafts(
  deps: WorkflowsDeps,
  caller: Caller,
  input: ListCraftsInput,
): Promise<Page<CraftSummaryView>> {
  const { userId } = caller;
  const page = Math.max(1, Math.trunc(input.page) || 1);
  const pageSize = input.pageSize > 0 ? Math.min(MAX_PAGE_SIZE, Math.trunc(input.pageSize)) : DEFAULT_PAGE_SIZE;
  const filter: Record<string, string | boolean> = {};
  if (input.favorites) filter.favorite = true;
  if (input.projectId.trim()) filter.projectId = input.projectId.trim();
  if (input.workflowName.trim()) filter.workflowName = input.workflowName.trim();
  const result = await deps.stores.crafts.list(userId, filter, { page, pageSize, sort: { createdAt: -1, _id: -1 } });
  return { ...result, items: result.items.map(summaryView) };
}
