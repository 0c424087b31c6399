import { appError } from "@crafter/kit";
import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import { emailAddress } from "../http/schemas";
import type { RouteDeps } from "./deps";

export const emailChangeBody = z
  .object({
    newEmail: emailAddress,
    currentPassword: z.string({ error: "Enter your current password" }).min(1, "Enter your current password").max(128),
  })
  .strict();

/** Changing the account's email (issue 14): asked for in settings, applied by the emailed link. */
export function emailChangeRoutes({ clients }: RouteDeps): RouteDef[] {
  return [
    defineRoute({
      method: "post",
      path: "/api/settings/email",
      tag: "settings",
      summary:
        "Ask to change the email: checks the current password, emails a link to the new address and a notice to the current one; nothing changes until the link is used",
      auth: "session",
      body: emailChangeBody,
      response: z.object({ newEmail: z.string(), message: z.string() }),
      errors: ["EMAIL_TAKEN", "RATE_LIMITED"],
      handler: async ({ req, body, as }) => {
        if (req.apiKey) throw appError("FORBIDDEN", "API keys cannot change the account's email.");
        const { newEmail } = await clients.auth.requestEmailChange(body, as);
        return {
          newEmail,
          message: `We sent a link to ${newEmail}. Your email changes when you open it.`,
        };
      },
    }),
    defineRoute({
      method: "post",
      path: "/auth/email/confirm",
      tag: "auth",
      summary: "Apply an email change with the token of the link sent to the new address",
      auth: "public",
      body: z.object({ token: z.string({ error: "The link is incomplete" }).min(1).max(512) }).strict(),
      response: z.object({ email: z.string() }),
      errors: ["InvalidToken", "EMAIL_TAKEN"],
      handler: async ({ body }) => clients.auth.confirmEmailChange({ token: body.token }),
    }),
  ];
}
