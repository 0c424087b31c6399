import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf, requireUser } from "@crafter/kit";
import { MembersService } from "@crafter/proto/crafter/projects/v1/members_pb";
import type { ProjectsDeps } from "../deps";
import type { Invite, Member } from "../store/member.repository";
import { acceptInvite, inviteMember, listMembers, removeMember, revokeInvite } from "../usecases/members";
import { timestamp } from "./mappers";

const inviteMessage = (invite: Invite) => ({
  inviteId: invite.id,
  email: invite.email,
  role: invite.role,
  createdAt: timestamp(invite.createdAt),
  expiresAt: timestamp(invite.expiresAt),
});

const memberMessage = (member: Member) => ({
  memberUserId: member.userId,
  email: member.email,
  role: member.role,
  joinedAt: timestamp(member.createdAt),
});

/** crafter.projects.v1.MembersService: a project's team members (issue 14). */
export function membersRoutes(deps: ProjectsDeps): (router: ConnectRouter) => void {
  return (router) =>
    router.service(MembersService, {
      async inviteMember(req, ctx) {
        const claims = requireUser(ctx);
        const caller = { ...callerOf(ctx), email: claims.email, displayName: claims.display_name };
        return { invite: inviteMessage(await inviteMember(deps, caller, req)) };
      },
      async listMembers(req, ctx) {
        const { members, invites } = await listMembers(deps, callerOf(ctx), req);
        return { members: members.map(memberMessage), invites: invites.map(inviteMessage) };
      },
      async revokeInvite(req, ctx) {
        await revokeInvite(deps, callerOf(ctx), req);
        return {};
      },
      async removeMember(req, ctx) {
        await removeMember(deps, callerOf(ctx), req);
        return {};
      },
      async acceptInvite(req, ctx) {
        return acceptInvite(deps, { ...callerOf(ctx), email: requireUser(ctx).email }, req);
      },
    });
}
