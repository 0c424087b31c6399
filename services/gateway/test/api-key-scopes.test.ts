import { API_KEY_SCOPE_NAMES } from "@crafter/kit";
import { describe, expect, it } from "@jest/globals";
import { requiredScope } from "../src/http/api-key-scopes";

describe("the scope a personal API key needs", () => {
  it.each([
    ["GET", "/api/user/account", "read"],
    ["GET", "/api/workflowsV2", "read"],
    ["HEAD", "/api/projects", "read"],
    ["POST", "/api/workflowsV2", "crafts"],
    ["PUT", "/api/workflowsV2/abc/step/complete", "crafts"],
    ["DELETE", "/api/workflowsV2/abc", "crafts"],
    ["POST", "/api/projects/createProject", "projects"],
    ["PUT", "/api/projects/active-project", "projects"],
    ["PUT", "/api/userSettings/settings", "settings"],
    ["POST", "/api/assistant/chat", "ai"],
    ["POST", "/api/profiles/profileImagePromptWriter", "ai"],
    ["PATCH", "/api/profiles/p1", "projects"],
    ["POST", "/api/business/reviews", "projects"],
    ["POST", "/api/zapier/hooks", "zapier"],
    ["DELETE", "/api/zapier/hooks/we_1", "zapier"],
    ["POST", "/api/contacts", "zapier"],
    ["PATCH", "/api/contacts/c1", "zapier"],
  ])("%s %s → %s", (method, path, scope) => {
    expect(requiredScope(method, path)).toBe(scope);
  });

  it("is none for key management (even GET) and for writes outside the list", () => {
    expect(requiredScope("GET", "/api/settings/apiKeys")).toBeNull();
    expect(requiredScope("POST", "/api/settings/apiKeys")).toBeNull();
    expect(requiredScope("DELETE", "/api/settings/apiKeys/k1")).toBeNull();
    expect(requiredScope("POST", "/api/somethingNew")).toBeNull();
    // Zapier adds and updates contacts; deleting them, bulk actions and imports stay the dashboard's.
    expect(requiredScope("DELETE", "/api/contacts/c1")).toBeNull();
    expect(requiredScope("POST", "/api/contacts/bulk")).toBeNull();
    expect(requiredScope("POST", "/api/contacts/imports")).toBeNull();
  });

  it("only names documented scopes", () => {
    expect(API_KEY_SCOPE_NAMES).toEqual(["read", "crafts", "projects", "settings", "ai", "zapier"]);
  });
});
