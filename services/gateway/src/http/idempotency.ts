import { createHash } from "node:crypto";
import { appError, type Redis } from "@crafter/kit";
import type { Response } from "express";

/** How long a finished answer is replayed, in seconds. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** How long a request in flight holds its key (a crashed gateway frees it after this), in seconds. */
const PENDING_TTL_SECONDS = 5 * 60;

interface Stored {
  state: "pending" | "done";
  hash: string;
  status?: number;
  result?: unknown;
}

export interface IdempotentCall {
  userId: string;
  /** `method path-template`, so one key on two routes names two requests. */
  route: string;
  key: string;
  body: unknown;
}

export interface Answer {
  status: number;
  result: unknown;
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same body. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Idempotency-Key (IETF draft-ietf-httpapi-idempotency-key-header) in Redis, per user and route:
 * the first request runs and its success is stored for 24 hours; the same key with the same body
 * replays it (header `Idempotent-Replayed: true`); with another body → 422 IDEMPOTENCY_KEY_REUSED;
 * while the first still runs → 409 CONFLICT. A failed request frees its key, so it can be retried.
 */
export class Idempotency {
  constructor(private readonly redis: Redis) {}

  async run(call: IdempotentCall, execute: () => Promise<Answer>, res: Response): Promise<Answer> {
    const key = `idempotency:${call.userId}:${sha256(call.route)}:${sha256(call.key)}`;
    const hash = sha256(canonicalJson(call.body));
    const pending: Stored = { state: "pending", hash };
    const claimed = await this.redis.set(key, JSON.stringify(pending), "EX", PENDING_TTL_SECONDS, "NX");
    if (claimed !== "OK") {
      const stored = JSON.parse((await this.redis.get(key)) ?? "null") as Stored | null;
      if (!stored) return this.run(call, execute, res); // expired between SET and GET
      if (stored.hash !== hash) throw appError("IDEMPOTENCY_KEY_REUSED");
      if (stored.state === "pending") {
        throw appError("CONFLICT", "A request with this Idempotency-Key is still being processed.");
      }
      res.setHeader("idempotent-replayed", "true");
      return { status: stored.status ?? 200, result: stored.result ?? null };
    }
    let answer: Answer;
    try {
      answer = await execute();
    } catch (error) {
      await this.redis.del(key).catch(() => undefined);
      throw error;
    }
    const done: Stored = { state: "done", hash, status: answer.status, result: answer.result };
    await this.redis.set(key, JSON.stringify(done), "EX", IDEMPOTENCY_TTL_SECONDS);
    return answer;
  }
}
