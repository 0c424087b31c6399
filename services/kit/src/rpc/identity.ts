import { Code, ConnectError, createContextKey, type HandlerContext } from "@connectrpc/connect";

// Leaf module of the kit's rpc/: types and context keys only, so client, jwks and the access
// interceptor can all import it without importing each other.

/** The verified caller of an RPC: the claims of the access JWT (spec section 3, "Auth user"). */
export interface AuthUser {
  userId: string;
  email: string;
  role: string;
  email_verified: boolean;
  clientId: string;
  display_name: string;
  /**
   * Who acts (team members): the `act.sub` of a delegated token (a member working in the
   * project owner's data, `userId` being the owner), else `userId`. Record it as the author of a change.
   */
  actorUserId: string;
  /** The acting member's email for a delegated token, else `email`. */
  actorEmail: string;
  /** The project a delegated token is limited to (`pid`); "" for a user's own token. */
  delegatedProjectId: string;
  /** Issued-at and expiry, seconds since the epoch. */
  iat: number;
  exp: number;
}

/** `aud` of service tokens; user access tokens carry JWT_AUDIENCE ("crafter") instead. */
export const SERVICE_TOKEN_AUDIENCE = "crafter-internal";
/** `sub` of a service token is `service:<name>`. */
export const SERVICE_SUBJECT_PREFIX = "service:";

/** What a verified bearer token proves: a user (access token) or a service (service token). */
export type VerifiedIdentity =
  | { kind: "user"; user: AuthUser }
  /** `exp` in seconds since the epoch. */
  | { kind: "service"; service: string; exp: number };

/** A source of this service's own service token (see serviceCredentials). */
export interface ServiceCredentials {
  /** The service the tokens name (`sub = service:<name>`). */
  readonly name: string;
  /** A valid service token, cached and renewed before it expires. @throws when auth refuses or is down. */
  token(): Promise<string>;
}

/** Where the access interceptor puts the user of a user token; undefined otherwise. */
export const kUser = createContextKey<AuthUser | undefined>(undefined, { description: "authenticated user" });
/** The caller's raw user access token, so a service can call another on the user's behalf. */
export const kAccessToken = createContextKey<string | undefined>(undefined, { description: "access token" });
/** The calling service's name when the call carried a service token; undefined otherwise. */
export const kService = createContextKey<string | undefined>(undefined, { description: "calling service" });

/**
 * The caller of this RPC.
 * @throws ConnectError Unauthenticated when the call carried no valid user access token.
 */
export function requireUser(ctx: HandlerContext): AuthUser {
  const user = ctx.values.get(kUser);
  if (!user) throw new ConnectError("Your session has expired. Please sign in again.", Code.Unauthenticated);
  return user;
}

/**
 * Call options that forward the caller's user access token to another service (none when the call
 * came with a service token or none). Takes the handler context, or a transport-free caller.
 */
export function onBehalfOf(from: HandlerContext | { token: string | undefined; signal: AbortSignal }): {
  headers: Record<string, string>;
  signal: AbortSignal;
} {
  const token = "values" in from ? from.values.get(kAccessToken) : from.token;
  return { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: from.signal };
}
