// The craft repository on the real FerretDB: token usage sums per craft, favorites, and soft
// deletes that leave every read (crafts stored before the fields existed included).
import { randomUUID } from "node:crypto";
import { throwawayDatabase } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startCraft } from "../src/domain/craft";
import { CraftRepository } from "../src/store/craft.repository";
import { craftModel } from "../src/store/craft.schema";
import { blogWriter, profile } from "./fixtures";

let db: Awaited<ReturnType<typeof throwawayDatabase>>;
let crafts: CraftRepository;
let model: ReturnType<typeof craftModel>;

beforeAll(async () => {
  db = await throwawayDatabase("craft_store");
  model = craftModel(db.connection);
  await model.init();
  crafts = new CraftRepository(model);
});
afterAll(() => db.drop());

async function newCraft(userId: string) {
  return crafts.create({
    _id: randomUUID(),
    userId,
    workflowName: "BlogWriter",
    workflowVersion: 1,
    craftName: "Usage",
    ...startCraft(blogWriter, profile, new Date()),
    profile,
  });
}

describe("the craft store", () => {
  it("sums the token usage of every generation into the craft", async () => {
    const craft = await newCraft("u1");
    expect(craft.usage).toEqual({ inputTokens: 0, outputTokens: 0, generations: 0 });
    const once = await crafts.saveProgress("u1", craft, craft.rev, {
      progress: craft,
      usage: { inputTokens: 42, outputTokens: 17 },
    });
    const twice = await crafts.saveProgress("u1", craft, once!.rev, {
      progress: once!,
      usage: { inputTokens: 8, outputTokens: 3 },
    });
    expect(twice!.usage).toEqual({ inputTokens: 50, outputTokens: 20, generations: 2 });
    expect((await crafts.findById("u1", craft.id))!.usage).toEqual({
      inputTokens: 50,
      outputTokens: 20,
      generations: 2,
    });
  });

  it("stars a craft and lists favorites only when asked", async () => {
    const a = await newCraft("u2");
    const b = await newCraft("u2");
    expect((await crafts.setFavorite("u2", a.id, true))!.favorite).toBe(true);
    const favorites = await crafts.list("u2", { favorite: true }, { page: 1, pageSize: 10, sort: { createdAt: -1 } });
    expect(favorites.items.map((craft) => craft.id)).toEqual([a.id]);
    expect((await crafts.list("u2", {}, { page: 1, pageSize: 10, sort: { createdAt: -1 } })).total).toBe(2);
    expect(await crafts.setFavorite("someone-else", b.id, true)).toBeNull();
  });

  it("leaves a deleted craft out of reads and writes, including crafts without the field", async () => {
    const craft = await newCraft("u3");
    // A craft stored before deletedAt existed.
    const legacy = await newCraft("u3");
    await model.collection.updateOne({ _id: legacy.id } as never, { $unset: { deletedAt: "", favorite: "" } });
    expect((await crafts.findById("u3", legacy.id))?.id).toBe(legacy.id);

    expect(await crafts.softDelete("u3", craft.id, new Date())).toBe(true);
    expect(await crafts.findById("u3", craft.id)).toBeNull();
    expect(await crafts.softDelete("u3", craft.id, new Date())).toBe(false);
    expect(await crafts.rename("u3", craft.id, "back?")).toBeNull();
    const listed = await crafts.list("u3", {}, { page: 1, pageSize: 10, sort: { createdAt: -1 } });
    expect(listed.items.map((item) => item.id)).toEqual([legacy.id]);
    // Still stored, so its outbox can relay.
    expect(await model.collection.countDocuments({ _id: craft.id } as never)).toBe(1);
  });
});
