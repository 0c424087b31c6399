import { useCallback } from "react";
import useSWR, { useSWRConfig } from "swr";
import { api, fetcher } from "../api";
import { isProjectScopedKey, keys } from "../keys";
import { paths } from "../paths";
import type { CheckListItem, CreateProjectInput, InitialState, Profile } from "../types";
import { useInitial } from "./app";

export interface CreatedProject {
  project: { projectId: string; projectTitle: string; profileId?: string };
  profile: Profile;
}

/**
 * `POST /api/projects/createProject`, then waits for the initial state to be refetched (the shell
 * sends users without an active project to /app/welcome, so the new project must be known first).
 */
export function useCreateProject() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (input: CreateProjectInput) => {
      const created = await api.post<CreatedProject>(paths.createProject, input);
      await mutate(keys.initial());
      return created;
    },
    [mutate],
  );
}

/** `GET /api/projects/check-list/{id}`; only used when the initial state carries no check-list. */
export function useCheckList(projectId: string | null | undefined, enabled: boolean) {
  return useSWR<{ checkList: CheckListItem[] }>(enabled && projectId ? keys.checkList(projectId) : null, fetcher);
}

export interface ProjectListItem {
  projectId: string;
  projectTitle: string;
  profileId: string;
  createdAt: string;
  /** The user's role on it: owner, or a team member's manager / projectAdmin (issue 14). */
  role?: string;
}

/** `GET /api/projects`: the user's projects, each with its profile (the contextSelector's choices). */
export function useProjects(enabled = true) {
  return useSWR<{ projects: ProjectListItem[] }>(enabled ? keys.projects() : null, fetcher);
}

/**
 * The caller's role on the active project (@crafter/roles PROJECT_ROLES): "owner" of their own
 * project, or a team member's "manager" / "projectAdmin"; undefined while it loads (or when not
 * `enabled`), null without an active project or when it is not among the caller's projects.
 */
export function useActiveProjectRole(enabled = true): string | null | undefined {
  const { data: initial } = useInitial();
  const activeId = initial?.activeProjectInfo?.projectId;
  const { data } = useProjects(enabled && Boolean(activeId));
  if (!enabled || !initial) return undefined;
  if (!activeId) return null;
  if (!data) return undefined;
  const project = data.projects.find((p) => p.projectId === activeId);
  return project ? (project.role ?? "owner") : null;
}

/**
 * Project management for /app/projects and the header's switcher. A switch (`PUT
 * /api/projects/active-project` with currentActiveId and newActiveId) puts the new id, title and
 * profile into the cached initial state at once, then revalidates every project-scoped key, so
 * every page shows the new project together.
 */
export function useProjectActions() {
  const { mutate } = useSWRConfig();
  const revalidateAll = useCallback(() => mutate(isProjectScopedKey), [mutate]);

  const switchTo = useCallback(
    async (currentActiveId: string, newActiveId: string) => {
      const next = await api.put<{ projectId: string; projectTitle: string; profile: Profile | null }>(
        paths.activeProject,
        { currentActiveId, newActiveId },
      );
      await mutate<InitialState>(
        keys.initial(),
        (current) =>
          current
            ? {
                ...current,
                activeProjectInfo: {
                  ...current.activeProjectInfo,
                  projectId: next.projectId,
                  projectTitle: next.projectTitle,
                  profile: next.profile,
                  crafts: [],
                },
              }
            : current,
        { revalidate: false },
      );
      await revalidateAll();
      return next;
    },
    [mutate, revalidateAll],
  );

  const rename = useCallback(
    async (projectId: string, projectTitle: string) => {
      const renamed = await api.request<ProjectListItem>("PATCH", paths.project(projectId), { body: { projectTitle } });
      await revalidateAll();
      return renamed;
    },
    [revalidateAll],
  );

  const remove = useCallback(
    async (projectId: string) => {
      const outcome = await api.del<{ activeProjectId: string }>(paths.project(projectId));
      await revalidateAll();
      return outcome;
    },
    [revalidateAll],
  );

  const create = useCallback(
    async (input: CreateProjectInput) => {
      const created = await api.post<CreatedProject>(paths.createProject, input);
      await revalidateAll();
      return created;
    },
    [revalidateAll],
  );

  return { switchTo, rename, remove, create };
}
