import type { DescService } from "@bufbuild/protobuf";
import type { Interceptor } from "@connectrpc/connect";
import { appError } from "../errors/app-error";
import { unauthenticatedUnlessOutage } from "./errors";
import { kAccessToken, kService, kUser, type VerifiedIdentity } from "./identity";
import { HEALTH_SERVICE } from "./interceptors";
import type { IdentityVerifier } from "./jwks";

/**
 * Who may call an RPC (DESIGN §4, "Service identity"):
 * - `"public"`: anyone, no token needed (auth's sign-up/sign-in family, health);
 * - `"user"`: a verified user access token of a user whose email is verified (else
 *   EMAIL_NOT_VERIFIED), acting on that user only (a request naming another user in
 *   `user_id` is PermissionDenied);
 * - `"service:<name>"`: a service token of that service, which may name any user in the request.
 */
export type AllowedCaller = "public" | "user" | `service:${string}`;

/**
 * A service's access table: service type name (e.g. "crafter.billing.v1.BillingService") →
 * method local name (e.g. "debit") → the callers allowed. Build it with `rpcAccess`, which makes a
 * missing method a compile error. A method with no entry is refused; grpc.health.v1 is public.
 */
export type RpcAccess = Readonly<Record<string, Readonly<Record<string, readonly AllowedCaller[]>>>>;

/**
 * The access table of one service, with an entry required for every method of `service`.
 * Merge the tables of several services with object spread.
 */
export function rpcAccess<S extends DescService>(
  service: S,
  methods: { readonly [M in keyof S["method"]]: readonly AllowedCaller[] },
): RpcAccess {
  return { [service.typeName]: methods as Record<string, readonly AllowedCaller[]> };
}

/** Who is calling, from the bearer token (none: anonymous). */
export type Presented = { kind: "anonymous" } | VerifiedIdentity;

/** The outcome of `decideAccess`. */
export type AccessDecision = "allow" | "unauthenticated" | "permission_denied" | "email_not_verified";

/**
 * The access decision, pure:
 * - no entry for the method → permission_denied;
 * - "public" → allow;
 * - no token on a method that needs one → unauthenticated;
 * - a user token → allow when "user" is listed and `namedUserId` is empty or the token's user,
 *   email_not_verified when its `email_verified` is false;
 * - a service token → allow when `service:<its name>` is listed (it may name any user);
 * - otherwise permission_denied.
 * @param namedUserId the `user_id` the request names ("" or undefined when none).
 */
export function decideAccess(
  allowed: readonly AllowedCaller[] | undefined,
  caller: Presented,
  namedUserId: string | undefined,
): AccessDecision {
  if (!allowed) return "permission_denied";
  if (allowed.includes("public")) return "allow";
  switch (caller.kind) {
    case "anonymous":
      return "unauthenticated";
    case "user":
      if (!allowed.includes("user")) return "permission_denied";
      if (!caller.user.email_verified) return "email_not_verified";
      return namedUserId && namedUserId !== caller.user.userId ? "permission_denied" : "allow";
    case "service":
      return allowed.includes(`service:${caller.service}`) ? "allow" : "permission_denied";
  }
}

/** The `userId` field of a request message, when it has one (e.g. billing's GetCreditsRequest.user_id). */
function namedUserOf(message: unknown): string | undefined {
  const userId = (message as { userId?: unknown } | undefined)?.userId;
  return typeof userId === "string" ? userId : undefined;
}

/**
 * Server interceptor enforcing `access` on every call but grpc.health.v1: verifies the bearer
 * token when there is one (a present but invalid token is Unauthenticated, whatever the method),
 * then applies `decideAccess`. On success it puts the user in `kUser` and the user's token in
 * `kAccessToken` (user tokens), or the calling service's name in `kService` (service tokens).
 * Errors: UNAUTHENTICATED (Connect Unauthenticated), FORBIDDEN and EMAIL_NOT_VERIFIED (PermissionDenied);
 * an outage of the verifier's Redis or JWKS source is rethrown (errorInterceptor makes it Unavailable).
 * A unary request's `userId` is checked before the handler runs; on streams (server-streaming
 * included, whose one request arrives as a stream) each message is checked as the handler reads it.
 */
export function accessInterceptor(access: RpcAccess, verify: IdentityVerifier): Interceptor {
  return (next) => async (req) => {
    if (req.service.typeName === HEALTH_SERVICE) return next(req);
    const header = req.header.get("authorization");
    let caller: Presented = { kind: "anonymous" };
    let token: string | undefined;
    if (header !== null) {
      if (!header.startsWith("Bearer ")) throw appError("UNAUTHENTICATED");
      token = header.slice("Bearer ".length);
      try {
        caller = await verify(token);
      } catch (error) {
        unauthenticatedUnlessOutage(error);
      }
    }
    const allowed = access[req.service.typeName]?.[req.method.localName];
    const decision = decideAccess(allowed, caller, req.stream ? undefined : namedUserOf(req.message));
    if (decision === "unauthenticated") throw appError("UNAUTHENTICATED");
    if (decision === "permission_denied") throw appError("FORBIDDEN");
    if (decision === "email_not_verified") throw appError("EMAIL_NOT_VERIFIED");
    if (caller.kind === "user") {
      req.contextValues.set(kUser, caller.user);
      req.contextValues.set(kAccessToken, token);
    } else if (caller.kind === "service") {
      req.contextValues.set(kService, caller.service);
    }
    if (!req.stream) return next(req);
    const who = caller;
    return next({
      ...req,
      message: (async function* checked(messages: AsyncIterable<unknown>) {
        for await (const message of messages) {
          if (decideAccess(allowed, who, namedUserOf(message)) !== "allow") throw appError("FORBIDDEN");
          yield message;
        }
      })(req.message),
    } as typeof req);
  };
}
