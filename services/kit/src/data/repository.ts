import { randomUUID } from "node:crypto";
import type { Model, QueryFilter, UpdateQuery } from "mongoose";

/** A stored document as handlers see it: `_id` as `id`, without mongoose internals or the outbox. */
export type Plain<T> = Omit<T, "_id" | "outbox"> & { id: string };

/** String ids (UUID v4) for every entity: portable across MongoDB and FerretDB, and URL-safe. */
export const idField = { type: String, default: () => randomUUID() } as const;

export function toPlain<T extends { _id: unknown }>(doc: T): Plain<T> {
  const { _id, __v, outbox, ...rest } = doc as T & { __v?: unknown; outbox?: unknown };
  return { ...(rest as Omit<T, "_id" | "outbox">), id: String(_id) };
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  totalPages: number;
}

/**
 * One repository per entity, returning plain objects (`.lean()`), with the tenant (the owning
 * user) enforced in every query so no handler can read across users by mistake.
 */
export class TenantRepository<T extends { _id: string }> {
  constructor(
    protected readonly model: Model<T>,
    protected readonly tenantKey: keyof T & string,
  ) {}

  protected scope(tenantId: string, filter: QueryFilter<T> = {}): QueryFilter<T> {
    return { ...filter, [this.tenantKey]: tenantId } as QueryFilter<T>;
  }

  async findById(tenantId: string, id: string): Promise<Plain<T> | null> {
    return this.findOne(tenantId, { _id: id } as QueryFilter<T>);
  }

  async findOne(tenantId: string, filter: QueryFilter<T>): Promise<Plain<T> | null> {
    const doc = await this.model.findOne(this.scope(tenantId, filter)).lean<T>();
    return doc ? toPlain(doc) : null;
  }

  async list(
    tenantId: string,
    filter: QueryFilter<T>,
    options: { page: number; pageSize: number; sort: Record<string, 1 | -1> },
  ): Promise<Page<Plain<T>>> {
    const scoped = this.scope(tenantId, filter);
    const [docs, total] = await Promise.all([
      this.model
        .find(scoped)
        .sort(options.sort)
        .skip((options.page - 1) * options.pageSize)
        .limit(options.pageSize)
        .lean<T[]>(),
      this.model.countDocuments(scoped),
    ]);
    return {
      items: docs.map((doc) => toPlain(doc)),
      total,
      page: options.page,
      totalPages: Math.max(1, Math.ceil(total / options.pageSize)),
    };
  }

  async count(tenantId: string, filter: QueryFilter<T> = {}): Promise<number> {
    return this.model.countDocuments(this.scope(tenantId, filter));
  }

  async create(doc: Partial<T>): Promise<Plain<T>> {
    const created = await this.model.create(doc);
    return toPlain(created.toObject() as T);
  }

  /**
   * Updates one document of the tenant and returns it as it is after the update, or null.
   * On FerretDB 1.24 concurrent updates of one document are not isolated (last writer wins, and a
   * filter is no compare-and-set): serialise writers (a Redis lock) or model the change as an insert
   * guarded by a unique index.
   */
  async update(tenantId: string, filter: QueryFilter<T>, update: UpdateQuery<T>): Promise<Plain<T> | null> {
    const doc = await this.model
      .findOneAndUpdate(this.scope(tenantId, filter), update, { returnDocument: "after" })
      .lean<T>();
    return doc ? toPlain(doc) : null;
  }

  async delete(tenantId: string, filter: QueryFilter<T>): Promise<boolean> {
    const result = await this.model.deleteOne(this.scope(tenantId, filter));
    return result.deletedCount === 1;
  }
}
