import { z } from "zod";
import { requireFeature } from "../http/features";
import { defineRoute, type RouteDef } from "../http/registry";
import type { RouteDeps } from "./deps";

/** /api/settings/referrals: the user's referral link and how it went (issue 14, flag first_promoter). */
export function referralsRoutes({ clients, publicOrigin }: RouteDeps): RouteDef[] {
  const origin = publicOrigin.replace(/\/$/, "");
  return [
    defineRoute({
      method: "get",
      path: "/api/settings/referrals",
      tag: "settings",
      summary:
        "The referral link (/signup?ref=<code>), how many signed up with it and paid, and the credits each side gets",
      auth: "session",
      response: z.object({
        code: z.string(),
        link: z.string(),
        signedUp: z.number().int(),
        paid: z.number().int(),
        referrerCredits: z.number().int(),
        referredCredits: z.number().int(),
      }),
      errors: ["FEATURE_DISABLED"],
      handler: async ({ as }) => {
        // The flag is checked here too, not only by the web's menu (a hidden page's API stays closed).
        await requireFeature(clients, as, "first_promoter");
        const view = await clients.referrals.getReferrals({}, as);
        return {
          code: view.code,
          link: `${origin}/signup?ref=${encodeURIComponent(view.code)}`,
          signedUp: view.signedUp,
          paid: view.paid,
          referrerCredits: view.referrerCredits,
          referredCredits: view.referredCredits,
        };
      },
    }),
  ];
}
