import { createHash, randomBytes, randomUUID } from "node:crypto";
import { appError, badRequest, type Caller } from "@crafter/kit";
import { canOnProject, INVITABLE_ROLES } from "@crafter/roles";
import { emailError, normalizeEmail } from "@crafter/validation";
import type { ProjectsDeps } from "../deps";
import type { Invite, Member, MemberRole } from "../store/member.repository";
import { projectAccess } from "./project-access";

// Team members: an owner invites by email as manager or projectAdmin; the invited user
// accepts with the emailed single-use link; the owner lists, revokes and removes. What members may
// do is @crafter/roles PROJECT_PERMISSIONS, enforced by project-access.ts on every project RPC.

/** How long an invitation link works. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** SHA-256 of a link token: only the hash is stored, the token is only in the email. */
export const tokenHashOf = (token: string): string => createHash("sha256").update(token).digest("hex");

function isInvitable(role: string): role is MemberRole {
  return (INVITABLE_ROLES as readonly string[]).includes(role);
}

/**
 * The project if the caller may manage its members (its owner).
 * @throws NOT_FOUND (no access), FORBIDDEN (a member: only the owner manages members).
 */
async function managedProject(deps: ProjectsDeps, caller: Caller, projectId: string) {
  if (!projectId) throw badRequest({ projectId: "Project id is required" });
  const access = await projectAccess(deps, caller.userId, projectId);
  if (!access) throw appError("NOT_FOUND", "Project not found");
  if (!canOnProject(access.role, "project.members"))
    throw appError("FORBIDDEN", "Only the project's owner manages its members.");
  return access.project;
}

/**
 * Invites `email` to the project as `role` and emails the link through notifications (the event
 * ProjectMemberInvited is committed with the invitation).
 * @throws CR_ERR_BAD_REQUEST ({ email } or { role }), NOT_FOUND, FORBIDDEN, MEMBER_EXISTS (the
 *   owner's own address, or a current member's).
 */
export async function inviteMember(
  deps: ProjectsDeps,
  caller: Caller & { email: string; displayName: string },
  input: { projectId: string; email: string; role: string },
): Promise<Invite> {
  const fields: Record<string, string> = {};
  const problem = emailError(input.email);
  if (problem) fields.email = problem;
  if (!isInvitable(input.role)) fields.role = "Role must be manager or projectAdmin";
  if (Object.keys(fields).length > 0) throw badRequest(fields);
  const project = await managedProject(deps, caller, input.projectId);
  const email = normalizeEmail(input.email);
  if (email === normalizeEmail(caller.email)) throw appError("MEMBER_EXISTS", "You own this project.");
  const members = await deps.stores.members.ofProject(project.id);
  if (members.some((member) => member.email === email)) throw appError("MEMBER_EXISTS");

  const token = randomBytes(32).toString("base64url");
  const inviteId = randomUUID();
  const expiresAt = new Date(deps.now().getTime() + INVITE_TTL_MS);
  const role = input.role as MemberRole;
  const invite = await deps.stores.members.createInvite(
    {
      _id: inviteId,
      projectId: project.id,
      ownerId: project.userId,
      email,
      role,
      tokenHash: tokenHashOf(token),
      expiresAt,
    },
    deps.events.memberInvited({
      projectId: project.id,
      projectTitle: project.title,
      inviteId,
      email,
      role,
      token,
      expiresAt,
      inviterName: caller.displayName,
    }),
  );
  deps.kick();
  return invite;
}

/** The project's members and its pending (not accepted, revoked or expired) invitations. Owner only. */
export async function listMembers(
  deps: ProjectsDeps,
  caller: Caller,
  input: { projectId: string },
): Promise<{ members: Member[]; invites: Invite[] }> {
  const project = await managedProject(deps, caller, input.projectId);
  const [members, invites] = await Promise.all([
    deps.stores.members.ofProject(project.id),
    deps.stores.members.invitesOf(project.id),
  ]);
  const now = deps.now().getTime();
  const open = invites.filter((invite) => new Date(invite.expiresAt).getTime() > now);
  return { members, invites: await deps.stores.members.stillOpen(open) };
}

/** Withdraws a pending invitation: its link stops working. @throws NOT_FOUND, FORBIDDEN, INVITE_USED. */
export async function revokeInvite(
  deps: ProjectsDeps,
  caller: Caller,
  input: { projectId: string; inviteId: string },
): Promise<void> {
  const project = await managedProject(deps, caller, input.projectId);
  const invite = input.inviteId ? await deps.stores.members.invite(project.id, input.inviteId) : null;
  if (!invite) throw appError("NOT_FOUND", "Invitation not found");
  if (!(await deps.stores.members.close(invite.id, "revoked", caller.userId, deps.now())))
    throw appError("INVITE_USED");
}

/** Removes a member: their next call on the project is refused. @throws NOT_FOUND, FORBIDDEN. */
export async function removeMember(
  deps: ProjectsDeps,
  caller: Caller,
  input: { projectId: string; memberUserId: string },
): Promise<void> {
  const project = await managedProject(deps, caller, input.projectId);
  if (!input.memberUserId || !(await deps.stores.members.removeMember(project.id, input.memberUserId)))
    throw appError("NOT_FOUND", "Member not found");
}

/**
 * Joins the project of an invitation link, once. The signed-in user's address must be the invited
 * one (the link alone is not enough: emails are forwarded).
 * @throws INVITE_INVALID (unknown or expired link, or the project is gone), INVITE_USED (accepted
 *   or revoked before), INVITE_EMAIL_MISMATCH, MEMBER_EXISTS (the owner opening their own link).
 */
export async function acceptInvite(
  deps: ProjectsDeps,
  caller: Caller & { email: string },
  input: { token: string },
): Promise<{ projectId: string; projectTitle: string; role: MemberRole }> {
  const token = input.token.trim();
  const invite = token && token.length <= 200 ? await deps.stores.members.inviteByTokenHash(tokenHashOf(token)) : null;
  if (!invite || new Date(invite.expiresAt).getTime() <= deps.now().getTime()) throw appError("INVITE_INVALID");
  const project = await deps.stores.projects.anyById(invite.projectId);
  if (!project) throw appError("INVITE_INVALID");
  if (normalizeEmail(caller.email) !== invite.email) throw appError("INVITE_EMAIL_MISMATCH");
  if (project.userId === caller.userId) throw appError("MEMBER_EXISTS", "You own this project.");
  // The closure is the single use: of two accepts (or an accept and a revoke), one inserts it.
  if (!(await deps.stores.members.close(invite.id, "accepted", caller.userId, deps.now())))
    throw appError("INVITE_USED");
  await deps.stores.members.addMember({
    projectId: project.id,
    userId: caller.userId,
    ownerId: project.userId,
    email: invite.email,
    role: invite.role,
    inviteId: invite.id,
  });
  // Someone who signed up from the invitation has no project of their own: the joined one becomes
  // their active project (only if none was ever set), so the app opens in it instead of onboarding.
  if (!(await deps.stores.projects.latest(caller.userId)))
    await deps.stores.active.setIfNone(caller.userId, project.id);
  return { projectId: project.id, projectTitle: project.title, role: invite.role };
}

/**
 * A team member's delegated access token for the project: the areas that keep their
 * data under the owner's user id (contacts, crafts, media…) are then called as the owner, with the
 * member as `act`. Checks `project.write` on the caller's own membership (one read by `_id`).
 * @throws CR_ERR_BAD_REQUEST (no project id, or the caller owns it: their own token is the one),
 *   NOT_FOUND (no such project, or not a member), FORBIDDEN (the role does not allow it).
 */
export async function delegateAccess(
  deps: ProjectsDeps,
  caller: Caller & { email: string },
  input: { projectId: string },
): Promise<{ accessToken: string; expiresAt: Date; role: MemberRole }> {
  if (!input.projectId) throw badRequest({ projectId: "Project id is required" });
  const access = await projectAccess(deps, caller.userId, input.projectId);
  if (!access) throw appError("NOT_FOUND", "Project not found");
  if (access.role === "owner")
    throw appError("CR_ERR_BAD_REQUEST", "You own this project: your own session works in it.");
  if (!canOnProject(access.role, "project.write"))
    throw appError("FORBIDDEN", "Your role on this project does not allow this.");
  const issued = await deps.delegations.issue({
    ownerUserId: access.project.userId,
    memberUserId: caller.userId,
    memberEmail: caller.email,
    projectId: access.project.id,
    role: access.role,
  });
  return { ...issued, role: access.role };
}
