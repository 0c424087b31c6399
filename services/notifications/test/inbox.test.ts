import { describe, expect, it } from "@jest/globals";
import { cleanNotification, notificationIdOf, pageOf, totalPages } from "../src/domain/inbox";

describe("inbox rules", () => {
  it("gives one id per user and key, and different ids to another user or key", () => {
    expect(notificationIdOf("u1", "k")).toBe(notificationIdOf("u1", "k"));
    expect(notificationIdOf("u1", "k")).not.toBe(notificationIdOf("u2", "k"));
    expect(notificationIdOf("u1", "k")).not.toBe(notificationIdOf("u1", "k2"));
    // The separator keeps ("ab","c") and ("a","bc") apart.
    expect(notificationIdOf("ab", "c")).not.toBe(notificationIdOf("a", "bc"));
    expect(notificationIdOf("u", "k")).toMatch(/^[0-9a-f]{32}$/);
  });

  it("keeps app paths as links and drops other origins", () => {
    const base = { level: "info", title: "T", body: "", key: "k" };
    const link = (l: string) => {
      const r = cleanNotification({ ...base, link: l });
      return r.ok ? r.text.link : null;
    };
    expect(link("/app/calendar?date=2026-11-22")).toBe("/app/calendar?date=2026-11-22");
    expect(link("https://evil.example/x")).toBe("");
    expect(link("//evil.example/x")).toBe("");
    expect(link("javascript:alert(1)")).toBe("");
  });

  it("refuses an unknown level, an empty title or key, and trims the text to its limits", () => {
    expect(cleanNotification({ level: "fatal", title: "T", body: "", key: "k" })).toEqual({
      ok: false,
      error: "level is one of info, warning, success, error",
    });
    expect(cleanNotification({ level: "info", title: "  ", body: "", key: "k" }).ok).toBe(false);
    expect(cleanNotification({ level: "info", title: "T", body: "", key: "" }).ok).toBe(false);
    const long = cleanNotification({ level: "error", title: "x".repeat(500), body: " b ", key: "k" });
    expect(long.ok && long.text.title.length).toBe(200);
    expect(long.ok && long.text.body).toBe("b");
  });

  it("pages from 1 with 20 by default and at most 100", () => {
    expect(pageOf(0, 0)).toEqual({ page: 1, pageSize: 20, skip: 0 });
    expect(pageOf(3, 500)).toEqual({ page: 3, pageSize: 100, skip: 200 });
    expect(totalPages(0, 20)).toBe(0);
    expect(totalPages(41, 20)).toBe(3);
  });
});
