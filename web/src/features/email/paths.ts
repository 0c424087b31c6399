import type { TemplateKind } from "../../api/email";

/** The email area's pages. */
export const EMAIL_PAGES = {
  emailGallery: "/app/create/email",
  socialGallery: "/app/create/social-media-post",
  emailDesigner: "/app/create/email/:templateId",
  socialDesigner: "/app/create/social-media-post/:templateId",
  campaigns: "/app/email/campaigns",
  newCampaign: "/app/email/campaigns/new",
  campaign: "/app/email/campaigns/:id",
  editCampaign: "/app/email/campaigns/:id/edit",
} as const;

export function galleryPath(kind: TemplateKind): string {
  return kind === "social" ? EMAIL_PAGES.socialGallery : EMAIL_PAGES.emailGallery;
}

export function designerPath(kind: TemplateKind, templateId: string): string {
  return `${galleryPath(kind)}/${encodeURIComponent(templateId)}`;
}

export function campaignPath(id: string): string {
  return `/app/email/campaigns/${encodeURIComponent(id)}`;
}
