import type { JsonObject } from "@bufbuild/protobuf";
import { hitRateLimit, type RateLimitPolicy, type Redis, rateLimitedError } from "@crafter/kit";
import type { Request } from "express";
import { z } from "zod";
import { toLeadFormJson } from "../domain/leads";
import { defineRoute, IDEMPOTENCY_HEADER, type RouteDef } from "../http/registry";
import { id, jsonObject } from "../http/schemas";
import type { RouteDeps } from "./deps";
import { leadFormSchema } from "./leads.routes";

/**
 * Rate limits of the public lead routes (fixed windows in Redis): per client IP and per form or
 * assistant, so one visitor cannot flood a form and many cannot flood one business.
 */
export const PUBLIC_LIMITS = {
  submitPerIp: { name: "lead-form-ip", limit: 10, windowSeconds: 600 },
  submitPerForm: { name: "lead-form", limit: 200, windowSeconds: 3600 },
  messagePerIp: { name: "lead-assistant-ip", limit: 30, windowSeconds: 600 },
  messagePerAssistant: { name: "lead-assistant", limit: 600, windowSeconds: 3600 },
  linksPerIp: { name: "contact-links-ip", limit: 60, windowSeconds: 600 },
} satisfies Record<string, RateLimitPolicy>;

/** Counts one hit on each (policy, key); @throws RATE_LIMITED (429 with Retry-After) when one is over. */
async function limit(redis: Redis, hits: Array<[RateLimitPolicy, string]>): Promise<void> {
  for (const [policy, key] of hits) {
    const result = await hitRateLimit(redis, `${policy.name}:${key}`, policy.limit, policy.windowSeconds);
    if (!result.allowed) throw rateLimitedError(policy, result);
  }
}

const ipOf = (req: Request) => req.ip ?? "unknown";

const token = z.object({ token: z.string().min(1, "token is required").max(600, "token is too long") });
const preferencesSchema = z.object({ email: z.string(), consent: z.string() }).meta({ id: "ContactPreferences" });

/** The business a public lead page shows instead of Crafter: its name and logo ("" when unknown). */
const brandSchema = z
  .object({ name: z.string(), logoUrl: z.string() })
  .meta({ id: "PublicBrand", description: "The business profile's name and logo (an http(s) URL or a /media/… path)" });

type Brand = z.infer<typeof brandSchema>;

/**
 * The public brand of a project (projects' GetPublicBrand, as the gateway): read per view, as the
 * form itself is, so a new logo shows at once. A failed read shows the page unbranded rather than
 * failing it.
 */
function brands(clients: RouteDeps["clients"]) {
  return async (userId: string, projectId: string): Promise<Brand> => {
    try {
      const { name, logoUrl } = await clients.projectsAsGateway.getPublicBrand({ userId, projectId });
      return { name, logoUrl };
    } catch {
      return { name: "", logoUrl: "" };
    }
  };
}

/**
 * /api/public: the visitor's side of lead capture, with no session (docs/second-half-contract.md
 * "Public"). The routes other sites call (the form's submissions, the assistant widget, RFC 8058
 * one-click unsubscribe) are `crossOrigin`; confirm and preferences are only called by our own pages.
 * The contacts service's public RPCs are called with no token (there is no user).
 */
export function publicContactsRoutes({ clients, redis }: RouteDeps): RouteDef[] {
  const { leads } = clients;
  const brandOf = brands(clients);
  const P = "/api/public";
  return [
    defineRoute({
      method: "get",
      path: `${P}/forms/{formId}`,
      tag: "public",
      summary: "A lead form, to render",
      auth: "public",
      crossOrigin: true,
      params: z.object({ formId: id("formId") }),
      response: leadFormSchema.extend({ business: brandSchema }).meta({ id: "PublicLeadForm" }),
      errors: ["NOT_FOUND"],
      handler: async ({ params }) => {
        const { form, userId, projectId } = await leads.getPublicForm({ formId: params.formId });
        return { ...toLeadFormJson(form), business: await brandOf(userId, projectId) };
      },
    }),
    defineRoute({
      method: "post",
      path: `${P}/forms/{formId}/submissions`,
      tag: "public",
      summary: "Submit a lead form",
      description:
        "Records the submission, then creates the contact (source lead form, consent pending) or fills only the empty fields of the one with that email, records the submission on its timeline and emails a confirmation link (double opt-in) unless it has consent already. Send an `Idempotency-Key` (a new one per filled-in form) and retry with it after a failure: the retry is the same submission, never a second one. `website` is a honeypot: people leave it empty; a filled one is answered like a success and nothing is stored. Field errors come as `values.<key>`. Rate-limited per IP and per form.",
      auth: "public",
      crossOrigin: true,
      idempotent: true,
      params: z.object({ formId: id("formId") }),
      body: z.object({
        values: jsonObject("values"),
        website: z.string({ error: "website must be text" }).max(2000).optional(),
      }),
      response: z.object({ thankYouMessage: z.string() }),
      errors: ["NOT_FOUND", "RATE_LIMITED", "LEAD_CAPTURE_FULL"],
      handler: async ({ req, params, body }) => {
        await limit(redis, [
          [PUBLIC_LIMITS.submitPerIp, `${ipOf(req)}:${params.formId}`],
          [PUBLIC_LIMITS.submitPerForm, params.formId],
        ]);
        if (body.website) {
          // A bot filled the hidden field: it sees the usual answer, nothing is stored or sent.
          const { form } = await leads.getPublicForm({ formId: params.formId });
          return { thankYouMessage: form?.thankYouMessage ?? "" };
        }
        const key = req.headers[IDEMPOTENCY_HEADER];
        return leads.submitLeadForm({
          formId: params.formId,
          values: body.values as JsonObject,
          submissionKey: typeof key === "string" ? key : "",
        });
      },
    }),
    defineRoute({
      method: "post",
      path: `${P}/consent/confirm`,
      tag: "public",
      summary: "Confirm a subscription (the double opt-in email's link)",
      auth: "public",
      body: token,
      response: z.object({ consent: z.string(), business: brandSchema }),
      errors: ["CONTACT_LINK_INVALID", "RATE_LIMITED"],
      handler: async ({ req, body }) => {
        await limit(redis, [[PUBLIC_LIMITS.linksPerIp, ipOf(req)]]);
        const { consent, userId, projectId } = await leads.confirmConsent({ token: body.token });
        return { consent, business: await brandOf(userId, projectId) };
      },
    }),
    defineRoute({
      method: "get",
      path: `${P}/preferences/{token}`,
      tag: "public",
      summary: "The preference centre of a contact (signed link)",
      auth: "public",
      params: token,
      response: preferencesSchema,
      errors: ["CONTACT_LINK_INVALID", "RATE_LIMITED"],
      handler: async ({ req, params }) => {
        await limit(redis, [[PUBLIC_LIMITS.linksPerIp, ipOf(req)]]);
        return leads.getPreferences({ token: params.token });
      },
    }),
    defineRoute({
      method: "put",
      path: `${P}/preferences/{token}`,
      tag: "public",
      summary: "Subscribe or unsubscribe from the preference centre",
      auth: "public",
      params: token,
      body: z.object({
        consent: z.enum(["subscribed", "unsubscribed"], { error: "consent is subscribed or unsubscribed" }),
      }),
      response: preferencesSchema,
      errors: ["CONTACT_LINK_INVALID", "RATE_LIMITED"],
      handler: async ({ req, params, body }) => {
        await limit(redis, [[PUBLIC_LIMITS.linksPerIp, ipOf(req)]]);
        return leads.setPreferences({ token: params.token, consent: body.consent });
      },
    }),
    defineRoute({
      method: "post",
      path: `${P}/unsubscribe/{token}`,
      tag: "public",
      summary: "One-click unsubscribe (RFC 8058)",
      description:
        "The target of `List-Unsubscribe` with `List-Unsubscribe-Post: List-Unsubscribe=One-Click`: a form-encoded body `List-Unsubscribe=One-Click`, no cookies. Idempotent.",
      auth: "public",
      crossOrigin: true,
      bodyType: "application/x-www-form-urlencoded",
      params: token,
      body: z.object({
        "List-Unsubscribe": z.literal("One-Click", { error: "The body is List-Unsubscribe=One-Click" }),
      }),
      response: preferencesSchema,
      errors: ["CONTACT_LINK_INVALID", "RATE_LIMITED"],
      handler: async ({ req, params }) => {
        await limit(redis, [[PUBLIC_LIMITS.linksPerIp, ipOf(req)]]);
        return leads.unsubscribe({ token: params.token });
      },
    }),
    defineRoute({
      method: "get",
      path: `${P}/assistants/{id}`,
      tag: "public",
      summary: "The lead assistant widget's configuration",
      auth: "public",
      crossOrigin: true,
      params: z.object({ id: id("id") }),
      response: z.object({ id: z.string(), greeting: z.string(), enabled: z.boolean(), title: z.string() }),
      errors: ["NOT_FOUND"],
      handler: async ({ params }) => {
        const { assistant } = await leads.getPublicAssistant({ assistantId: params.id });
        return {
          id: assistant?.id ?? "",
          greeting: assistant?.greeting ?? "",
          enabled: assistant?.enabled ?? false,
          title: assistant?.title ?? "",
        };
      },
    }),
    defineRoute({
      method: "post",
      path: `${P}/assistants/{id}/messages`,
      tag: "public",
      summary: "Send the lead assistant a message",
      description:
        "Answers from the business profile and offerings (through the AI provider when one is configured). A visitor who gives a name and an email is captured as a lead. A new session when `sessionId` is absent, unknown, or its transcript would pass 163,840 characters. Rate-limited per IP and per assistant.",
      auth: "public",
      crossOrigin: true,
      params: z.object({ id: id("id") }),
      body: z.object({
        sessionId: z.string({ error: "sessionId must be text" }).max(64, "sessionId is too long").optional(),
        message: z
          .string({ error: "message is required" })
          .trim()
          .min(1, "Type a message")
          .max(2000, "A message has at most 2000 characters"),
      }),
      response: z.object({ sessionId: z.string(), reply: z.string(), leadCaptured: z.boolean() }),
      errors: ["NOT_FOUND", "RATE_LIMITED"],
      handler: async ({ req, params, body }) => {
        await limit(redis, [
          [PUBLIC_LIMITS.messagePerIp, `${ipOf(req)}:${params.id}`],
          [PUBLIC_LIMITS.messagePerAssistant, params.id],
        ]);
        return leads.sendAssistantMessage({
          assistantId: params.id,
          sessionId: body.sessionId ?? "",
          message: body.message,
        });
      },
    }),
  ];
}
