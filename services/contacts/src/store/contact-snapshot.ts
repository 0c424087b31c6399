import { randomUUID } from "node:crypto";
import { deserialize, serialize } from "node:v8";
import type { Logger, Redis } from "@crafter/kit";
import { words } from "../domain/search";
import type { StoredContact } from "./contact-doc";
import type { Scope } from "./scope";

/** Contacts one build call writes to Redis. */
const BATCH = 500;
/** Changes one refresh applies; more, and the snapshot is read whole again. */
const MAX_DELTA = 2_000;
/** Entries kept in a project's change stream (approximately: Redis trims whole nodes). */
const STREAM_LENGTH = 20_000;

/**
 * One contact as the snapshot keeps it, with the `words` its search matches (domain/search.ts
 * `matchesToken`).
 */
export interface SnapshotEntry {
  contact: StoredContact;
  /** The words of the first and last name, company and email (domain/search.ts `words`). */
  words: string[];
}

/** A project's contacts in this process, as of Redis generation `gen` and change `lastId`. */
export interface ProjectSnapshot {
  readonly entries: ReadonlyMap<string, SnapshotEntry>;
  /** Bumped on every change applied here: a key for what is derived from the entries (a sort). */
  readonly version: number;
}

interface Held extends ProjectSnapshot {
  entries: Map<string, SnapshotEntry>;
  version: number;
  gen: string;
  lastId: string;
}

// Sets the contacts whose time is not older than what the hash holds (a tombstone included), and
// logs each changed id in the stream (ARGV[2] = "1"). ARGV: stream length, log flag, then
// (id, ms, value) triples; a value is "<ms>|<payload>", a tombstone "<ms>|".
const PUT = `
local logged = ARGV[2] == "1"
for i = 3, #ARGV, 3 do
  local id, ms, value = ARGV[i], tonumber(ARGV[i + 1]), ARGV[i + 2]
  local current = redis.call("HGET", KEYS[1], id)
  local older = false
  if current then
    local bar = string.find(current, "|", 1, true)
    older = tonumber(string.sub(current, 1, bar - 1)) > ms
  end
  if not older then
    redis.call("HSET", KEYS[1], id, value)
    if logged then redis.call("XADD", KEYS[2], "MAXLEN", "~", ARGV[1], "*", "i", id) end
  end
end
return 1
`;

// After a build: deletes the hash's ids (ARGV[2..]) the build did not read, unless the stream logged
// a write of them after ARGV[1] (the stream's last id when the build began): a contact deleted while
// its Redis half was lost goes, one inserted while the build read goes on.
const PRUNE = `
local written = {}
for _, entry in ipairs(redis.call("XRANGE", KEYS[2], "(" .. ARGV[1], "+")) do written[entry[2][2]] = true end
for i = 2, #ARGV do
  if not written[ARGV[i]] then redis.call("HDEL", KEYS[1], ARGV[i]) end
end
return 1
`;

/**
 * The contacts of a project as a read model, so that search, filters, segments, sorts and exports run
 * in the service over memory instead of FerretDB decoding the project (docs/adr/0002, amendment 2:
 * a 3-condition count over 50,000 contacts took seconds).
 *
 * In Redis, per project: a hash `contacts:facts:<user>:<project>` (contact id → `<updatedOn ms>|<v8
 * serialised contact>`, a deleted one `<ms>|`), a stream `…:changes` of changed ids, and `…:gen`,
 * the id of the last build (absent: not built). Every write of ContactRepository puts the
 * contact as saved; a time older than the hash's never replaces it, so a build racing a write, or
 * two writes out of order, keep the newer.
 *
 * In each process: the projects read last (up to `capacity` contacts in all, least recently used
 * first out), brought up to date on each read by the stream's changes since (one round trip when
 * nothing changed), and read whole again when the generation moved or too many changes passed.
 *
 * A write whose Redis half failed drops the generation: the next read rebuilds the project from the
 * database (one full read, single-flight per process).
 */
export class ContactSnapshots {
  private readonly held = new Map<string, Held>();
  private readonly refreshing = new Map<string, Promise<Held>>();
  private readonly building = new Map<string, Promise<void>>();

  /** `capacity`: contacts held in memory across projects (the largest project read is always held). */
  constructor(
    private readonly redis: Redis,
    private readonly logger: Logger,
    private readonly capacity = 100_000,
  ) {}

  private key(scope: Scope): string {
    return `contacts:facts:${scope.userId}:${scope.projectId}`;
  }

  /** Puts contacts as saved (after a database write). Redis failures are logged and drop the generation. */
  async put(scope: Scope, contacts: readonly StoredContact[]): Promise<void> {
    if (contacts.length === 0) return;
    await this.write(scope, contacts.map(encode), true).catch((err) => this.lost(scope, err));
  }

  /** Marks contacts deleted at `at` (failures as for `put`). */
  async drop(scope: Scope, ids: readonly string[], at = new Date()): Promise<void> {
    if (ids.length === 0) return;
    const ms = at.getTime();
    await this.write(
      scope,
      ids.map((id) => [id, ms, `${ms}|`] as const),
      true,
    ).catch((err) => this.lost(scope, err));
  }

  /** Makes the next read of the project rebuild it from the database (a write's Redis half was lost). */
  async invalidate(scope: Scope): Promise<void> {
    await this.redis.del(`${this.key(scope)}:gen`);
  }

  private write(scope: Scope, triples: ReadonlyArray<readonly [string, number, string | Buffer]>, log: boolean) {
    const key = this.key(scope);
    const args = triples.flatMap(([id, ms, value]) => [id, String(ms), value]);
    return this.redis.eval(PUT, 2, key, `${key}:changes`, String(STREAM_LENGTH), log ? "1" : "0", ...args);
  }

  private async lost(scope: Scope, err: unknown): Promise<void> {
    this.logger.warn({ err, projectId: scope.projectId }, "contact snapshot not updated; rebuilt on the next read");
    await this.invalidate(scope).catch(() => undefined);
  }

  /**
   * The project's contacts, up to date with every write acknowledged before this call.
   * @param source every contact of the project from the database, read only when Redis has no build.
   * @throws Redis errors; the database's, when a build fails.
   */
  async read(scope: Scope, source: () => AsyncIterable<StoredContact>): Promise<ProjectSnapshot> {
    const id = this.key(scope);
    let pending = this.refreshing.get(id);
    if (!pending) {
      pending = this.refresh(scope, source).finally(() => this.refreshing.delete(id));
      this.refreshing.set(id, pending);
    }
    const held = await pending;
    // Most recently used last, so eviction takes the first.
    this.held.delete(id);
    this.held.set(id, held);
    this.evict(id);
    return held;
  }

  private async refresh(scope: Scope, source: () => AsyncIterable<StoredContact>): Promise<Held> {
    const key = this.key(scope);
    const held = this.held.get(key);
    if (held) {
      const [[, gen], [, changes]] = (await this.redis
        .pipeline()
        .get(`${key}:gen`)
        .xrange(`${key}:changes`, `(${held.lastId}`, "+", "COUNT", MAX_DELTA)
        .exec()) as [[null, string | null], [null, Array<[string, string[]]>]];
      if (gen === held.gen && changes.length < MAX_DELTA) {
        if (changes.length > 0) await this.apply(key, held, changes);
        return held;
      }
    }
    return this.load(scope, source);
  }

  private async apply(key: string, held: Held, changes: Array<[string, string[]]>): Promise<void> {
    const ids = [...new Set(changes.map(([, fields]) => fields[1]!))];
    const values = await this.redis.hmgetBuffer(key, ...ids);
    ids.forEach((id, i) => {
      const entry = decode(values[i] ?? null);
      if (entry) held.entries.set(id, entry);
      else held.entries.delete(id);
    });
    held.lastId = changes.at(-1)![0];
    held.version++;
  }

  /** Reads the project whole from Redis, building it from the database first when it has no build. */
  private async load(scope: Scope, source: () => AsyncIterable<StoredContact>): Promise<Held> {
    const key = this.key(scope);
    for (let attempt = 0; ; attempt++) {
      const [[, gen], [, last], [, hash]] = (await this.redis
        .multi()
        .get(`${key}:gen`)
        .xrevrange(`${key}:changes`, "+", "-", "COUNT", 1)
        .hgetallBuffer(key)
        .exec()) as [[null, string | null], [null, Array<[string, string[]]>], [null, Record<string, Buffer>]];
      if (gen === null) {
        if (attempt > 1) throw new Error("the contact snapshot was dropped while it was being built");
        await this.build(scope, source);
        continue;
      }
      const entries = new Map<string, SnapshotEntry>();
      for (const [id, value] of Object.entries(hash)) {
        const entry = decode(value);
        if (entry) entries.set(id, entry);
      }
      const previous = this.held.get(key);
      return { entries, version: (previous?.version ?? 0) + 1, gen, lastId: last[0]?.[0] ?? "0-0" };
    }
  }

  /** One build per project per process; it goes on when the read that started it has given up. */
  private build(scope: Scope, source: () => AsyncIterable<StoredContact>): Promise<void> {
    const key = this.key(scope);
    let build = this.building.get(key);
    if (!build) {
      build = this.buildFrom(scope, source()).finally(() => this.building.delete(key));
      this.building.set(key, build);
    }
    return build;
  }

  private async buildFrom(scope: Scope, source: AsyncIterable<StoredContact>): Promise<void> {
    const key = this.key(scope);
    const started = Date.now();
    const [first] = await this.redis.xrevrange(`${key}:changes`, "+", "-", "COUNT", 1);
    const seen = new Set<string>();
    let batch: Array<readonly [string, number, Buffer]> = [];
    for await (const contact of source) {
      batch.push(encode(contact));
      seen.add(contact._id);
      if (batch.length >= BATCH) {
        await this.write(scope, batch, false);
        batch = [];
      }
    }
    if (batch.length > 0) await this.write(scope, batch, false);
    // What the hash holds that the database did not have: deletions whose Redis half was lost, old tombstones.
    const stale = (await this.redis.hkeys(key)).filter((id) => !seen.has(id));
    for (let at = 0; at < stale.length; at += BATCH) {
      await this.redis.eval(PRUNE, 2, key, `${key}:changes`, first?.[0] ?? "0-0", ...stale.slice(at, at + BATCH));
    }
    // Unique, not a counter: a counter would start again at 1 after a lost write deleted it, and a
    // replica holding generation 1 would take the rebuilt project for the one it has.
    await this.redis.set(`${key}:gen`, randomUUID());
    this.logger.info(
      { projectId: scope.projectId, count: seen.size, pruned: stale.length, ms: Date.now() - started },
      "contact snapshot built",
    );
  }

  private evict(keep: string): void {
    let total = 0;
    for (const held of this.held.values()) total += held.entries.size;
    for (const [key, held] of this.held) {
      if (total <= this.capacity) break;
      if (key === keep) continue;
      this.held.delete(key);
      total -= held.entries.size;
    }
  }
}

/** `[id, updatedOn ms, "<ms>|" + v8(contact without outbox)]`; search tokens some old documents still carry are left out. */
function encode(contact: StoredContact): readonly [string, number, Buffer] {
  const {
    searchTokens: _tokens,
    outbox: _outbox,
    outboxMinute: _minute,
    ...kept
  } = contact as StoredContact & {
    outbox?: unknown;
    searchTokens?: unknown;
  };
  const ms = new Date(contact.updatedOn).getTime();
  return [contact._id, ms, Buffer.concat([Buffer.from(`${ms}|`), serialize(kept)])];
}

/** The entry of a hash value; null for a tombstone or nothing. */
function decode(value: Buffer | null): SnapshotEntry | null {
  if (!value) return null;
  const bar = value.indexOf(0x7c); // "|"
  if (bar < 0 || bar === value.length - 1) return null;
  const contact = deserialize(value.subarray(bar + 1)) as StoredContact;
  return {
    contact,
    words: [contact.firstName, contact.lastName, contact.company, contact.email].flatMap((text) => words(text ?? "")),
  };
}
