import { type OutboxEntry, outboxMinuteOf, type Plain, TenantRepository } from "@crafter/kit";
import type { Model, QueryFilter, UpdateQuery } from "mongoose";
import { contentName, searchTokens } from "../domain/craft-index";
import type { CraftProgress, TokenUsage } from "../domain/types";
import type { CraftDoc } from "./craft.schema";

export type StoredCraft = Plain<CraftDoc>;

/** What saveProgress needs of the craft besides its revision: its id and the name it was given. */
export type NamedCraft = Pick<StoredCraft, "id" | "craftName" | "nameFromUser">;

/** Search tokens of a craft named `craftName` (its user's or creation name) with these steps. */
export function indexFields(
  craft: Pick<StoredCraft, "craftName" | "nameFromUser">,
  steps: CraftProgress["steps"],
): { contentName: string; searchTokens: string[] } {
  const named = contentName(steps);
  const names = craft.nameFromUser ? [craft.craftName] : [named || craft.craftName];
  return { contentName: named, searchTokens: searchTokens(names, steps) };
}

export interface ProgressChange {
  progress: CraftProgress;
  events?: OutboxEntry[];
  /** Tokens of a generation to add to the craft's usage. */
  usage?: TokenUsage;
  completedAt?: Date | null;
}

/** The crafts of each user (tenant = userId); a deleted craft is in no read or write. */
export class CraftRepository extends TenantRepository<CraftDoc> {
  constructor(model: Model<CraftDoc>) {
    super(model, "userId");
  }

  protected override scope(tenantId: string, filter: QueryFilter<CraftDoc> = {}): QueryFilter<CraftDoc> {
    // `null` also matches crafts stored before the field existed.
    return super.scope(tenantId, { deletedAt: null, ...filter } as QueryFilter<CraftDoc>);
  }

  async setFavorite(userId: string, id: string, favorite: boolean): Promise<StoredCraft | null> {
    return this.update(userId, { _id: id } as QueryFilter<CraftDoc>, { $set: { favorite } });
  }

  /** Ids of the user's (undeleted) crafts of a project. */
  async idsOfProject(userId: string, projectId: string): Promise<string[]> {
    const docs = await this.model
      .find(this.scope(userId, { projectId } as QueryFilter<CraftDoc>), { _id: 1 })
      .lean<{ _id: string }[]>();
    return docs.map((doc) => doc._id);
  }

  /** Marks every (undeleted) craft of a project deleted. @returns how many were. */
  async softDeleteProject(userId: string, projectId: string, at: Date): Promise<number> {
    const result = await this.model.updateMany(this.scope(userId, { projectId } as QueryFilter<CraftDoc>), {
      $set: { deletedAt: at },
    });
    return result.modifiedCount;
  }

  /** Marks the craft deleted. @returns false when there is no such (undeleted) craft of the user. */
  async softDelete(userId: string, id: string, at: Date): Promise<boolean> {
    return (await this.update(userId, { _id: id } as QueryFilter<CraftDoc>, { $set: { deletedAt: at } })) !== null;
  }

  /**
   * Writes new progress if the craft is still at revision `rev` (compare-and-set), together with
   * its events (outbox) and usage, in one document update; the name from its content and its search
   * tokens follow the new steps.
   * @returns the craft after the update, or null when it changed meanwhile (or is not the user's).
   */
  async saveProgress(
    userId: string,
    craft: NamedCraft,
    rev: number,
    change: ProgressChange,
  ): Promise<StoredCraft | null> {
    const { progress } = change;
    const id = craft.id;
    const update: UpdateQuery<CraftDoc> = {
      $set: {
        ...indexFields(craft, progress.steps),
        steps: progress.steps,
        state: progress.state,
        currentStep: progress.currentStep,
        ...(change.completedAt !== undefined ? { completedAt: change.completedAt } : {}),
      },
      $inc: {
        rev: 1,
        ...(change.usage
          ? {
              "usage.inputTokens": change.usage.inputTokens,
              "usage.outputTokens": change.usage.outputTokens,
              "usage.generations": 1,
            }
          : {}),
      },
    };
    if (change.events?.length) {
      update.$push = { outbox: { $each: change.events } };
      // The relay polls recent outboxes by this indexed minute (kit events/outbox.ts).
      (update.$set as Record<string, unknown>).outboxMinute = outboxMinuteOf(change.events.at(-1)!.time);
    }
    return this.update(userId, { _id: id, rev } as QueryFilter<CraftDoc>, update);
  }

  /** The user's name: the content no longer names the craft. */
  async rename(userId: string, id: string, craftName: string): Promise<StoredCraft | null> {
    const craft = await this.findById(userId, id);
    if (!craft) return null;
    const { searchTokens } = indexFields({ craftName, nameFromUser: true }, craft.steps);
    return this.update(userId, { _id: id } as QueryFilter<CraftDoc>, {
      $set: { craftName, nameFromUser: true, searchTokens },
    });
  }
}
