import type { ConnectRouter, HandlerContext } from "@connectrpc/connect";
import { appError, callerOf, requireUser } from "@crafter/kit";
import { MembersService } from "@crafter/proto/crafter/projects/v1/members_pb";
import type { ProjectsDeps } from "../deps";
import type { Invite, Member } from "../store/member.repository";
import {
  acceptInvite,
  delegateAccess,
  inviteMember,
  listMembers,
  removeMember,
  revokeInvite,
} from "../usecases/members";
import { timestamp } from "./mappers";

/**
 * The caller of a members RPC, from their own token only: a delegated token (a member acting as the
 * owner) never manages members, accepts invites or delegates again.
 * @throws FORBIDDEN for a delegated token.
 */
export function ownCaller(ctx: HandlerContext) {
  const claims = requireUser(ctx);
  if (claims.delegatedProjectId) throw appError("FORBIDDEN", "Only the project's owner may do this.");
  return { ...callerOf(ctx), email: claims.email, displayName: claims.display_name };
}

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

/** crafter.projects.v1.MembersService: a project's team members. */
export function membersRoutes(deps: ProjectsDeps): (router: ConnectRouter) => void {
  return (router) =>
    router.service(MembersService, {
      async inviteMember(req, ctx) {
        return { invite: inviteMessage(await inviteMember(deps, ownCaller(ctx), req)) };
      },
      async listMembers(req, ctx) {
        const { members, invites } = await listMembers(deps, ownCaller(ctx), req);
        return { members: members.map(memberMessage), invites: invites.map(inviteMessage) };
      },
      async revokeInvite(req, ctx) {
        await revokeInvite(deps, ownCaller(ctx), req);
        return {};
      },
      async removeMember(req, ctx) {
        await removeMember(deps, ownCaller(ctx), req);
        return {};
      },
      async acceptInvite(req, ctx) {
        return acceptInvite(deps, ownCaller(ctx), req);
      },
      async delegateAccess(req, ctx) {
        const { accessToken, expiresAt, role } = await delegateAccess(deps, ownCaller(ctx), req);
        return { accessToken, expiresAt: timestamp(expiresAt), role };
      },
    });
}
