import { describe, expect, it } from "@jest/globals";
import { ASK_INTERVAL_MS, askId, askWindow, countConsent, recentlyAsked } from "../src/domain/consent";

describe("consent counts", () => {
  it("counts contacts by consent, an unknown status as pending", () => {
    expect(
      countConsent([
        { consent: "subscribed" },
        { consent: "pending" },
        { consent: "unsubscribed" },
        { consent: "bounced" },
        { consent: "complained" },
        { consent: "subscribed" },
        {},
      ]),
    ).toEqual({ total: 7, subscribed: 2, pending: 2, unsubscribed: 1, bounced: 1, complained: 1 });
  });
});

describe("asking for permission at most once per 30 days", () => {
  const day = 24 * 3600 * 1000;
  const start = new Date(askWindow(new Date("2026-11-27T12:00:00Z")) * ASK_INTERVAL_MS);

  it("keys an ask by contact and 30-day window", () => {
    expect(askWindow(start)).toBe(askWindow(new Date(start.getTime() + ASK_INTERVAL_MS - 1)));
    expect(askWindow(new Date(start.getTime() + ASK_INTERVAL_MS))).toBe(askWindow(start) + 1);
    expect(askId("c1", askWindow(start))).toBe(`c1:${askWindow(start)}`);
  });

  it("finds who was asked within the last 30 days, across the window boundary", () => {
    const now = new Date(start.getTime() + 2 * day);
    const asks = [
      { contactId: "late-previous-window", at: new Date(start.getTime() - day) },
      { contactId: "early-previous-window", at: new Date(start.getTime() - 29 * day) },
      { contactId: "this-window", at: new Date(start.getTime() + day) },
    ];
    expect([...recentlyAsked(asks, now)].sort()).toEqual(["late-previous-window", "this-window"]);
    // 30 days after an ask, the contact may be asked again.
    expect(recentlyAsked([{ contactId: "a", at: new Date(now.getTime() - ASK_INTERVAL_MS) }], now).size).toBe(0);
  });
});
