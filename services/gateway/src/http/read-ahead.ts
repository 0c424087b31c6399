import { type DeniableClaims, deniedBy, denylistKeys, type Redis, viewVersion, viewVersionKey } from "@crafter/kit";
import type { Request, RequestHandler } from "express";
import { LRUCache } from "lru-cache";
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

type Claims = DeniableClaims & { sub: string };

/** Decoded claims by token text: a session sends the same token with every request. */
const decoded = new LRUCache<string, Claims | false>({ max: 10_000 });

/**
 * The claims of an access token, unverified (only to read ahead or invalidate; never to trust).
 * Remembered by the token's text (10,000 tokens): nothing in them changes without it changing.
 */
export function unverifiedClaims(token: string | undefined): Claims | undefined {
  if (!token) return undefined;
  let claims = decoded.get(token);
  if (claims === undefined) {
    claims = decode(token);
    decoded.set(token, claims);
  }
  return claims || undefined;
}

function decode(token: string): Claims | false {
  const payload = token.split(".")[1];
  if (!payload) return false;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (typeof claims?.sub !== "string" || !claims.sub) return false;
    return {
      sub: claims.sub,
      sid: typeof claims.sid === "string" ? claims.sid : undefined,
      jti: typeof claims.jti === "string" ? claims.jti : undefined,
      iat: typeof claims.iat === "number" ? claims.iat : undefined,
    };
  } catch {
    return false;
  }
}
