import type { MessageInitShape } from "@bufbuild/protobuf";
import type { Campaign, CampaignInputSchema } from "@crafter/proto/crafter/notifications/v1/campaigns_pb";
import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import { paged, pageMetaOf, paging, text } from "../http/rest-bindings";
import { emailAddress, id } from "../http/schemas";
import type { RouteDeps } from "./deps";
import { campaignSchema, toCampaignJson } from "./gen/notifications.v1.campaigns";

// Email campaigns (issue 13, docs/email-contract.md): the notifications service's CampaignsService.

const SEND_TIME_BY = ["business", "contact"] as const;
const STATUSES = ["draft", "scheduled", "sending", "paused", "sent", "failed"] as const;

const abTestInput = z
  .object({
    subjectB: text("abTest.subjectB", 300),
    share: z
      .number({ error: "abTest.share must be a whole number from 10 to 50" })
      .int("abTest.share must be a whole number from 10 to 50")
      .min(10, "abTest.share must be a whole number from 10 to 50")
      .max(50, "abTest.share must be a whole number from 10 to 50"),
    winnerAfterMinutes: z
      .number({ error: "abTest.winnerAfterMinutes must be a whole number of minutes" })
      .int("abTest.winnerAfterMinutes must be a whole number of minutes")
      .min(0, "abTest.winnerAfterMinutes must be 0 to 10080")
      .max(10_080, "abTest.winnerAfterMinutes must be 0 to 10080"),
  })
  .meta({ description: "An A/B test of two subjects on `share` percent of the segment; the winner goes to the rest." });

const campaignInput = z.object({
  name: text("name", 200).optional(),
  segmentId: text("segmentId", 64).optional(),
  templateId: text("templateId", 64).optional(),
  craftId: text("craftId", 64).optional(),
  subject: text("subject", 300).optional(),
  preheader: text("preheader", 300).optional(),
  html: text("html", 1_000_000)
    .optional()
    .meta({ description: 'The email\'s HTML with smart values such as {{contact.firstName | "there"}}.' }),
  abTest: abTestInput.nullable().optional(),
  sendTimeBy: z.enum(SEND_TIME_BY, { error: "sendTimeBy is business or contact" }).optional().meta({
    description:
      "Whose wall clock the scheduled time is read on: `business` (everyone at once) or `contact` (each contact at that time in their own time zone, the business's for a contact without one). `contact` is for scheduled campaigns only and never with an A/B test.",
  }),
});
type CampaignBody = z.output<typeof campaignInput>;

/** The body as the RPC's CampaignInput, and the names of the fields it gives. */
function toInput(body: CampaignBody): { campaign: MessageInitShape<typeof CampaignInputSchema>; fields: string[] } {
  const fields = Object.keys(body).filter((key) => body[key as keyof CampaignBody] !== undefined);
  const { abTest, ...rest } = body;
  return {
    campaign: { ...rest, ...(abTest ? { abTest: { ...abTest, winner: "" } } : {}) },
    fields,
  };
}

const campaignParams = z.object({ id: id("id") });
const CAMPAIGN_ERRORS = ["NOT_FOUND", "CONFLICT"] as const;

const previewContactSchema = z.object({
  contactId: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
});

const APPROVAL_FILTERS = ["awaiting", "approved", "changes_requested"] as const;

export function campaignsRoutes({ clients }: RouteDeps): RouteDef[] {
  const one = (campaign: Campaign | undefined) => toCampaignJson(campaign);
  return [
    defineRoute({
      method: "get",
      path: "/api/email/campaigns",
      tag: "email",
      summary: "The project's email campaigns, newest first",
      auth: "session",
      actsInProject: true,
      query: z.object({
        projectId: text("projectId", 64).optional(),
        status: z.enum(STATUSES, { error: `status is one of ${STATUSES.join(", ")}` }).optional(),
        approval: z
          .enum(APPROVAL_FILTERS, { error: `approval is one of ${APPROVAL_FILTERS.join(", ")}` })
          .optional()
          .meta({ description: "Only campaigns in this approval state (a reviewer's link)." }),
        ...paging,
      }),
      response: paged(campaignSchema),
      errors: ["NOT_FOUND"],
      handler: async ({ query, as, project }) => {
        const projectId = project.projectId;
        const answer = await clients.campaigns.listCampaigns(
          {
            projectId,
            status: query.status ?? "",
            approval: query.approval ?? "",
            page: query.page,
            pageSize: query.pageSize,
          },
          as,
        );
        return {
          result: answer.campaigns.map(one),
          meta: pageMetaOf(answer),
        };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/email/campaigns",
      tag: "email",
      summary: "Create a draft campaign",
      auth: "session",
      actsInProject: true,
      status: 201,
      idempotent: true,
      query: z.object({ projectId: text("projectId", 64).optional() }),
      body: campaignInput,
      response: campaignSchema,
      errors: ["NOT_FOUND"],
      handler: async ({ body, as, project }) => {
        const projectId = project.projectId;
        const answer = await clients.campaigns.createCampaign({ projectId, campaign: toInput(body).campaign }, as);
        return one(answer.campaign);
      },
    }),
    defineRoute({
      method: "put",
      path: "/api/email/campaigns/{id}",
      tag: "email",
      summary: "Change a draft or scheduled campaign (the fields given)",
      auth: "session",
      actsInProject: true,
      params: campaignParams,
      body: campaignInput,
      response: campaignSchema,
      errors: CAMPAIGN_ERRORS,
      handler: async ({ params, body, as }) => {
        const { campaign, fields } = toInput(body);
        if (fields.length === 0)
          return one((await clients.campaigns.getCampaign({ campaignId: params.id }, as)).campaign);
        return one((await clients.campaigns.updateCampaign({ campaignId: params.id, campaign, fields }, as)).campaign);
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/email/campaigns/{id}/schedule",
      tag: "email",
      summary:
        "Schedule (or reschedule) the campaign at `at`, or at `localTime` (YYYY-MM-DDTHH:mm in the business's time zone); `at` empty unschedules it",
      auth: "session",
      actsInProject: true,
      params: campaignParams,
      body: z
        .object({
          at: z
            .union([z.iso.datetime({ offset: true, error: "at must be an ISO 8601 date and time" }), z.literal("")])
            .optional(),
          localTime: z
            .string({ error: "localTime must be text" })
            .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, "localTime is a date and time, YYYY-MM-DDTHH:mm")
            .optional(),
        })
        .refine((body) => body.at !== undefined || body.localTime !== undefined, {
          path: ["at"],
          message: "Give at or localTime",
        })
        .meta({ anyOf: [{ required: ["at"] }, { required: ["localTime"] }] }),
      response: campaignSchema,
      errors: CAMPAIGN_ERRORS,
      handler: async ({ params, body, as }) =>
        one(
          (
            await clients.campaigns.scheduleCampaign(
              { campaignId: params.id, at: body.at ?? "", localTime: body.localTime ?? "" },
              as,
            )
          ).campaign,
        ),
    }),
    defineRoute({
      method: "post",
      path: "/api/email/campaigns/{id}/test",
      tag: "email",
      summary: "Send one test email (no consent needed, not tracked, not counted)",
      auth: "session",
      actsInProject: true,
      params: campaignParams,
      // The kit's one email rule, as the service checks it (the document says `format: email`); trimmed in the handler.
      body: z.object({ email: emailAddress }),
      response: z.object({ messageId: z.string() }),
      errors: ["NOT_FOUND"],
      handler: async ({ params, body, as }) => {
        const answer = await clients.campaigns.sendTestEmail({ campaignId: params.id, email: body.email.trim() }, as);
        return { messageId: answer.messageId };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/email/campaigns/{id}/preview",
      tag: "email",
      summary:
        "The campaign as one contact of its segment gets it (smart values, footer; not tracked), and who in the segment gets it and who does not, by reason",
      auth: "session",
      actsInProject: true,
      params: campaignParams,
      query: z.object({ contactId: z.string().trim().max(64, "Invalid contact id").optional() }),
      response: z.object({
        subject: z.string(),
        preheader: z.string(),
        html: z.string(),
        text: z.string(),
        contact: previewContactSchema.nullable(),
        members: z.number().int(),
        recipients: z.number().int(),
        excluded: z.array(z.object({ reason: z.string(), count: z.number().int() })),
        choices: z.array(previewContactSchema),
      }),
      errors: ["NOT_FOUND"],
      handler: async ({ params, query, as }) => {
        const answer = await clients.campaigns.previewCampaign(
          { campaignId: params.id, contactId: query.contactId ?? "" },
          as,
        );
        const person = (c: { contactId: string; email: string; firstName: string; lastName: string }) => ({
          contactId: c.contactId,
          email: c.email,
          firstName: c.firstName,
          lastName: c.lastName,
        });
        return {
          subject: answer.subject,
          preheader: answer.preheader,
          html: answer.html,
          text: answer.text,
          contact: answer.contact ? person(answer.contact) : null,
          members: answer.members,
          recipients: answer.recipients,
          excluded: answer.excluded.map((e) => ({ reason: e.reason, count: e.count })),
          choices: answer.choices.map(person),
        };
      },
    }),
  ];
}
