import { Code, ConnectError, createContextKey, type HandlerContext } from "@connectrpc/connect";
import type { Caller } from "../caller";

/** The verified caller of an RPC: the claims of the access JWT (spec section 3, "Auth user"). */
export interface AuthUser {
  userId: string;
  email: string;
  role: string;
  email_verified: boolean;
  clientId: string;
  display_name: string;
  /** Issued-at and expiry, seconds since the epoch. */
  iat: number;
  exp: number;
}

/** Where the auth interceptor puts the caller; undefined on unauthenticated calls. */
export const kUser = createContextKey<AuthUser | undefined>(undefined, { description: "authenticated user" });
/** The caller's raw access token, so a service can call another on the user's behalf. */
export const kAccessToken = createContextKey<string | undefined>(undefined, { description: "access token" });

/**
 * The caller of this RPC.
 * @throws ConnectError Unauthenticated when the call carried no valid access token.
 */
export function requireUser(ctx: HandlerContext): AuthUser {
  const user = ctx.values.get(kUser);
  if (!user) throw new ConnectError("Your session has expired. Please sign in again.", Code.Unauthenticated);
  return user;
}

/** Call options that forward the caller's access token (and cancellation) to another service. */
export function onBehalfOf(caller: Pick<Caller, "token" | "signal">): {
  headers: Record<string, string>;
  signal: AbortSignal;
} {
  return { headers: caller.token ? { authorization: `Bearer ${caller.token}` } : {}, signal: caller.signal };
}
