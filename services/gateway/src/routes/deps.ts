import type { AccessTokenVerifier } from "@crafter/kit";
import type { Clients } from "../clients";
import type { SessionCookieOptions } from "../http/session";

/** What a route file's factory gets: `(deps: RouteDeps) => RouteDef[]`. */
export interface RouteDeps {
  clients: Clients;
  verify: AccessTokenVerifier;
  cookies: SessionCookieOptions;
}
