import { z } from "zod";
import type { Campaign, CampaignInput, CampaignStatus } from "../../../api/email";

/** The composer's form: what the user types, checked before anything is sent. */
export const campaignFormSchema = z
  .object({
    name: z.string().trim().min(1, "A name is required.").max(200, "At most 200 characters."),
    segmentId: z.string().min(1, "Choose a segment."),
    source: z.enum(["template", "craft"]),
    templateId: z.string(),
    craftId: z.string(),
    // Empty: the template's or the email craft's subject (the server fills it in).
    subject: z.string().trim().max(300, "At most 300 characters."),
    preheader: z.string().max(200, "At most 200 characters."),
    abEnabled: z.boolean(),
    subjectB: z.string().max(300, "At most 300 characters."),
    share: z.number().int().min(10, "10 to 50 percent.").max(50, "10 to 50 percent."),
    winnerAfterMinutes: z.number().int().min(30, "At least 30 minutes.").max(10_080, "At most a week."),
    // Whose wall clock the scheduled time is read on: the business's, or each contact's own zone.
    sendTimeBy: z.enum(["business", "contact"]),
  })
  .superRefine((v, ctx) => {
    if (v.source === "template" && !v.templateId)
      ctx.addIssue({ code: "custom", path: ["templateId"], message: "Choose a template." });
    if (v.source === "craft" && !v.craftId)
      ctx.addIssue({ code: "custom", path: ["craftId"], message: "Choose an email craft." });
    if (v.abEnabled && !v.subjectB.trim())
      ctx.addIssue({ code: "custom", path: ["subjectB"], message: "Write the second subject." });
    if (v.abEnabled && v.subjectB.trim() !== "" && v.subjectB.trim() === v.subject.trim())
      ctx.addIssue({ code: "custom", path: ["subjectB"], message: "The two subjects must differ." });
    if (v.abEnabled && v.sendTimeBy === "contact")
      ctx.addIssue({ code: "custom", path: ["sendTimeBy"], message: LOCAL_TIME_WITH_AB_TEST });
  });

/** Why the form refuses each contact's local time with an A/B test (the server says the same). */
export const LOCAL_TIME_WITH_AB_TEST =
  "An A/B test needs one send window to pick its winner: send at the business's time, or turn the A/B test off.";

export type CampaignForm = z.infer<typeof campaignFormSchema>;

export const EMPTY_CAMPAIGN_FORM: CampaignForm = {
  name: "",
  segmentId: "",
  source: "template",
  templateId: "",
  craftId: "",
  subject: "",
  preheader: "",
  abEnabled: false,
  subjectB: "",
  share: 20,
  winnerAfterMinutes: 240,
  sendTimeBy: "business",
};

/** The contract's campaign body from the form: one content source, the A/B test only when on. */
export function toCampaignInput(form: CampaignForm): CampaignInput {
  return {
    name: form.name.trim(),
    segmentId: form.segmentId,
    ...(form.source === "template" ? { templateId: form.templateId } : { craftId: form.craftId }),
    subject: form.subject.trim(),
    preheader: form.preheader.trim(),
    ...(form.abEnabled
      ? { abTest: { subjectB: form.subjectB.trim(), share: form.share, winnerAfterMinutes: form.winnerAfterMinutes } }
      : {}),
    sendTimeBy: form.sendTimeBy,
  };
}

/** The form of a stored campaign (to edit a draft or a scheduled one). */
export function fromCampaign(c: Campaign): CampaignForm {
  return {
    name: c.name,
    segmentId: c.segmentId,
    source: c.craftId && !c.templateId ? "craft" : "template",
    templateId: c.templateId ?? "",
    craftId: c.craftId ?? "",
    subject: c.subject,
    preheader: c.preheader,
    abEnabled: !!c.abTest,
    subjectB: c.abTest?.subjectB ?? "",
    share: c.abTest?.share ?? 20,
    winnerAfterMinutes: c.abTest?.winnerAfterMinutes ?? 240,
    sendTimeBy: c.sendTimeBy === "contact" ? "contact" : "business",
  };
}

/**
 * How far a campaign at each contact's local time has come, in words ("" for one at the business's
 * time): "Starts 28 Mar 19:00, when the first time zone reaches 09:00" before its recipients are
 * known, then "2 of 4 released, next at 29 Mar 17:00", then "All 4 released".
 * @param time an instant as the business reads it.
 */
export function releaseSummary(
  c: Pick<Campaign, "sendTimeBy" | "startsAt" | "scheduledAt" | "release" | "status">,
  time: (iso: string) => string,
): string {
  if (c.sendTimeBy !== "contact") return "";
  if (c.release) {
    const { released, total, nextAt } = c.release;
    if (!nextAt) return total === 1 ? "Its one recipient is released" : `All ${numbers.format(total)} released`;
    return `${numbers.format(released)} of ${numbers.format(total)} released, next at ${time(nextAt)}`;
  }
  if (c.status === "scheduled" && c.startsAt) return `Starts ${time(c.startsAt)}, when the first time zone reaches it`;
  return "";
}

/** Only drafts and scheduled campaigns change (contract). */
export function isEditable(status: CampaignStatus): boolean {
  return status === "draft" || status === "scheduled";
}

/** A 0–1 rate as a percentage with one decimal ("—" before anything was sent). */
export function formatRate(rate: number | undefined, sent: number): string {
  if (!sent || rate === undefined || !Number.isFinite(rate)) return "—";
  return `${(Math.round(rate * 1000) / 10).toFixed(1)}%`;
}

export const STATUS_COLOURS: Record<CampaignStatus, string> = {
  draft: "default",
  scheduled: "blue",
  sending: "processing",
  paused: "warning",
  sent: "success",
  failed: "error",
};

/**
 * The business profile's postal address ("" when it has none): every campaign email carries it
 * (CAN-SPAM), and a campaign is not sent or scheduled without it.
 */
export function businessAddressOf(profile: { fields?: Record<string, unknown> } | null | undefined): string {
  const address = profile?.fields?.address;
  return typeof address === "string" ? address.trim() : "";
}

const EXCLUSION_LABELS: Record<string, string> = {
  pending: "pending consent (no opt-in yet)",
  unsubscribed: "unsubscribed",
  bounced: "bounced before",
  complained: "marked an email as spam",
  no_email: "without an email address",
};

const numbers = new Intl.NumberFormat("en");
const plurals = new Intl.PluralRules("en");

/** "1 contact", "1,200 contacts". */
export function contactCount(n: number): string {
  return `${numbers.format(n)} ${plurals.select(n) === "one" ? "contact" : "contacts"}`;
}

/**
 * Who gets the campaign, in words: "2 of the segment's 3 contacts get it; 1 does not: 1 pending
 * consent (no opt-in yet)."
 */
export function audienceSummary(preview: {
  members: number;
  recipients: number;
  excluded: { reason: string; count: number }[];
}): { headline: string; excluded: string[] } {
  if (preview.members === 0) return { headline: "The segment has no contacts yet: nobody would get it.", excluded: [] };
  const left = preview.members - preview.recipients;
  const headline =
    left === 0
      ? preview.members === 1
        ? "The segment's one contact gets it."
        : `All ${contactCount(preview.members)} in the segment get it.`
      : `${numbers.format(preview.recipients)} of the segment's ${contactCount(preview.members)} get it; ${numbers.format(left)} ${left === 1 ? "does" : "do"} not.`;
  return {
    headline,
    excluded: preview.excluded.map((e) => `${numbers.format(e.count)} ${EXCLUSION_LABELS[e.reason] ?? e.reason}`),
  };
}

/**
 * The subject lines an email craft offers (EmailWriter's "Write subject lines" results, the
 * selected result first), without repeats and without `except` (the subject already in use), for
 * the A/B test's second subject. Compared case-insensitively, as inboxes show them.
 */
export function craftSubjectLines(
  steps: readonly { results?: readonly { sections?: Record<string, string[]>; selected?: boolean }[] }[] | undefined,
  except = "",
): string[] {
  const results = (steps ?? []).flatMap((step) => step.results ?? []);
  const ordered = [...results.filter((r) => r.selected), ...results.filter((r) => !r.selected)];
  const seen = new Set([except.trim().toLowerCase()]);
  const lines: string[] = [];
  for (const line of ordered.flatMap((r) => r.sections?.subjects ?? [])) {
    const key = line.trim().toLowerCase();
    if (!key || seen.has(key)) continue;
    seen.add(key);
    lines.push(line.trim());
  }
  return lines;
}
