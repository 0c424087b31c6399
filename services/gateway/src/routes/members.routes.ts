import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";
import { appError } from "@crafter/kit";
import type { Invite, Member } from "@crafter/proto/crafter/projects/v1/members_pb";
import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import { emailAddress, id } from "../http/schemas";
import type { RouteDeps } from "./deps";

const iso = (timestamp?: Timestamp) => (timestamp ? timestampDate(timestamp).toISOString() : null);

const memberSchema = z
  .object({ userId: z.string(), email: z.string(), role: z.string(), joinedAt: z.string().nullable() })
  .meta({ id: "ProjectMember" });
const inviteSchema = z
  .object({
    inviteId: z.string(),
    email: z.string(),
    role: z.string(),
    createdAt: z.string().nullable(),
    expiresAt: z.string().nullable(),
  })
  .meta({ id: "ProjectInvite" });

const toMember = (member: Member) => ({
  userId: member.memberUserId,
  email: member.email,
  role: member.role,
  joinedAt: iso(member.joinedAt),
});
const toInvite = (invite: Invite | undefined) => ({
  inviteId: invite?.inviteId ?? "",
  email: invite?.email ?? "",
  role: invite?.role ?? "",
  createdAt: iso(invite?.createdAt),
  expiresAt: iso(invite?.expiresAt),
});

/**
 * A project's team members (issue 14): the owner invites by email as manager or projectAdmin,
 * lists, revokes and removes; the invited user accepts the emailed link. The projects service
 * checks the caller's role on the project on each call (@crafter/roles).
 */
export function membersRoutes({ clients, delegations }: RouteDeps): RouteDef[] {
  const { members } = clients;
  return [
    defineRoute({
      method: "get",
      path: "/api/projects/{id}/members",
      tag: "projects",
      summary: "The project's team members and pending invitations (its owner only)",
      auth: "session",
      params: z.object({ id: id("id") }),
      response: z.object({ members: z.array(memberSchema), invites: z.array(inviteSchema) }),
      errors: ["NOT_FOUND"],
      handler: async ({ params, as }) => {
        const listed = await members.listMembers({ projectId: params.id }, as);
        return { members: listed.members.map(toMember), invites: listed.invites.map(toInvite) };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/projects/{id}/invites",
      tag: "projects",
      summary: "Invite someone by email as manager or projectAdmin; they get a single-use link valid 7 days",
      auth: "session",
      params: z.object({ id: id("id") }),
      body: z
        .object({
          email: emailAddress,
          role: z.enum(["manager", "projectAdmin"], { error: "Role must be manager or projectAdmin" }),
        })
        .strict(),
      response: inviteSchema,
      status: 201,
      errors: ["NOT_FOUND", "MEMBER_EXISTS"],
      handler: async ({ req, params, body, as }) => {
        if (req.apiKey) throw appError("FORBIDDEN", "API keys cannot invite team members.");
        const { invite } = await members.inviteMember({ projectId: params.id, ...body }, as);
        return toInvite(invite);
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/projects/{id}/members/{userId}",
      tag: "projects",
      summary: "Remove a team member: they lose access to the project at once",
      auth: "session",
      params: z.object({ id: id("id"), userId: id("userId") }),
      response: z.object({ removed: z.boolean() }),
      errors: ["NOT_FOUND"],
      handler: async ({ params, as }) => {
        await members.removeMember({ projectId: params.id, memberUserId: params.userId }, as);
        // Their delegated token stops here at once (other gateway processes: DELEGATION_CACHE_MS).
        delegations.drop(params.id, params.userId);
        return { removed: true };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/projects/invites/accept",
      tag: "projects",
      summary: "Join a project with the token of an invitation link (signed in with the invited address)",
      auth: "session",
      body: z.object({ token: z.string({ error: "token is required" }).min(1, "token is required").max(200) }).strict(),
      response: z.object({ projectId: z.string(), projectTitle: z.string(), role: z.string() }),
      errors: ["INVITE_INVALID", "INVITE_USED", "INVITE_EMAIL_MISMATCH", "MEMBER_EXISTS"],
      handler: async ({ req, body, as }) => {
        if (req.apiKey) throw appError("FORBIDDEN", "API keys cannot accept invitations.");
        const joined = await members.acceptInvite({ token: body.token }, as);
        return { projectId: joined.projectId, projectTitle: joined.projectTitle, role: joined.role };
      },
    }),
  ];
}
