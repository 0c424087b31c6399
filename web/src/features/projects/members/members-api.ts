import { useCallback } from "react";
import useSWR, { useSWRConfig } from "swr";
import { api, fetcher } from "../../../api/api";
import { keys } from "../../../api/keys";

/** Team members of a project (issue 14; services/gateway/src/routes/members.routes.ts). */
export type MemberRole = "manager" | "projectAdmin";

export interface ProjectMember {
  userId: string;
  email: string;
  role: MemberRole;
  joinedAt: string | null;
}

export interface ProjectInvite {
  inviteId: string;
  email: string;
  role: MemberRole;
  createdAt: string | null;
  expiresAt: string | null;
}

export const ROLE_LABELS: Record<string, string> = {
  owner: "Owner",
  manager: "Manager",
  projectAdmin: "Project admin",
};

const enc = encodeURIComponent;
export const memberPaths = {
  members: (projectId: string) => `/api/projects/${enc(projectId)}/members`,
  invites: (projectId: string) => `/api/projects/${enc(projectId)}/invites`,
  invite: (projectId: string, inviteId: string) => `/api/projects/${enc(projectId)}/invites/${enc(inviteId)}`,
  member: (projectId: string, userId: string) => `/api/projects/${enc(projectId)}/members/${enc(userId)}`,
  accept: "/api/projects/invites/accept",
};

/** The project's members and pending invitations (its owner only). */
export function useMembers(projectId: string | null) {
  return useSWR<{ members: ProjectMember[]; invites: ProjectInvite[] }>(
    projectId ? memberPaths.members(projectId) : null,
    fetcher,
  );
}

/** Invite, revoke and remove; each revalidates the list. */
export function useMemberActions(projectId: string) {
  const { mutate } = useSWRConfig();
  const refresh = useCallback(() => mutate(memberPaths.members(projectId)), [mutate, projectId]);
  return {
    invite: async (email: string, role: MemberRole) => {
      const invite = await api.post<ProjectInvite>(memberPaths.invites(projectId), { email, role });
      await refresh();
      return invite;
    },
    revoke: async (inviteId: string) => {
      await api.del(memberPaths.invite(projectId, inviteId));
      await refresh();
    },
    remove: async (userId: string) => {
      await api.del(memberPaths.member(projectId, userId));
      await refresh();
    },
  };
}

/** Accepts an invitation link's token; the projects list then shows the new project. */
export function useAcceptInvite() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (token: string) => {
      const joined = await api.post<{ projectId: string; projectTitle: string; role: MemberRole }>(memberPaths.accept, {
        token,
      });
      // Someone without a project of their own now has this one as their active project.
      await Promise.all([mutate(keys.projects()), mutate(keys.initial()), mutate(keys.activeProject())]);
      return joined;
    },
    [mutate],
  );
}
