import { describe, expect, it } from "@jest/globals";
import { upgradeView } from "./upgrade";

describe("the upgrade modal's scenarios", () => {
  it("NEED_SUBSCRIPTION is FREE_USER_LIMIT with the spec's title, suggesting Core", () => {
    expect(upgradeView("NEED_SUBSCRIPTION")).toMatchObject({
      scenario: "FREE_USER_LIMIT",
      suggests: "core",
      title: "Keep Crafting Uninterrupted!",
      okText: "Upgrade now",
      href: "/app/settings/subscription?source=upgrade_modal&plan=core",
    });
  });

  it("FREE_USER_LIMIT suggests Core", () => {
    expect(upgradeView("FREE_USER_LIMIT")).toMatchObject({
      suggests: "core",
      href: expect.stringContaining("plan=core"),
    });
  });

  it.each(["CORE_CONTACTS_LIMIT", "CORE_EMAILS_LIMIT", "CORE_AI_IMAGES_LIMIT", "CORE_VOICE_MINUTES_LIMIT"])(
    "%s suggests Pro",
    (code) => {
      const view = upgradeView(code);
      expect(view).toMatchObject({ scenario: code, suggests: "pro", href: expect.stringContaining("plan=pro") });
      expect(view?.message).not.toBe("");
    },
  );

  it("a Pro limit and other codes open no upgrade modal", () => {
    expect(upgradeView("PLAN_LIMIT_REACHED")).toBeNull();
    expect(upgradeView("NOT_ENOUGH_CREDITS")).toBeNull();
    expect(upgradeView(null)).toBeNull();
  });
});
