import { useCallback } from "react";
import useSWR, { useSWRConfig } from "swr";
import { api, fetcher } from "../api";
import { keys } from "../keys";
import { paths } from "../paths";
import type { CheckListItem, CreateProjectInput, Profile } from "../types";

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
}

/** `GET /api/projects`: the user's projects, each with its profile (the contextSelector's choices). */
export function useProjects(enabled = true) {
  return useSWR<{ projects: ProjectListItem[] }>(enabled ? keys.projects() : null, fetcher);
}
