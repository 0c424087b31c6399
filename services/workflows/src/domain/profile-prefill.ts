import type { JsonValue } from "@bufbuild/protobuf";
import type { ProfileSnapshot } from "./types";

/**
 * Prefill of a step input from the craft's PRODUCT, SERVICE or CAMPAIGN profile by the input's
 * name, for inputs whose definition names no `defaultFrom` (every input prefills from the profile the
 * context selector chose). Each input name maps to the profile fields (spec names, see
 * PROFILE_FIELD_DEFS in @crafter/validation) tried in order. The business (PROJECT) profile
 * keeps the definitions' own `defaultFrom` references only: its name is not a product's name.
 * The value is coerced to the input's shape by the caller, so a field that does not fit (a text in
 * a select) prefills nothing.
 */
export const PROFILE_INPUT_ALIASES: Record<string, string[]> = {
  name: ["name"],
  productName: ["name"],
  serviceName: ["name"],
  campaignName: ["name"],
  offeringName: ["name"],
  description: ["description"],
  productDescription: ["description"],
  serviceDescription: ["description"],
  audience: ["audience"],
  targetAudience: ["audience"],
  keywords: ["keywords"],
  pageUrl: ["pageUrl", "webPageUrl", "websiteUrl"],
  webPageUrl: ["webPageUrl", "pageUrl", "websiteUrl"],
  url: ["pageUrl", "webPageUrl", "websiteUrl"],
  websiteUrl: ["websiteUrl", "pageUrl", "webPageUrl"],
  features: ["featureList", "benefits"],
  featureList: ["featureList"],
  shipping: ["shippingAndReturnsPolicy"],
  shippingAndReturnsPolicy: ["shippingAndReturnsPolicy"],
  seoSummary: ["seoSummary"],
  pageSlug: ["pageSlug"],
  slug: ["pageSlug"],
  usage: ["usage"],
  benefits: ["benefits", "featureList"],
  terms: ["terms"],
  tone: ["tone"],
  message: ["message", "slogan"],
  objective: ["objective"],
  goal: ["objective"],
  slogan: ["slogan"],
  startDate: ["startDate"],
  endDate: ["endDate"],
  logoImage: ["logoImage"],
  images: ["images"],
  offer: ["slogan", "message"],
  product: ["name"],
  service: ["name"],
  topic: ["name"],
};

const OWN_FIELDS = ["name", "description", "audience", "keywords", "websiteUrl"] as const;

/** A field of the snapshot: its own columns, else the type-specific `fields`. */
export function fieldOf(profile: ProfileSnapshot, key: string): JsonValue | undefined {
  const own = OWN_FIELDS.find((field) => field === key);
  return own ? profile[own] : profile.fields?.[key];
}

const empty = (value: JsonValue | undefined) =>
  value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);

/** The profile value for an input named `inputName`, or undefined (no alias, no value, or the business profile). */
export function profilePrefill(inputName: string, profile: ProfileSnapshot | null): JsonValue | undefined {
  if (!profile?.type || profile.type === "PROJECT") return undefined;
  for (const key of PROFILE_INPUT_ALIASES[inputName] ?? []) {
    const value = fieldOf(profile, key);
    if (!empty(value)) return value;
  }
  return undefined;
}
