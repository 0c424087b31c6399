import { ERROR_CATALOGUE } from "@crafter/errors";

/**
 * The upgrade modal's scenarios (spec "Upgrade prompts"): the modal opens with one (default
 * FREE_USER_LIMIT) and suggests a plan: FREE_USER_LIMIT → Core; CORE_CONTACTS_LIMIT,
 * CORE_EMAILS_LIMIT, CORE_AI_IMAGES_LIMIT (and CORE_VOICE_MINUTES_LIMIT) → Pro. NEED_SUBSCRIPTION
 * (the free credits are spent) is the FREE_USER_LIMIT scenario with the spec's own title.
 */
export const UPGRADE_SCENARIOS = [
  "FREE_USER_LIMIT",
  "CORE_CONTACTS_LIMIT",
  "CORE_EMAILS_LIMIT",
  "CORE_AI_IMAGES_LIMIT",
  "CORE_VOICE_MINUTES_LIMIT",
] as const;
export type UpgradeScenario = (typeof UPGRADE_SCENARIOS)[number];

export interface UpgradeView {
  scenario: UpgradeScenario;
  /** The plan the modal suggests (the subscription page highlights it). */
  suggests: "core" | "pro";
  title: string;
  message: string;
  okText: "Upgrade now";
  href: string;
}

export const isUpgradeScenario = (code: unknown): code is UpgradeScenario =>
  typeof code === "string" && (UPGRADE_SCENARIOS as readonly string[]).includes(code);

/** Where "Upgrade now" goes: the subscription page, from the modal, with the suggested plan. */
export const upgradeHref = (suggests: "core" | "pro") =>
  `/app/settings/subscription?source=upgrade_modal&plan=${suggests}`;

/** The modal for an error code: NEED_SUBSCRIPTION or a limit scenario; null for any other code. */
export function upgradeView(code: string | null | undefined): UpgradeView | null {
  if (code === "NEED_SUBSCRIPTION") {
    return {
      scenario: "FREE_USER_LIMIT",
      suggests: "core",
      title: ERROR_CATALOGUE.NEED_SUBSCRIPTION.title,
      message: ERROR_CATALOGUE.NEED_SUBSCRIPTION.message,
      okText: "Upgrade now",
      href: upgradeHref("core"),
    };
  }
  if (!isUpgradeScenario(code)) return null;
  const suggests = code === "FREE_USER_LIMIT" ? "core" : "pro";
  const entry = (ERROR_CATALOGUE as Record<string, { message: string; title?: string }>)[code];
  return {
    scenario: code,
    suggests,
    title: entry?.title ?? "Upgrade to keep going",
    message: entry?.message ?? "",
    okText: "Upgrade now",
    href: upgradeHref(suggests),
  };
}
