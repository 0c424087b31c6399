import { randomUUID } from "node:crypto";
import { throwawayDatabase } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { createStores, type ProjectsStores } from "../src/store";

// Against the real MongoDB-compatible server of scripts/infra (FerretDB 1.24 locally), in a
// throwaway database. These pin the concurrency guarantees the repositories rely on.
// Creating the collections and their indexes takes seconds on a loaded machine (FerretDB on PostgreSQL).
jest.setTimeout(60_000);

let database: Awaited<ReturnType<typeof throwawayDatabase>>;
let stores: ProjectsStores;

beforeAll(async () => {
  database = await throwawayDatabase("projects");
  stores = await createStores(database.connection);
});

afterAll(async () => {
  await database?.drop();
});

describe("active project pointer", () => {
  it("is set by exactly one of concurrent first projects", async () => {
    const userId = randomUUID();
    const outcomes = await Promise.all(["a", "b", "c", "d"].map((id) => stores.active.setIfNone(userId, id)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const current = await stores.active.current(userId);
    expect(current?.version).toBe(1);
    expect(["a", "b", "c", "d"][outcomes.indexOf(true)]).toBe(current?.projectId);
  });

  it("lets exactly one of concurrent switches from the same version win", async () => {
    const userId = randomUUID();
    await stores.active.setIfNone(userId, "p0");
    const targets = Array.from({ length: 10 }, (_, i) => `p${i + 1}`);
    const outcomes = await Promise.all(targets.map((target) => stores.active.switch(userId, 1, target)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await stores.active.current(userId)).toEqual({ version: 2, projectId: targets[outcomes.indexOf(true)] });
    expect(await stores.active.switch(userId, 1, "late")).toBe(false);
    expect(await stores.active.switch(userId, 2, "next")).toBe(true);
    expect(await stores.active.current(userId)).toEqual({ version: 3, projectId: "next" });
  });

  it("is per user", async () => {
    expect(await stores.active.current(randomUUID())).toBeNull();
  });
});

describe("project crafts", () => {
  it("counts each craft once, per project and user", async () => {
    const userId = randomUUID();
    const craft = { craftId: randomUUID(), userId, projectId: "p1", workflowName: "BlogWriter" };
    const outcomes = await Promise.all([stores.crafts.record(craft), stores.crafts.record(craft)]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    await stores.crafts.record({ ...craft, craftId: randomUUID() });
    expect(await stores.crafts.countFor(userId, "p1")).toBe(2);
    expect(await stores.crafts.countFor(randomUUID(), "p1")).toBe(0);
  });
});

describe("projects", () => {
  it("lists a user's projects oldest first and finds the latest", async () => {
    const userId = randomUUID();
    const event = { id: randomUUID(), topic: "t", key: "k", type: "x", payload: Buffer.from([1]), time: new Date() };
    const first = await stores.projects.createWithEvent(
      { _id: randomUUID(), userId, title: "One", profileId: "f1" },
      event,
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await stores.projects.createWithEvent(
      { _id: randomUUID(), userId, title: "Two", profileId: "f2" },
      { ...event, id: randomUUID() },
    );
    expect((await stores.projects.listForUser(userId)).map((project) => project.id)).toEqual([first.id, second.id]);
    expect((await stores.projects.latest(userId))?.id).toBe(second.id);
    expect(await stores.projects.get(randomUUID(), first.id)).toBeNull();
    expect(first).not.toHaveProperty("outbox");
  });
});
