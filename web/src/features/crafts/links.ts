import type { CraftState, CraftSummary } from "../../api/types";

export const BLOG_WRITER = "BlogWriter";
export const EMAIL_WRITER = "EmailWriter";

/** The page of a craft: /app/crafts/{workflowName}?craftId={id}. */
export function craftHref(craft: Pick<CraftSummary, "craftId" | "workflowName">): string {
  return `/app/crafts/${encodeURIComponent(craft.workflowName)}?craftId=${encodeURIComponent(craft.craftId)}`;
}

/** A new craft of a workflow (the craft page creates it). */
export function newCraftHref(workflowName = BLOG_WRITER): string {
  return `/app/crafts/${encodeURIComponent(workflowName)}`;
}

export const STATE_LABEL: Record<CraftState, { label: string; color: string }> = {
  NotInitialized: { label: "New", color: "default" },
  NotStarted: { label: "Not started", color: "default" },
  InProgress: { label: "In progress", color: "processing" },
  Completed: { label: "Completed", color: "success" },
};

export function stateTag(state: string): { label: string; color: string } {
  return STATE_LABEL[state as CraftState] ?? { label: state, color: "default" };
}

/** A new craft without a project (tools, smart documents): `POST /api/workflowsV2/standalone`. */
export function newStandaloneHref(workflowName: string): string {
  return `/app/crafts/${encodeURIComponent(workflowName)}?standalone=1`;
}
