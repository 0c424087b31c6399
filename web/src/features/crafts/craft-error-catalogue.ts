import { ERROR_CATALOGUE } from "@crafter/errors";
import { errorMessage, isApiError } from "../../api/errors";
import { upgradeHref, upgradeView } from "../billing/upgrade";

/**
 * How a failed craft call is shown (spec section 8), as data so it is unit tested without React.
 *
 * - the craft action codes: an error toast with the spec's message for that code;
 * - ConflictingInputError, the two no-data codes and ReachedMaxResults: a titled dialog;
 * - NEED_SUBSCRIPTION: the upgrade modal; NOT_ENOUGH_CREDITS: the credits notice;
 * - anything else: an error toast with the server's message, else the error's own message, else
 *   "Network error!" (`errorMessage`).
 */
export type CraftErrorView =
  | { kind: "toast"; title: string; message: string; code: string | null }
  | { kind: "dialog"; title: string; message: string; code: string }
  | { kind: "subscription"; title: string; message: string; okText: string; href: string; scenario: string }
  | { kind: "credits"; title: string; linkText: string; href: string };

/** The craft action errors of spec section 8, each toasted with exactly this message. */
export const ACTION_ERROR_CODES = [
  "InvalidUrl",
  "PageNotFound",
  "UnableToReadWebPage",
  "InternalServerError",
  "TooManyRunningActions",
  "NoResultsFound",
  "CR_ERR_BAD_REQUEST",
  "CR_ERR_WEBSITE_AUDIT",
] as const;

/** The titled dialogs of spec section 8 (the no-data code names come from the engine contract); texts from @crafter/errors. */
export const DIALOGS: Record<string, { title: string; message: string }> = {
  ConflictingInputError: {
    title: ERROR_CATALOGUE.ConflictingInputError.title,
    message: ERROR_CATALOGUE.ConflictingInputError.message,
  },
  NoCompetitorDataFound: {
    title: ERROR_CATALOGUE.NoCompetitorDataFound.title,
    message: ERROR_CATALOGUE.NoCompetitorDataFound.body,
  },
  NoKeywordDataFound: {
    title: ERROR_CATALOGUE.NoKeywordDataFound.title,
    message: ERROR_CATALOGUE.NoKeywordDataFound.body,
  },
  ReachedMaxResults: {
    title: ERROR_CATALOGUE.ReachedMaxResults.title,
    message: ERROR_CATALOGUE.ReachedMaxResults.body,
  },
};

export const SUBSCRIPTION_HREF = upgradeHref("core");
export const WALLET_HREF = "/app/settings/wallet";

export function describeCraftError(error: unknown, fallbackTitle = "Crafting failed"): CraftErrorView {
  const code = isApiError(error) ? error.code : null;
  if (code && code in DIALOGS) {
    const dialog = DIALOGS[code]!;
    return { kind: "dialog", code, title: dialog.title, message: dialog.message };
  }
  // NEED_SUBSCRIPTION and the plan-limit scenarios: the upgrade modal, suggesting Core or Pro.
  const upgrade = upgradeView(code);
  if (upgrade) {
    const { title, message, okText, href, scenario } = upgrade;
    return { kind: "subscription", title, message, okText, href, scenario };
  }
  if (code === "NOT_ENOUGH_CREDITS") {
    return {
      kind: "credits",
      title: ERROR_CATALOGUE.NOT_ENOUGH_CREDITS.message,
      linkText: "Add more credits",
      href: WALLET_HREF,
    };
  }
  if (code && (ACTION_ERROR_CODES as readonly string[]).includes(code)) {
    const message = ERROR_CATALOGUE[code as (typeof ACTION_ERROR_CODES)[number]].message;
    return { kind: "toast", code, title: fallbackTitle, message };
  }
  return { kind: "toast", code, title: fallbackTitle, message: errorMessage(error) };
}
