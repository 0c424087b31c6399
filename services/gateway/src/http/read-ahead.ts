import { type DeniableClaims, deniedBy, denylistKeys, type Redis, viewVersion, viewVersionKey } from "@crafter/kit";
import type { Request, RequestHandler } from "express";
import { accessTokenFrom } from "./session";

/** What `readAhead` read for a request (`req.readAhead`, declared in http/session.ts). */
export type ReadAhead = NonNullable<Request["readAhead"]>;

/**
 * For a GET of one of `paths` (the per-user cached views), starts reading the token's denylist
 * entries and the user's view version in one round trip before the session is checked: a cached
 * read then costs one Redis command, not two in turn.
 */
export function readAhead(redis: Redis, paths: readonly string[]): RequestHandler {
  const wanted = new Set(paths);
  return (req, _res, next) => {
    if (req.method === "GET" && wanted.has(req.path)) {
      const token = accessTokenFrom(req.headers.authorization, req.headers.cookie);
      const claims = unverifiedClaims(token);
      if (token && claims?.sub) {
        const userId = claims.sub;
        const values = redis.mget(...denylistKeys(claims), viewVersionKey(userId));
        const denied = values.then((found) => deniedBy(claims, found));
        // A version Redis lost is started again, as viewVersion does.
        const version = values.then((found) => found[2] ?? viewVersion(redis, userId));
        // Read (and failures handled) by the session check and the view cache, if they get there.
        denied.catch(() => {});
        version.catch(() => {});
        req.readAhead = { token, userId, denied, version };
      }
    }
    next();
  };
}

/** The claims of an access token, unverified (only to read ahead or invalidate; never to trust). */
export function unverifiedClaims(token: string | undefined): (DeniableClaims & { sub: string }) | undefined {
  const payload = token?.split(".")[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (typeof claims?.sub !== "string" || !claims.sub) return undefined;
    return {
      sub: claims.sub,
      sid: typeof claims.sid === "string" ? claims.sid : undefined,
      jti: typeof claims.jti === "string" ? claims.jti : undefined,
      iat: typeof claims.iat === "number" ? claims.iat : undefined,
    };
  } catch {
    return undefined;
  }
}
