import { describe, expect, it } from "@jest/globals";
import { ApiError } from "../../api/errors";
import { NOTIFICATION_CONFIG } from "../../shared/notify";
import { ACTION_ERROR_CODES, describeCraftError, SUBSCRIPTION_HREF, WALLET_HREF } from "./craft-error-catalogue";

const failure = (code: string | null, serverMessage?: string) => new ApiError({ status: 400, code, serverMessage });

describe("craft action error toasts (spec section 8)", () => {
  const spec: Record<string, string> = {
    InvalidUrl: "Oops! The URL you entered seems incorrect. Please check and try again.",
    PageNotFound: "The page you're looking for can't be found. It may have been moved or deleted.",
    UnableToReadWebPage: "We're having trouble reading this web page. Please try again later.",
    InternalServerError: "Something went wrong on our end. Please try again later.",
    TooManyRunningActions: "Your previous request is still processing. Please wait a moment before trying again.",
    NoResultsFound: "No results found. Please check and try again.",
    CR_ERR_BAD_REQUEST: "Something is wrong with your request.",
    CR_ERR_WEBSITE_AUDIT: "Can't process page. Please try later or use another page.",
  };

  it("toasts each action code with exactly the spec's message, whatever the server wrote", () => {
    expect([...ACTION_ERROR_CODES].sort()).toEqual(Object.keys(spec).sort());
    for (const [code, message] of Object.entries(spec)) {
      expect(describeCraftError(failure(code, "engine said something else"))).toEqual({
        kind: "toast",
        code,
        title: "Crafting failed",
        message,
      });
    }
  });

  it("shows at most 3 notifications at once, each hidden after 5000 ms", () => {
    expect(NOTIFICATION_CONFIG.maxCount).toBe(3);
    expect(NOTIFICATION_CONFIG.duration * 1000).toBe(5000);
  });
});

describe("titled dialogs", () => {
  it("maps ConflictingInputError, the no-data codes and ReachedMaxResults to their titles", () => {
    expect(describeCraftError(failure("ConflictingInputError"))).toMatchObject({ kind: "dialog", title: "Warning" });
    expect(describeCraftError(failure("ConflictingInputError"))).toMatchObject({
      message: expect.stringContaining("review, complete all required information and try again"),
    });
    expect(describeCraftError(failure("NoCompetitorDataFound"))).toEqual({
      kind: "dialog",
      code: "NoCompetitorDataFound",
      title: "No data has been found about this domain.",
      message: "It may be a low traffic domain.",
    });
    expect(describeCraftError(failure("NoKeywordDataFound"))).toMatchObject({
      kind: "dialog",
      title: "No results found.",
      message: expect.stringContaining("broader keywords"),
    });
    expect(describeCraftError(failure("ReachedMaxResults"))).toMatchObject({
      kind: "dialog",
      title: "Maximum result limit reached.",
      message: expect.stringContaining("delete poor results before generating more"),
    });
  });
});

describe("credits", () => {
  it("opens the subscription modal for NEED_SUBSCRIPTION, linking to the subscription page", () => {
    expect(describeCraftError(new ApiError({ status: 402, code: "NEED_SUBSCRIPTION" }))).toEqual({
      kind: "subscription",
      title: "Keep Crafting Uninterrupted!",
      message: expect.stringContaining("free credit has ended"),
      okText: "Upgrade now",
      href: "/app/settings/subscription?source=upgrade_modal&plan=core",
      scenario: "FREE_USER_LIMIT",
    });
    expect(SUBSCRIPTION_HREF).toBe("/app/settings/subscription?source=upgrade_modal&plan=core");
  });

  it("says 'Not enough credits.' with 'Add more credits' to the wallet for NOT_ENOUGH_CREDITS", () => {
    expect(describeCraftError(new ApiError({ status: 402, code: "NOT_ENOUGH_CREDITS" }))).toEqual({
      kind: "credits",
      title: "Not enough credits.",
      linkText: "Add more credits",
      href: WALLET_HREF,
    });
    expect(WALLET_HREF).toBe("/app/settings/wallet");
  });
});

describe("other failures: server message, else the error's message, else Network error!", () => {
  it("uses the server's errorMessage for an envelope with success=false", () => {
    expect(describeCraftError(failure("CONFLICT", "The craft changed meanwhile."), "Could not save")).toEqual({
      kind: "toast",
      code: "CONFLICT",
      title: "Could not save",
      message: "The craft changed meanwhile.",
    });
  });

  it("falls back to the thrown error's own message, then to Network error!", () => {
    expect(describeCraftError(new Error("socket hang up"))).toMatchObject({ kind: "toast", message: "socket hang up" });
    expect(describeCraftError(ApiError.network())).toMatchObject({ kind: "toast", message: "Network error!" });
    expect(describeCraftError(undefined)).toMatchObject({ kind: "toast", message: "Network error!" });
  });
});
