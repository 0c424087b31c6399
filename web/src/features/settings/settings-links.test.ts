import { describe, expect, it } from "@jest/globals";
import { SETTINGS_LINKS, visibleSettingsLinks } from "./routes";

const shown = (accountRole: string, projectRole: string | undefined) =>
  visibleSettingsLinks(SETTINGS_LINKS, { flagAllows: () => true, accountRole, projectRole }).map((link) => link.to);

describe("the Settings page's links", () => {
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
});
