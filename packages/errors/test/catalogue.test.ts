import { describe, expect, it } from "@jest/globals";
import { CLIENT_MESSAGES, catalogueEntry, ERROR_CATALOGUE, type ErrorCode, isErrorCode } from "../src/index";

describe("the error catalogue", () => {
  it("gives every code an HTTP error status and a message users can read", () => {
    for (const code of Object.keys(ERROR_CATALOGUE) as ErrorCode[]) {
      const entry = catalogueEntry(code);
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.status).toBeLessThan(600);
      expect(entry.message.trim()).not.toBe("");
    }
  });

  it("makes a dialog's message its title followed by its body", () => {
    for (const code of Object.keys(ERROR_CATALOGUE) as ErrorCode[]) {
      const { title, body, message } = catalogueEntry(code);
      if (body !== undefined) expect(message).toBe(`${title} ${body}`);
    }
    expect(ERROR_CATALOGUE.NoCompetitorDataFound).toMatchObject({
      title: "No data has been found about this domain.",
      body: "It may be a low traffic domain.",
    });
  });

  it("has the spec's upgrade modal for NEED_SUBSCRIPTION (spec section 8)", () => {
    expect(ERROR_CATALOGUE.NEED_SUBSCRIPTION).toMatchObject({ status: 402, title: "Keep Crafting Uninterrupted!" });
    expect(ERROR_CATALOGUE.NEED_SUBSCRIPTION.message).toContain("free credit has ended");
  });

  it("knows its own codes only", () => {
    expect(isErrorCode("InvalidUrl")).toBe(true);
    expect(isErrorCode("toString")).toBe(false);
    expect(isErrorCode(402)).toBe(false);
    expect(CLIENT_MESSAGES.network).toBe("Network error!");
  });
});
