import { useCallback } from "react";
import useSWR, { useSWRConfig } from "swr";
import { apiKey, fetcher, http } from "../api";
import type { BodyOf, ResultOf, Schema } from "../contract";
import { keys } from "../keys";

/**
 * A project's team: its members and invitations (the owner's), and accepting an invitation link,
 * typed by the gateway's OpenAPI document. Keys are the URLs they are read from (`apiKey`).
 */

export type ProjectMember = Schema<"ProjectMember">;
export type ProjectInvite = Schema<"ProjectInvite">;
/** The roles an invitation gives (the owner is not one). */
export type MemberRole = BodyOf<"/api/projects/{id}/invites", "post">["role"];
export type Team = ResultOf<"/api/projects/{id}/members", "get">;

export const memberKeys = {
  team: (projectId: string) => apiKey("/api/projects/{id}/members", { path: { id: projectId } }),
};

/** The project's members and pending invitations (its owner only). */
export function useMembers(projectId: string | null) {
  return useSWR<Team>(projectId ? memberKeys.team(projectId) : null, fetcher);
}

/** Invite, revoke and remove; each revalidates the list. */
export function useMemberActions(projectId: string) {
  const { mutate } = useSWRConfig();
  const refresh = useCallback(() => mutate(memberKeys.team(projectId)), [mutate, projectId]);
  const id = projectId;
  return {
    invite: async (email: string, role: MemberRole) => {
      const invite = await http.post("/api/projects/{id}/invites", { path: { id }, body: { email, role } });
      await refresh();
      return invite;
    },
    revoke: async (inviteId: string) => {
      await http.del("/api/projects/{id}/invites/{inviteId}", { path: { id, inviteId } });
      await refresh();
    },
    remove: async (userId: string) => {
      await http.del("/api/projects/{id}/members/{userId}", { path: { id, userId } });
      await refresh();
    },
  };
}

/** Accepts an invitation link's token; the projects list then shows the new project. */
export function useAcceptInvite() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (token: string) => {
      const joined = await http.post("/api/projects/invites/accept", { body: { token } });
      // Someone without a project of their own now has this one as their active project.
      await Promise.all([mutate(keys.projects()), mutate(keys.initial()), mutate(keys.activeProject())]);
      return joined;
    },
    [mutate],
  );
}
