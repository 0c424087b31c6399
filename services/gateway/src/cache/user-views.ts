import { bumpViewVersion, type Logger, type Redis, viewVersion } from "@crafter/kit";
import type { Request, RequestHandler } from "express";
import { unverifiedClaims } from "../http/read-ahead";
import { accessTokenFrom } from "../http/session";

/** What a loader returns: the view, and until when it stays right by itself (credits expire). */
export interface Loaded<T> {
  value: T;
  /** When the view changes without any write (a grant expiring); undefined = only by writes. */
  validUntil?: Date;
}

interface Entry {
  version: string;
  value: unknown;
  until: number;
}

/**
 * The views the gateway assembles per user (`/api/user/account`, `/api/app/initial`), kept in this
 * process and keyed by the user's view version in Redis (kit redis/view-version.ts).
 *
 * Every write that changes a view bumps the version before it answers: billing after each ledger
 * entry (so credits are right right after a debit, by whatever path it came), and this gateway
 * after each state-changing request of the user (`bumpViewsOnWrite`). A view is stored under the
 * version read *before* it was fetched, so one fetched while a write ran is never served after the
 * write answered. Each read costs one Redis read (for the routes of http/read-ahead.ts, the same
 * MGET that checks the denylist); a miss costs what the route cost before. Changes nobody bumps
 * for (an operator's global flag, a role changed by an event) show within `ttlMs`.
 * Without Redis nothing is cached.
 */
export class UserViewCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<Loaded<unknown>>>();

  constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
    private readonly options: { ttlMs: number; maxEntries: number } = { ttlMs: 10_000, maxEntries: 20_000 },
  ) {}

  /**
   * The user's view `part`, from this process when its version is current, else from `load`.
   * @param req the request, whose version http/read-ahead.ts may have started reading.
   */
  async get<T>(userId: string, part: string, load: () => Promise<Loaded<T>>, req?: Request): Promise<T> {
    let version: string;
    try {
      const early = req?.readAhead;
      version = early && early.userId === userId ? await early.version : await viewVersion(this.redis, userId);
    } catch (error) {
      this.logger.warn({ err: error }, "view version unreadable; not caching");
      return (await load()).value;
    }
    const key = `${userId}\u0000${part}`;
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.version === version && now < hit.until) return hit.value as T;
    // Concurrent misses of one view and version share one load (a burst of reads after a write).
    const flightKey = `${key}\u0000${version}`;
    let flight = this.loading.get(flightKey) as Promise<Loaded<T>> | undefined;
    if (!flight) {
      flight = load();
      this.loading.set(flightKey, flight);
      void flight.then(
        () => this.loading.delete(flightKey),
        () => this.loading.delete(flightKey),
      );
    }
    const loaded = await flight;
    if (version) {
      const until = Math.min(now + this.options.ttlMs, loaded.validUntil?.getTime() ?? Number.POSITIVE_INFINITY);
      this.entries.delete(key);
      this.entries.set(key, { version, value: loaded.value, until });
      // Oldest first (a Map keeps insertion order): drop the oldest when full.
      if (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    }
    return loaded.value;
  }
}

/**
 * Bumps the caller's view version when a state-changing request (not GET/HEAD/OPTIONS) ends,
 * before its last byte goes out, so the client's next read cannot get a view from before it.
 */
export function bumpViewsOnWrite(redis: Redis, logger: Logger): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
    res.end = ((...args: unknown[]) => {
      // The user the handlers authenticated (any credential), else the session token's subject.
      const userId =
        req.user?.userId || unverifiedClaims(accessTokenFrom(req.headers.authorization, req.headers.cookie))?.sub;
      if (!userId) return end(...args);
      bumpViewVersion(redis, userId)
        .catch((error) => logger.warn({ err: error, userId }, "view version not bumped"))
        .finally(() => end(...args));
      return res;
    }) as typeof res.end;
    next();
  };
}
