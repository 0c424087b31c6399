import { INVITABLE_ROLES } from "@crafter/roles";

/** The RFC 8693 `act` claim of a delegated token: the team member who acts. */
export interface ActorClaim {
  sub: string;
  email: string;
}

/** The claims (besides iss, aud, iat, exp, jti) of a delegated access token. */
export interface DelegatedClaims {
  sub: string;
  email: string;
  role: string;
  email_verified: boolean;
  client_id: string;
  display_name: string;
  /** Names the delegation, never a browser session: the denylist's session revocations do not reach it. */
  sid: string;
  act: ActorClaim;
  /** The project the delegation is for. */
  pid: string;
}

/**
 * The claims of a team member's delegated access token: the project owner's identity
 * (`sub`, email, display name, client id, so services read and write the owner's data) with the
 * member's project role (never the owner's account role: an admin owner lends no admin powers), the
 * member as `act` and the project as `pid`.
 * @returns null when the role is not a member role or an id is missing.
 */
export function delegatedClaims(
  owner: { id: string; email: string; emailVerified: boolean; clientId: string; displayName: string },
  member: { userId: string; email: string },
  projectId: string,
  role: string,
): DelegatedClaims | null {
  if (!owner.id || !member.userId || !projectId || owner.id === member.userId) return null;
  if (!(INVITABLE_ROLES as readonly string[]).includes(role)) return null;
  return {
    sub: owner.id,
    email: owner.email,
    role,
    email_verified: owner.emailVerified,
    client_id: owner.clientId,
    display_name: owner.displayName,
    sid: `delegated:${projectId}:${member.userId}`,
    act: { sub: member.userId, email: member.email },
    pid: projectId,
  };
}
