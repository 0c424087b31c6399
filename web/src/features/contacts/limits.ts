import { errorMessage, isApiError } from "../../api/errors";
import { SUBSCRIPTION_HREF } from "../crafts/craft-error-catalogue";

/**
 * How a failed contacts call is shown, as data (unit tested in limits.test.ts). The profile limit
 * (contract: "Plans, limits and usage") raises the spec's upgrade prompt: FREE_USER_LIMIT suggests
 * Core, CORE_CONTACTS_LIMIT suggests Pro, PLAN_LIMIT_REACHED (Pro) has nothing to upgrade to.
 */
export type ContactErrorView =
  | { kind: "upgrade"; code: string; title: string; message: string; plan: "Core" | "Pro"; href: string }
  | { kind: "limit"; code: string; title: string; message: string }
  | { kind: "toast"; title: string; message: string };

const UPGRADES: Record<string, "Core" | "Pro"> = {
  FREE_USER_LIMIT: "Core",
  CORE_CONTACTS_LIMIT: "Pro",
};

export function describeContactError(error: unknown, fallbackTitle: string): ContactErrorView {
  const code = isApiError(error) ? error.code : null;
  const message = errorMessage(error);
  if (code && code in UPGRADES) {
    const plan = UPGRADES[code]!;
    return {
      kind: "upgrade",
      code,
      plan,
      title: "You reached your plan's contact limit",
      message,
      href: SUBSCRIPTION_HREF,
    };
  }
  if (code === "PLAN_LIMIT_REACHED") {
    return { kind: "limit", code, title: "You reached your plan's contact limit", message };
  }
  return { kind: "toast", title: fallbackTitle, message };
}

/** The code of an import's stored error (`error` is a string or `{ code, message }`). */
export function importErrorCode(error: unknown): string | null {
  if (error && typeof error === "object" && typeof (error as { code?: unknown }).code === "string") {
    return (error as { code: string }).code;
  }
  // A string error that is a catalogue code ("CORE_CONTACTS_LIMIT"), not a sentence.
  if (typeof error === "string" && /^[A-Z][A-Z0-9_]+$/.test(error.trim())) return error.trim();
  return null;
}
