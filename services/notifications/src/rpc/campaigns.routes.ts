import type { KeyObject } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import {
  type Campaign,
  type CampaignInput,
  CampaignSchema,
  CampaignsService,
  type Recipient,
  RecipientSchema,
} from "@crafter/proto/crafter/notifications/v1/campaigns_pb";
import type { NotificationsDeps } from "../deps";
import {
  type CampaignInput as CampaignFields,
  type Deps as CampaignsDeps,
  type CampaignView,
  createCampaign,
  deleteCampaign,
  getCampaign,
  listCampaigns,
  listRecipients,
  pauseCampaign,
  previewCampaign,
  type RecipientView,
  resumeCampaign,
  scheduleCampaign,
  sendCampaign,
  sendTestEmail,
  updateCampaign,
} from "../usecases/campaigns";
import { handleSendgridEvents, type Deps as TrackingDeps, trackClick, trackOpen } from "../usecases/email-tracking";

const iso = (date: Date | null | undefined) => (date ? new Date(date).toISOString() : "");

export function toCampaign(c: CampaignView): Campaign {
  return create(CampaignSchema, {
    campaignId: c._id,
    projectId: c.projectId,
    name: c.name,
    status: c.status,
    segmentId: c.segmentId,
    templateId: c.templateId,
    craftId: c.craftId,
    subject: c.subject,
    preheader: c.preheader,
    html: c.html,
    ...(c.abTest ? { abTest: c.abTest } : {}),
    scheduledAt: iso(c.scheduledAt),
    sentAt: iso(c.sentAt),
    ...(c.waiting ? { waiting: c.waiting } : {}),
    stats: c.stats,
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
    sendTimeBy: c.sendTimeBy ?? "business",
    timeZone: c.timeZone ?? "",
    startsAt: iso(c.startsAt ?? c.scheduledAt),
    ...(c.release
      ? { release: { released: c.release.released, total: c.release.total, nextAt: iso(c.release.nextAt) } }
      : {}),
  });
}

function toRecipient(r: RecipientView): Recipient {
  return create(RecipientSchema, {
    contactId: r.contactId,
    email: r.email,
    status: r.status,
    variant: r.variant,
    sentAt: iso(r.sentAt),
    openedAt: iso(r.openedAt),
    clickedAt: iso(r.clickedAt),
    error: r.error,
    possibleDuplicate: r.possibleDuplicate,
  });
}

function fromInput(input: CampaignInput | undefined): CampaignFields {
  if (!input) return {};
  return {
    name: input.name,
    segmentId: input.segmentId,
    templateId: input.templateId,
    craftId: input.craftId,
    subject: input.subject,
    preheader: input.preheader,
    html: input.html,
    abTest: input.abTest
      ? {
          subjectB: input.abTest.subjectB,
          share: input.abTest.share,
          winnerAfterMinutes: input.abTest.winnerAfterMinutes,
        }
      : null,
    sendTimeBy: input.sendTimeBy,
  };
}

const pages = (count: number, pageSize: number) => Math.max(1, Math.ceil(count / pageSize));

/** CampaignsService: campaigns of the caller, and the gateway's public tracking and webhook. */
export function campaignsRoutes(
  deps: CampaignsDeps & TrackingDeps & Pick<NotificationsDeps, "zones">,
  sendgridKey: KeyObject | null,
) {
  return (router: ConnectRouter) =>
    router.service(CampaignsService, {
      async listCampaigns(req, ctx) {
        const result = await listCampaigns(deps, callerOf(ctx), req);
        return {
          campaigns: result.items.map(toCampaign),
          count: result.count,
          currentPage: result.page,
          totalPages: pages(result.count, result.pageSize),
        };
      },
      async createCampaign(req, ctx) {
        return {
          campaign: toCampaign(
            await createCampaign(deps, callerOf(ctx), { projectId: req.projectId, campaign: fromInput(req.campaign) }),
          ),
        };
      },
      async getCampaign(req, ctx) {
        return { campaign: toCampaign(await getCampaign(deps, callerOf(ctx), req.campaignId)) };
      },
      async updateCampaign(req, ctx) {
        const campaign = await updateCampaign(deps, callerOf(ctx), {
          campaignId: req.campaignId,
          campaign: fromInput(req.campaign),
          fields: req.fields,
        });
        return { campaign: toCampaign(campaign) };
      },
      async deleteCampaign(req, ctx) {
        await deleteCampaign(deps, callerOf(ctx), req.campaignId);
        return {};
      },
      async sendCampaign(req, ctx) {
        return { campaign: toCampaign(await sendCampaign(deps, callerOf(ctx), req.campaignId)) };
      },
      async scheduleCampaign(req, ctx) {
        return { campaign: toCampaign(await scheduleCampaign(deps, callerOf(ctx), req)) };
      },
      async pauseCampaign(req, ctx) {
        return { campaign: toCampaign(await pauseCampaign(deps, callerOf(ctx), req.campaignId)) };
      },
      async resumeCampaign(req, ctx) {
        return { campaign: toCampaign(await resumeCampaign(deps, callerOf(ctx), req.campaignId)) };
      },
      async sendTestEmail(req, ctx) {
        return sendTestEmail(deps, callerOf(ctx), req);
      },
      async previewCampaign(req, ctx) {
        const preview = await previewCampaign(deps, callerOf(ctx), req);
        return { ...preview, contact: preview.contact ?? undefined };
      },
      async listRecipients(req, ctx) {
        const result = await listRecipients(deps, callerOf(ctx), req);
        return {
          recipients: result.items.map(toRecipient),
          count: result.count,
          currentPage: result.page,
          totalPages: pages(result.count, result.pageSize),
        };
      },
      async trackOpen(req) {
        return { recorded: await trackOpen(deps, req.token) };
      },
      async trackClick(req) {
        return { url: await trackClick(deps, req.token) };
      },
      async handleSendgridEvents(req) {
        // A business's own SendGrid account is verified with its webhook's key, never the platform's.
        const projectId = req.projectId.slice(0, 64);
        const key = projectId ? ((await deps.email.businessWebhookKey?.(projectId)) ?? null) : sendgridKey;
        const processed = await handleSendgridEvents(deps, key, {
          payload: Buffer.from(req.payload),
          signature: req.signature,
          timestamp: req.timestamp,
          ...(projectId ? { projectId } : {}),
        });
        return { processed };
      },
    });
}
