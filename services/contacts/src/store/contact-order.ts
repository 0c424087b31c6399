import type { Logger, Redis } from "@crafter/kit";
import type { Scope } from "./scope";

/** How many members one ZADD of a rebuild carries. */
const BATCH = 1000;

/**
 * The customer profile table's default order (updated_on) per project: a Redis sorted set, score =
 * `updatedOn` in ms, member = the contact's id. FerretDB sorts and pages in Go after reading every
 * contact of the project (docs/adr/0002): 50,000 contacts took seconds a page. Here a page is one
 * ZRANGE and a read by `_id` per row, and the count is ZCARD.
 *
 * Built from the database on a project's first page (`built` marker key), then kept by every write
 * (ContactRepository). Scores only move forward (ZADD GT), so a rebuild racing a write never puts an
 * older time back. An id whose contact is gone (a write lost between the database and Redis) is
 * dropped when a page meets it (`forget`).
 */
export class ContactOrder {
  constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
  ) {}

  private key(scope: Scope): string {
    return `contacts:order:${scope.userId}:${scope.projectId}`;
  }

  /**
   * Puts contacts at their `updatedOn` (ms). After a database write: a Redis failure is logged, not
   * thrown (the write is done; a retry would only meet a duplicate), and drops the built marker so
   * the next page rebuilds the order.
   */
  async touch(scope: Scope, entries: ReadonlyArray<{ id: string; updatedOn: Date }>): Promise<void> {
    if (entries.length === 0) return;
    const args = entries.flatMap((e) => [new Date(e.updatedOn).getTime(), e.id]);
    await this.redis.zadd(this.key(scope), "GT", ...args).catch((err) => this.lost(scope, err));
  }

  /** Takes contacts out of the order (failures as for `touch`). */
  async forget(scope: Scope, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.redis.zrem(this.key(scope), ...ids).catch((err) => this.lost(scope, err));
  }

  private async lost(scope: Scope, err: unknown): Promise<void> {
    this.logger.warn({ err, projectId: scope.projectId }, "contact order not updated; it is rebuilt on the next page");
    await this.redis.del(`${this.key(scope)}:built`).catch(() => undefined);
  }

  /** Whether the project's order has been built from the database. */
  async built(scope: Scope): Promise<boolean> {
    return (await this.redis.exists(`${this.key(scope)}:built`)) === 1;
  }

  /**
   * Builds the project's order from `source` (every contact of the project, in any order), then
   * marks it built. Writes meanwhile are kept: scores only move forward.
   */
  async build(scope: Scope, source: AsyncIterable<{ _id: string; updatedOn: Date }>): Promise<void> {
    const key = this.key(scope);
    let args: (string | number)[] = [];
    for await (const doc of source) {
      args.push(new Date(doc.updatedOn).getTime(), doc._id);
      if (args.length >= 2 * BATCH) {
        await this.redis.zadd(key, "GT", ...args);
        args = [];
      }
    }
    if (args.length > 0) await this.redis.zadd(key, "GT", ...args);
    await this.redis.set(`${key}:built`, "1");
  }

  /**
   * One page of contact ids, newest first when `descending`, ties by id.
   * @param offset rows to skip; @param size rows to return.
   * @returns the ids and the project's number of contacts.
   */
  async page(
    scope: Scope,
    offset: number,
    size: number,
    descending: boolean,
  ): Promise<{ ids: string[]; count: number }> {
    const key = this.key(scope);
    const last = offset + size - 1;
    const [ids, count] = await Promise.all([
      descending ? this.redis.zrevrange(key, offset, last) : this.redis.zrange(key, String(offset), String(last)),
      this.redis.zcard(key),
    ]);
    return { ids, count };
  }
}
