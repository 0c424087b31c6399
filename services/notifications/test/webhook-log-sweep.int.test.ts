import { throwawayDatabase } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { Connection } from "mongoose";
import { dayOf } from "../src/domain/webhooks";
import { createWebhookRepository, type WebhookRepository } from "../src/store/webhook.repository";
import { sweepWebhookLog } from "../src/usecases/webhooks";

// The webhook log's sweep on the real MongoDB-compatible server: whole days past the days kept go,
// events, deliveries and attempts alike; the days kept stay.
let db: { connection: Connection; drop(): Promise<void> };
let store: WebhookRepository;

beforeAll(async () => {
  db = await throwawayDatabase("webhook_sweep");
  store = await createWebhookRepository(db.connection);
});

afterAll(() => db?.drop());

describe("the webhook log sweep", () => {
  it("removes the events, deliveries and attempts older than the days kept", async () => {
    const now = new Date("2026-11-28T05:00:00Z");
    const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000);
    for (const [id, at] of [
      ["old", daysAgo(31)],
      ["kept", daysAgo(29)],
    ] as const) {
      const day = dayOf(at);
      await store.recordEvent({
        _id: `msg_${id}`,
        projectId: "p1",
        type: "lead.captured",
        payload: "{}",
        createdAt: at,
        day,
      });
      await store.addDelivery({
        _id: `wd_${id}`,
        endpointId: "we_1",
        projectId: "p1",
        messageId: `msg_${id}`,
        eventType: "lead.captured",
        payload: "{}",
        createdAt: at,
        day,
      });
      await store.addAttempt({
        _id: `wd_${id}-a1`,
        deliveryId: `wd_${id}`,
        endpointId: "we_1",
        at,
        ok: true,
        responseCode: 200,
        error: "",
        final: false,
        manual: false,
        day,
      });
    }
    expect(await sweepWebhookLog({ store, now: () => now }, 30)).toBe(3);
    expect(await store.recentEvents("p1", "lead.captured", 10)).toEqual([expect.objectContaining({ _id: "msg_kept" })]);
    expect(await store.delivery("wd_old")).toBeNull();
    expect(await store.delivery("wd_kept")).not.toBeNull();
    expect(await store.attemptsOf("wd_old")).toEqual([]);
    expect(await store.attemptsOf("wd_kept")).toHaveLength(1);
    expect(await sweepWebhookLog({ store, now: () => now }, 30)).toBe(0);
  });
});
