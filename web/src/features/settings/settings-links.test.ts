import { describe, expect, it } from "@jest/globals";
import { menuEntries } from "../../routing/access";
import { SETTINGS_ROUTES } from "./routes";

const flags = { enabledFeatures: ["first_promoter"], disabledFeatures: [] };
const shown = (role: string, projectRole: string | null | undefined) =>
  menuEntries(SETTINGS_ROUTES, "settings", { role, flags, projectRole }).map((link) => link.to);

describe("the Settings page's links", () => {
  it("lists the sub-pages in the table's order", () => {
    expect(shown("admin", "owner")).toEqual([
      "/app/settings/account-info",
      "/app/settings/change-password",
      "/app/settings/linked-devices",
      "/app/settings/integrations",
      "/app/settings/profile",
      "/app/settings/ai",
      "/app/settings/sender",
      "/app/settings/referrals",
    ]);
  });

  it("shows Sender to the project's owner and project admins, as the gateway lets them in", () => {
    expect(shown("owner", "owner")).toContain("/app/settings/sender");
    expect(shown("owner", "projectAdmin")).toContain("/app/settings/sender");
  });

  it("hides Sender from a manager, whom the gateway refuses, and while the role loads", () => {
    expect(shown("owner", "manager")).not.toContain("/app/settings/sender");
    expect(shown("owner", undefined)).not.toContain("/app/settings/sender");
    // The other links do not depend on the project role.
    expect(shown("owner", "manager")).toContain("/app/settings/profile");
  });

  it("hides Referrals without its flag", () => {
    const links = menuEntries(SETTINGS_ROUTES, "settings", { role: "owner", flags: null, projectRole: "owner" });
    expect(links.map((link) => link.to)).not.toContain("/app/settings/referrals");
  });
});
