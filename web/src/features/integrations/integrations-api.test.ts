import { describe, expect, it } from "@jest/globals";
import { type Integration, integrationState, returnErrorMessage } from "./integrations-api";

describe("the outcome of a return from the provider", () => {
  it("explains each refusal in words, and names an unknown code", () => {
    expect(returnErrorMessage("access_denied", "Google")).toContain("did not allow Crafter to use Google");
    expect(returnErrorMessage("invalid_state", "Google")).toContain("expired or was already finished");
    expect(returnErrorMessage("invalid_grant", "TikTok")).toBe(
      "TikTok refused the connection (invalid_grant). Please try again.",
    );
  });
});

describe("a row's state", () => {
  const integration = (over: Partial<Integration>): Integration => ({
    provider: "meta",
    title: "Meta",
    kind: "oauth2",
    configured: true,
    shopSuffix: "",
    ...over,
  });
  const connection = {
    state: "connected" as const,
    remoteAccountId: "shop-1.myshopify.com",
    remoteAccountName: "",
    scopes: [],
    connectedAt: null,
    lastWorkedAt: null,
    lastError: "",
    syncs: [],
  };

  it("is connected as the remote account, or needs reconnecting", () => {
    expect(integrationState(integration({ kind: "shop_oauth", connection }))).toEqual({
      state: "connected",
      connectedAs: "shop-1.myshopify.com",
    });
    expect(
      integrationState(
        integration({ connection: { ...connection, state: "needs_reconnecting", remoteAccountName: "Leeds Bikes" } }),
      ),
    ).toEqual({ state: "needs_reconnecting", connectedAs: "Leeds Bikes" });
  });

  it("is connectable for every kind whose server side exists, unless the server has no client", () => {
    for (const kind of ["oauth2", "shop_oauth", "api_key"] as const) {
      expect(integrationState(integration({ kind })).state).toBe("not_connected");
      expect(integrationState(integration({ kind, configured: false })).state).toBe("not_configured");
    }
    // Webhooks and a custom domain need no client: their panels set them up.
    expect(integrationState(integration({ kind: "webhooks", configured: false })).state).toBe("managed");
    expect(integrationState(integration({ kind: "domain", configured: false })).state).toBe("managed");
    expect(integrationState(integration({ kind: "carrier_pigeon" as Integration["kind"] })).state).toBe("coming");
  });
});
