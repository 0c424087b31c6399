import { describe, expect, it } from "@jest/globals";
import { returnErrorMessage } from "./integrations-api";

describe("the outcome of a return from the provider", () => {
  it("explains each refusal in words, and names an unknown code", () => {
    expect(returnErrorMessage("access_denied", "Google")).toContain("did not allow Crafter to use Google");
    expect(returnErrorMessage("invalid_state", "Google")).toContain("expired or was already finished");
    expect(returnErrorMessage("invalid_grant", "TikTok")).toBe(
      "TikTok refused the connection (invalid_grant). Please try again.",
    );
  });
});
