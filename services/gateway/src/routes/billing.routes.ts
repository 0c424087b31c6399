import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";
import { CREDIT_PACKS, CURRENCY, LIMITS, PLAN_CARDS, PLAN_KEYS } from "@crafter/plans";
import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import type { RouteDeps } from "./deps";

// Plans, subscription, checkout, wallet and payment history (issue 14), and Stripe's webhook.
// Billing owns all of it (PaymentsService); the plan cards are @crafter/plans, billing's package.

const iso = (timestamp?: Timestamp) => (timestamp ? timestampDate(timestamp).toISOString() : null);

const planCardSchema = z
  .object({
    id: z.enum(["core", "pro"]),
    name: z.string(),
    planKey: z.object({ monthly: z.enum(PLAN_KEYS), yearly: z.enum(PLAN_KEYS) }),
    monthlyPrice: z.number().meta({ description: "USD a month, billed monthly." }),
    yearlyPrice: z.number().meta({ description: "USD a month, billed yearly (12 × this once a year)." }),
    originalMonthlyPrice: z.number(),
    originalYearlyPrice: z.number(),
    yearlySavings: z.number().meta({ description: "Whole percent saved by paying yearly." }),
    features: z.array(z.string()),
  })
  .meta({ id: "PlanCard" });

const creditPackSchema = z
  .object({ id: z.string(), name: z.string(), credits: z.number(), price: z.number() })
  .meta({ id: "CreditPack" });

const subscriptionSchema = z
  .object({
    tier: z.enum(["free", "core", "pro"]),
    planKey: z.string().meta({ description: "Empty on free." }),
    status: z.string().meta({ description: 'Stripe\'s status, or "none".' }),
    currentPeriodEnd: z.string().nullable(),
    cancelAtPeriodEnd: z.boolean(),
    hasCustomer: z.boolean(),
    limits: z
      .object({
        profiles: z.number().meta({ description: "Customer profiles alive at once." }),
        emails: z.number().meta({ description: "Emails a calendar month (UTC)." }),
        aiImages: z.number().meta({ description: "AI images a calendar month (UTC)." }),
        voiceMinutes: z.number().meta({ description: "Minutes of AI voice a calendar month (UTC)." }),
      })
      .meta({ description: "The tier's limits (@crafter/plans LIMITS)." }),
  })
  .meta({ id: "Subscription" });

const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

const meta = (total: number, page: number, pageSize: number) => ({
  count: total,
  currentPage: page,
  totalPages: Math.max(1, Math.ceil(total / pageSize)),
});

const paged = <T extends z.ZodType>(item: T) =>
  z.object({
    result: z.array(item),
    meta: z.object({ count: z.number(), currentPage: z.number(), totalPages: z.number() }),
  });

const planKey = z.enum(PLAN_KEYS, { error: "Unknown plan." });

/** Where Stripe sends the user back, on our own origin only (no open redirect). */
function returnUrls(origin: string, kind: "subscription" | "credits", source: string | undefined) {
  const page = kind === "subscription" ? "/app/settings/subscription" : "/app/settings/wallet";
  const from = source ? `&source=${encodeURIComponent(source)}` : "";
  return {
    successUrl: `${origin}${page}?checkout=success${from}&session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${origin}${page}?checkout=cancelled${from}`,
  };
}

export function billingRoutes({ clients, publicOrigin }: RouteDeps): RouteDef[] {
  const origin = new URL(publicOrigin).origin;
  return [
    defineRoute({
      method: "get",
      path: "/api/billing/plans",
      tag: "billing",
      summary: "The plan cards (Core and Pro, monthly and yearly, USD) and the credit packs",
      description: "Public: the app's subscription page and the public /pricing page show the same cards.",
      auth: "public",
      response: z.object({
        currency: z.string().meta({ description: 'ISO 4217, lower case: "usd".' }),
        plans: z.array(planCardSchema),
        creditPacks: z.array(creditPackSchema),
      }),
      handler: async () => ({ currency: CURRENCY, plans: [...PLAN_CARDS], creditPacks: [...CREDIT_PACKS] }),
    }),
    defineRoute({
      method: "get",
      path: "/api/billing/subscription",
      tag: "billing",
      summary: "The user's subscription",
      auth: "session",
      response: subscriptionSchema,
      handler: async ({ as }) => {
        const view = await clients.payments.getSubscription({}, as);
        const tier = (["free", "core", "pro"] as const).find((t) => t === view.tier) ?? "free";
        const limits = LIMITS[tier];
        return {
          tier,
          planKey: view.planKey,
          status: view.status,
          currentPeriodEnd: iso(view.currentPeriodEnd),
          cancelAtPeriodEnd: view.cancelAtPeriodEnd,
          hasCustomer: view.hasCustomer,
          limits: {
            profiles: limits.profiles,
            emails: limits.emails,
            aiImages: limits.ai_images,
            voiceMinutes: limits.voice_minutes,
          },
        };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/billing/checkout",
      tag: "billing",
      summary: "Start Stripe Checkout for a plan or a credit pack; answers the hosted page's URL",
      description:
        "Stripe sends the user back to /app/settings/subscription (or /wallet) with `checkout=success` or `checkout=cancelled`; the plan or credits apply when Stripe's webhook arrives.",
      auth: "session",
      body: z.discriminatedUnion("kind", [
        z.object({
          kind: z.literal("subscription"),
          planKey,
          source: z
            .string()
            .max(40)
            .regex(/^[a-z_]*$/, "Unknown source.")
            .optional(),
        }),
        z.object({
          kind: z.literal("credits"),
          packId: z.enum(CREDIT_PACKS.map((pack) => pack.id) as [string, ...string[]], {
            error: "Unknown credit pack.",
          }),
        }),
      ]),
      response: z.object({
        url: z.string().meta({
          description:
            "Stripe's hosted page, or where billing uses a Stripe test API (stripe-mock) the local test checkout.",
        }),
        sessionId: z.string(),
        checkoutId: z.string().meta({ description: "Crafter's own id of the checkout." }),
      }),
      errors: ["CONFLICT"],
      handler: async ({ body, as }) => {
        const urls = returnUrls(origin, body.kind, body.kind === "subscription" ? body.source : undefined);
        // Recorded with the checkout; a purchase does not wait on the projects service.
        const active = await clients.projects.getActiveProject({}, as).catch(() => null);
        const { url, sessionId, checkoutId } = await clients.payments.createCheckout(
          {
            kind: body.kind,
            planKey: body.kind === "subscription" ? body.planKey : "",
            packId: body.kind === "credits" ? body.packId : "",
            projectId: active?.projectId ?? "",
            ...urls,
          },
          as,
        );
        return { url, sessionId, checkoutId };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/billing/subscription/change",
      tag: "billing",
      summary: "Upgrade or downgrade the subscription (prorated)",
      description: "The new plan shows once Stripe confirms it (webhook).",
      auth: "session",
      body: z.object({ planKey }),
      response: z.object({ planKey: z.string(), direction: z.enum(["upgrade", "downgrade", "same"]) }),
      errors: ["NOT_FOUND", "CONFLICT"],
      handler: async ({ body, as }) => {
        const changed = await clients.payments.changePlan({ planKey: body.planKey }, as);
        const direction = (["upgrade", "downgrade", "same"] as const).find((d) => d === changed.direction) ?? "upgrade";
        return { planKey: changed.planKey, direction };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/billing/subscription/cancel",
      tag: "billing",
      summary: "Cancel the subscription at the end of the paid period (resume: keep it)",
      auth: "session",
      body: z.object({ resume: z.boolean().default(false) }),
      response: z.object({ cancelAtPeriodEnd: z.boolean() }),
      errors: ["NOT_FOUND"],
      handler: async ({ body, as }) => clients.payments.cancelSubscription({ resume: body.resume }, as),
    }),
    defineRoute({
      method: "post",
      path: "/api/billing/portal",
      tag: "billing",
      summary: "Open Stripe's customer portal (payment methods, invoices); answers its URL",
      auth: "session",
      body: z.object({}),
      response: z.object({ url: z.string() }),
      errors: ["NOT_FOUND"],
      handler: async ({ as }) =>
        clients.payments.createPortalSession({ returnUrl: `${origin}/app/settings/subscription` }, as),
    }),
    defineRoute({
      method: "get",
      path: "/api/billing/invoices",
      tag: "billing",
      summary: "The payment history: invoices with amount, status and PDF link, newest first",
      auth: "session",
      query: pageQuery,
      response: paged(
        z
          .object({
            id: z.string(),
            number: z.string(),
            description: z.string(),
            amountPaid: z.number().meta({ description: "Cents." }),
            amountDue: z.number().meta({ description: "Cents." }),
            currency: z.string(),
            status: z.string(),
            hostedInvoiceUrl: z.string(),
            invoicePdf: z.string(),
            createdAt: z.string().nullable(),
          })
          .meta({ id: "Invoice" }),
      ),
      handler: async ({ query, as }) => {
        const { invoices, total } = await clients.payments.listInvoices(query, as);
        return {
          result: invoices.map((invoice) => ({
            id: invoice.id,
            number: invoice.number,
            description: invoice.description,
            amountPaid: Number(invoice.amountPaid),
            amountDue: Number(invoice.amountDue),
            currency: invoice.currency,
            status: invoice.status,
            hostedInvoiceUrl: invoice.hostedInvoiceUrl,
            invoicePdf: invoice.invoicePdf,
            createdAt: iso(invoice.createdAt),
          })),
          meta: meta(total, query.page, query.pageSize),
        };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/billing/ledger",
      tag: "billing",
      summary: "The wallet's history: credit grants, debits and refunds, newest first",
      auth: "session",
      query: pageQuery,
      response: paged(
        z
          .object({
            id: z.string(),
            kind: z.string(),
            delta: z.number(),
            source: z.string(),
            reason: z.string(),
            balanceAfter: z.number(),
            expiresAt: z.string().nullable(),
            createdAt: z.string().nullable(),
          })
          .meta({ id: "LedgerItem" }),
      ),
      handler: async ({ query, as }) => {
        const { items, total } = await clients.payments.listLedger(query, as);
        return {
          result: items.map((item) => ({
            id: item.id,
            kind: item.kind,
            delta: item.delta,
            source: item.source,
            reason: item.reason,
            balanceAfter: item.balanceAfter,
            expiresAt: iso(item.expiresAt),
            createdAt: iso(item.createdAt),
          })),
          meta: meta(total, query.page, query.pageSize),
        };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/billing/webhook",
      tag: "billing",
      summary: "Stripe's webhook endpoint (signed with Stripe-Signature)",
      description:
        "Stripe's event deliveries. The signature over the raw body is checked by billing: a bad or missing one is 400. A redelivered event changes nothing.",
      auth: "public",
      signedBody: { limit: "512kb" },
      body: z.looseObject({ id: z.string(), type: z.string() }).meta({ description: "A Stripe event." }),
      response: z.object({ outcome: z.enum(["handled", "duplicate", "ignored"]), eventType: z.string() }),
      handler: async ({ req, body }) => {
        const signature = req.headers["stripe-signature"];
        const answer = await clients.paymentsAsGateway.handleStripeWebhook({
          payload: body as unknown as Buffer,
          signature: typeof signature === "string" ? signature : "",
        });
        const outcome = (["handled", "duplicate", "ignored"] as const).find((o) => o === answer.outcome) ?? "ignored";
        return { outcome, eventType: answer.eventType };
      },
    }),
  ];
}
