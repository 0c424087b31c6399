import type { NotificationsDeps } from "../deps";
import type { ResolvedSender } from "../domain/sender";
import { absoluteLogoUrl, type EmailBrand } from "../domain/templates";

/**
 * The brand (name, absolute logo URL) and sender (From, Reply-To, DKIM) of an email a business sends
 * to the public: the double opt-in email, a reviewer's approval link. Nulls when the project is
 * unknown or the business cannot be read now (the email then goes unbranded, from the platform).
 */
export async function businessOf(
  deps: Pick<NotificationsDeps, "email" | "publicOrigin" | "logger">,
  userId: string,
  projectId: string,
): Promise<{ brand: EmailBrand | null; sender: ResolvedSender | null }> {
  if (!projectId || !deps.email.brands) return { brand: null, sender: null };
  try {
    const { name, logoUrl } = await deps.email.brands.brandOf(userId, projectId);
    const brand = { name, logoUrl: absoluteLogoUrl(logoUrl, deps.publicOrigin) };
    const sender = name ? ((await deps.email.senders?.resolve(userId, projectId, name)) ?? null) : null;
    return { brand, sender };
  } catch (error) {
    deps.logger.warn(
      { err: (error as Error).message, projectId },
      "the business of an email could not be read: sent unbranded",
    );
    return { brand: null, sender: null };
  }
}
