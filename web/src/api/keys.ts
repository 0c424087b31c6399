/**
 * SWR key factories. Every key is the gateway path it is fetched from, so one fetcher serves them
 * all and a mutation can revalidate by prefix (see `isCraftListKey`).
 */
export const CRAFTS_PAGE_SIZE = 10;

/** Filters of `GET /api/workflowsV2` (engine contract section 2). */
export interface CraftListFilter {
  workflowName?: string;
  projectId?: string;
  favorites?: boolean;
  /** Words that must all be in the name or text. */
  q?: string;
  state?: "NotStarted" | "InProgress" | "Completed";
  profileId?: string;
  /** Newest first by creation (default) or by last change. */
  sort?: "created" | "updated";
}

/** What `GET /api/workflowsV2/new` starts a draft craft from. */
export interface NewCraftQuery {
  workflowName: string;
  standalone?: boolean;
  projectId?: string | null;
  profileId?: string | null;
}

export const keys = {
  session: () => "/auth/check",
  initial: () => "/api/app/initial",
  account: () => "/api/user/account",
  settings: () => "/api/userSettings/settings",
  apiKeys: () => "/api/settings/apiKeys",
  activeProject: () => "/api/projects/active-project",
  checkList: (projectId: string) => `/api/projects/check-list/${encodeURIComponent(projectId)}`,
  workflowHeaders: () => "/api/workflowsV2/headers",
  projects: () => "/api/projects",
  flags: () => "/api/flags/user",
  /** The active project's profiles (one type, or all). */
  profiles: (profileType?: string) =>
    profileType ? `/api/profiles?profileType=${encodeURIComponent(profileType)}` : "/api/profiles",
  profile: (profileId: string) => `/api/profiles/${encodeURIComponent(profileId)}`,
  profileCrafts: (profileId: string) => `/api/profiles/${encodeURIComponent(profileId)}/crafts`,
  reviews: (page: number, pageSize = 20) => `/api/business/reviews?page=${page}&pageSize=${pageSize}`,
  crafts: (page: number, pageSize = CRAFTS_PAGE_SIZE, filter: CraftListFilter = {}) => {
    const query = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
    if (filter.workflowName) query.set("workflowName", filter.workflowName);
    if (filter.projectId) query.set("projectId", filter.projectId);
    if (filter.favorites) query.set("favorites", "true");
    if (filter.q?.trim()) query.set("q", filter.q.trim());
    if (filter.state) query.set("state", filter.state);
    if (filter.profileId) query.set("profileId", filter.profileId);
    if (filter.sort && filter.sort !== "created") query.set("sort", filter.sort);
    return `/api/workflowsV2?${query.toString()}`;
  },
  newCraft: ({ workflowName, standalone, projectId, profileId }: NewCraftQuery) => {
    const query = new URLSearchParams({ workflowName });
    if (standalone) query.set("standalone", "true");
    else {
      if (projectId) query.set("projectId", projectId);
      if (profileId) query.set("profileId", profileId);
    }
    return `/api/workflowsV2/new?${query.toString()}`;
  },
  craft: (craftId: string) => `/api/workflowsV2/${encodeURIComponent(craftId)}`,
  craftResults: (craftId: string) => `/api/workflowsV2/${encodeURIComponent(craftId)}/results`,
} as const;

/** Matches every page of the craft list, to revalidate them after a craft changes. */
export function isCraftListKey(key: unknown): boolean {
  return typeof key === "string" && key.startsWith("/api/workflowsV2?");
}

/**
 * Keys that depend on the active project: everything but the session and the user's own views. A
 * project switch revalidates them all at once, so id, title and profile change everywhere together.
 */
export function isProjectScopedKey(key: unknown): boolean {
  return (
    typeof key === "string" &&
    key !== "/auth/check" &&
    key !== "/api/user/account" &&
    key !== "/api/userSettings/settings" &&
    key !== "/api/settings/apiKeys"
  );
}
