import type { WorkflowHeader, WorkflowHeaders } from "../../api/types";

export interface WorkflowGroup {
  category: string;
  available: WorkflowHeader[];
  coming: WorkflowHeader[];
}

/** "research" → "Research", "content_ideas" → "Content ideas"; none → "Other". */
export function categoryLabel(category: string | undefined | null): string {
  const words = (category ?? "").replace(/[_-]+/g, " ").trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : "Other";
}

/**
 * The headers grouped by category (categories in first-seen order, "Other" for none), each split
 * into available and coming workflows, by title.
 */
export function groupWorkflows(headers: WorkflowHeader[]): WorkflowGroup[] {
  const groups = new Map<string, WorkflowGroup>();
  for (const header of headers) {
    const category = categoryLabel(header.category);
    let group = groups.get(category);
    if (!group) {
      group = { category, available: [], coming: [] };
      groups.set(category, group);
    }
    (header.available ? group.available : group.coming).push(header);
  }
  const byTitle = (a: WorkflowHeader, b: WorkflowHeader) => (a.title || a.name).localeCompare(b.title || b.name);
  return [...groups.values()].map((group) => ({
    ...group,
    available: group.available.sort(byTitle),
    coming: group.coming.sort(byTitle),
  }));
}

/** The tools: `toolsList` names resolved to their headers (unknown names kept with their name). */
export function toolHeaders(data: Pick<WorkflowHeaders, "headers" | "toolsList" | "newToolsList">): (WorkflowHeader & {
  isNew: boolean;
})[] {
  const byName = new Map(data.headers.map((header) => [header.name, header]));
  const names = [...new Set([...(data.toolsList ?? []), ...(data.newToolsList ?? [])])];
  return names.map((name) => {
    const header = byName.get(name) ?? {
      name,
      title: name,
      description: "",
      category: "Tools",
      version: "",
      available: false,
    };
    return { ...header, isNew: (data.newToolsList ?? []).includes(name) || !!header.new };
  });
}
