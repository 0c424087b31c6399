import { throwawayDatabase } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { createEmailRepository, type EmailRepository } from "../src/store/email.repository";

// The grouped fact writes of campaign rounds (one unordered insert per flush) against the real
// MongoDB-compatible server, in a throwaway database: the unique fact ids still decide who wins.
let database: Awaited<ReturnType<typeof throwawayDatabase>>;
let repo: EmailRepository;

beforeAll(async () => {
  database = await throwawayDatabase("email_facts");
  repo = await createEmailRepository(database.connection);
});

afterAll(async () => {
  await database?.drop();
});

describe("addFactSoon", () => {
  it("records each fact once however many callers race for it, and answers each caller for its own fact", async () => {
    const at = new Date();
    const attempt = (n: number) => ({ deliveryId: `d${n}`, campaignId: "c1", kind: "attempt" as const, suffix: "1" });
    // Recorded before, one by one: the grouped write must not take it again.
    expect(await repo.addFact(attempt(0), at)).toBe(true);
    // 10 deliveries, three workers each claiming every one at once.
    const results = await Promise.all(
      [0, 1, 2].flatMap(() =>
        Array.from({ length: 10 }, (_, n) => repo.addFactSoon(attempt(n), at).then((won) => ({ n, won }))),
      ),
    );
    for (let n = 0; n < 10; n++) {
      const wins = results.filter((r) => r.n === n && r.won).length;
      expect(wins).toBe(n === 0 ? 0 : 1);
    }
    const facts = await repo.campaignFacts("c1", ["attempt"]);
    expect(facts.map((f) => f._id).sort()).toEqual(Array.from({ length: 10 }, (_, n) => `d${n}:attempt:1`).sort());
  });
});
