import { describe, expect, it } from "@jest/globals";
import { ago, badgeCount } from "./inbox-logic";

describe("the bell", () => {
  it("counts unread notifications on the badge", () => {
    expect(badgeCount(0)).toBe("");
    expect(badgeCount(3)).toBe("3");
    expect(badgeCount(120)).toBe("99+");
  });

  it("says how old a notification is", () => {
    const now = Date.parse("2026-11-22T12:00:00Z");
    expect(ago("2026-11-22T11:59:30Z", now)).toBe("just now");
    expect(ago("2026-11-22T11:55:00Z", now)).toBe("5 min ago");
    expect(ago("2026-11-22T09:00:00Z", now)).toBe("3 h ago");
    expect(ago("2026-11-20T12:00:00Z", now)).toBe("2 d ago");
  });
});
