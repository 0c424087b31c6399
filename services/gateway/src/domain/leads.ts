import type { JsonValue } from "@bufbuild/protobuf";
import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";
import type {
  AssistantSession,
  LeadAssistant,
  LeadForm,
  LeadSubmission,
} from "@crafter/proto/crafter/contacts/v1/leads_pb";
import { type Profile, ProfileType } from "@crafter/proto/crafter/projects/v1/projects_pb";

/** The lead capture JSON of docs/second-half-contract.md (Contacts REST: Lead form, Lead assistant). Pure. */
const iso = (t: Timestamp | undefined): string | null => (t ? timestampDate(t).toISOString() : null);

export const toLeadFormJson = (form: LeadForm | undefined) => ({
  id: form?.id ?? "",
  title: form?.title ?? "",
  fields: (form?.fields ?? []).map((f) => ({
    key: f.key,
    label: f.label,
    type: f.type,
    required: f.required,
    ...(f.options.length > 0 ? { options: f.options } : {}),
  })),
  consentText: form?.consentText ?? "",
  thankYouMessage: form?.thankYouMessage ?? "",
  doubleOptIn: true as const,
});

export const toSubmissionJson = (s: LeadSubmission) => ({
  id: s.id,
  email: s.email,
  values: (s.values ?? {}) as Record<string, JsonValue>,
  contactId: s.contactId,
  status: s.status,
  createdAt: iso(s.createdAt),
});

export const toAssistantJson = (a: LeadAssistant | undefined) => ({
  id: a?.id ?? "",
  greeting: a?.greeting ?? "",
  questions: a?.questions ?? [],
  tone: a?.tone ?? "friendly",
  enabled: a?.enabled ?? false,
});

export const toSessionJson = (s: AssistantSession | undefined, withMessages: boolean) => ({
  id: s?.id ?? "",
  startedAt: iso(s?.startedAt),
  updatedAt: iso(s?.updatedAt),
  lead: s?.lead ? { name: s.lead.name, email: s.lead.email, contactId: s.lead.contactId } : null,
  messageCount: s?.messageCount ?? 0,
  tooLong: s?.tooLong ?? false,
  ...(withMessages
    ? { messages: (s?.messages ?? []).map((m) => ({ role: m.role, content: m.content, at: iso(m.at) })) }
    : {}),
});

const TYPE_LABEL: Partial<Record<ProfileType, string>> = {
  [ProfileType.PROJECT]: "Business",
  [ProfileType.PRODUCT]: "Product",
  [ProfileType.SERVICE]: "Service",
  [ProfileType.CAMPAIGN]: "Campaign",
};

const text = (value: unknown): string =>
  typeof value === "string"
    ? value.trim()
    : Array.isArray(value)
      ? value.map(text).filter(Boolean).join(", ")
      : typeof value === "number"
        ? String(value)
        : "";

/**
 * What the lead assistant answers from: the business profile and its offerings (products,
 * services, campaigns) as plain sentences, and the business's name. Image and URL fields are left out.
 */
export function assistantKnowledge(profiles: readonly Profile[]): { knowledge: string; businessName: string } {
  const business = profiles.find((p) => p.type === ProfileType.PROJECT);
  const ordered = [...profiles].sort((a, b) =>
    a.type === ProfileType.PROJECT ? -1 : b.type === ProfileType.PROJECT ? 1 : 0,
  );
  const lines: string[] = [];
  for (const profile of ordered) {
    const label = TYPE_LABEL[profile.type] ?? "Profile";
    const parts: string[] = [];
    if (profile.name) parts.push(`${label}: ${profile.name}.`);
    if (profile.description) parts.push(profile.description.trim());
    if (profile.audience) parts.push(`Audience: ${profile.audience.trim()}.`);
    if (profile.keywords.length > 0) parts.push(`Keywords: ${profile.keywords.join(", ")}.`);
    for (const [key, value] of Object.entries(profile.fields ?? {})) {
      if (/image|logo|url|link|color/i.test(key) || ["name", "description", "audience", "keywords"].includes(key))
        continue;
      const written = text(value);
      if (written) parts.push(`${key.replace(/([a-z])([A-Z])/g, "$1 $2")}: ${written}.`.replace(/\.\.$/, "."));
    }
    if (profile.websiteUrl) parts.push(`Website: ${profile.websiteUrl}`);
    if (parts.length > 0) lines.push(parts.join(" "));
  }
  return { knowledge: lines.join("\n").slice(0, 50_000), businessName: business?.name ?? profiles[0]?.name ?? "" };
}
