import type { AccessTokenVerifier, Redis } from "@crafter/kit";
import type { UserViewCache } from "../cache/user-views";
import type { Clients } from "../clients";
import type { ActingResolver, DelegationCache } from "../http/acting";
import type { SessionCookieOptions } from "../http/session";

/** What a route file's factory gets: `(deps: RouteDeps) => RouteDef[]`. */
export interface RouteDeps {
  clients: Clients;
  verify: AccessTokenVerifier;
  cookies: SessionCookieOptions;
  /** The per-user cache of /api/app/initial and /api/user/account (cache/user-views.ts). */
  views: UserViewCache;
  /** The origin users open (PUBLIC_ORIGIN): where Stripe sends them back after Checkout. */
  publicOrigin: string;
  /** The gateway's Redis: rate limits of the public lead routes (per IP and per form). */
  redis: Redis;
  /** The project a per-user area's request works in, with a team member's delegated token (http/acting.ts). */
  acting: ActingResolver;
  /** The delegated tokens: removing a member drops theirs at once. */
  delegations: DelegationCache;
}
