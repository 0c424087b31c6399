import type { NotificationsDeps } from "../deps";
import { renderInviteEmail, tokenLink } from "../domain/templates";
import { deliverEmail } from "./deliver-email";

/** What ProjectMemberInvited tells the notifications service. */
export interface ProjectInvite {
  projectId: string;
  projectTitle: string;
  inviteId: string;
  email: string;
  role: string;
  token: string;
  expiresAt: Date | null;
  inviterName: string;
}

/**
 * Emails a team invitation's link `${PUBLIC_ORIGIN}/app/invite?token=…` (the web page
 * sends a visitor without a session to sign in first) to the invited address, once
 * per event (deliverEmail).
 * @throws when the event carries no token or address (it goes to the DLQ: projects sent a broken event).
 */
export async function sendInviteEmail(deps: NotificationsDeps, eventId: string, invite: ProjectInvite): Promise<void> {
  if (!invite.token || !invite.email) throw new Error("ProjectMemberInvited without token or email");
  await deliverEmail(deps, {
    eventId,
    // The invited person may have no account yet: the delivery is the project's.
    userId: `project:${invite.projectId}`,
    to: invite.email,
    template: "project-invite",
    email: renderInviteEmail({
      inviterName: invite.inviterName,
      projectTitle: invite.projectTitle,
      role: invite.role,
      link: tokenLink(deps.publicOrigin, "/app/invite", invite.token),
      expiresAt: invite.expiresAt,
      now: deps.now(),
    }),
  });
}
