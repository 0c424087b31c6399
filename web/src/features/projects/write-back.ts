import type { ProfileTypeName } from "@crafter/kit/validation";
import type { Craft, CraftStep } from "../../api/types";

/**
 * What a finished craft of a setup or info workflow writes back to a profile (issue 12: "the
 * results of ProductSetup, ServiceSetup, ProductInfoWriter, ServiceInfoWriter, BusinessSetup and
 * Campaign can be written back to the profile with one click"). Pure: the craft's step values and
 * latest results in, the profile values (spec field keys) and sections out.
 */
export const WRITE_BACK_TYPES: Record<string, ProfileTypeName> = {
  ProductSetup: "PRODUCT",
  ProductInfoWriter: "PRODUCT",
  ServiceSetup: "SERVICE",
  ServiceInfoWriter: "SERVICE",
  BusinessSetup: "PROJECT",
  Campaign: "CAMPAIGN",
};

export interface WriteBack {
  type: ProfileTypeName;
  values: Record<string, string | string[]>;
  sections: {
    profileReference: { profileReferenceId: string; profileReferenceType: string };
    steps: { name: string; values: Record<string, unknown> }[];
    results: { step: string; content: unknown; sections?: Record<string, string[]> }[];
    inputBindingValues: Record<string, unknown>;
  };
}

function stepOf(craft: Craft, name: string): CraftStep | undefined {
  return craft.steps.find((step) => step.name === name);
}

function inputValue(craft: Craft, step: string, input: string): unknown {
  return stepOf(craft, step)?.values?.[input];
}

function section(craft: Craft, step: string, key: string): string[] {
  const results = stepOf(craft, step)?.results ?? [];
  const latest = results[results.length - 1];
  const items = latest?.sections?.[key];
  return Array.isArray(items) ? items.filter((item): item is string => typeof item === "string") : [];
}

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;

function list(value: unknown): string[] | undefined {
  const items = Array.isArray(value)
    ? value.filter((item): item is string => typeof item === "string" && item.trim() !== "")
    : typeof value === "string"
      ? value
          .split(/\n|,/)
          .map((item) => item.trim())
          .filter(Boolean)
      : [];
  return items.length > 0 ? items : undefined;
}

const first = (items: string[]) => text(items[0]);

/** Drops the fields that came out empty, so a write-back never blanks a field the craft did not fill. */
function compact(values: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Record<
    string,
    string | string[]
  >;
}

function fieldsOf(craft: Craft): Record<string, string | string[] | undefined> {
  switch (craft.workflowName) {
    case "ProductSetup":
      return {
        name: text(inputValue(craft, "details", "name")),
        description: text(inputValue(craft, "details", "description")),
        audience: text(inputValue(craft, "details", "audience")),
        pageUrl: text(inputValue(craft, "details", "pageUrl")),
        featureList: list(inputValue(craft, "details", "features")) ?? list(section(craft, "summary", "points")),
        shippingAndReturnsPolicy: text(inputValue(craft, "details", "shipping")),
        usage: text(inputValue(craft, "details", "usage")),
        keywords: list(inputValue(craft, "summary", "keywords")),
        seoSummary: first(section(craft, "summary", "seoDescription")) ?? first(section(craft, "summary", "summary")),
        pageSlug: first(section(craft, "summary", "slug")),
      };
    case "ProductInfoWriter":
      return {
        name: text(inputValue(craft, "product", "name")),
        description: text(inputValue(craft, "product", "description")),
        audience: text(inputValue(craft, "product", "audience")),
        featureList: list(inputValue(craft, "product", "features")) ?? list(section(craft, "seo", "points")),
        shippingAndReturnsPolicy: text(inputValue(craft, "product", "shipping")),
        usage: text(inputValue(craft, "product", "usage")),
        keywords: list(inputValue(craft, "seo", "keywords")),
        seoSummary: first(section(craft, "seo", "seoDescription")) ?? first(section(craft, "seo", "summary")),
        pageSlug: first(section(craft, "seo", "slug")),
      };
    case "ServiceSetup":
      return {
        name: text(inputValue(craft, "details", "name")),
        description: text(inputValue(craft, "details", "description")),
        audience: text(inputValue(craft, "details", "audience")),
        benefits: list(inputValue(craft, "details", "benefits")) ?? list(section(craft, "summary", "points")),
        terms: text(inputValue(craft, "details", "terms")),
        webPageUrl: text(inputValue(craft, "details", "pageUrl")),
        keywords: list(inputValue(craft, "summary", "keywords")),
        summary: first(section(craft, "summary", "summary")),
      };
    case "ServiceInfoWriter":
      return {
        name: text(inputValue(craft, "service", "name")),
        description: text(inputValue(craft, "service", "description")),
        audience: text(inputValue(craft, "service", "audience")),
        benefits: list(inputValue(craft, "service", "benefits")) ?? list(section(craft, "seo", "points")),
        terms: text(inputValue(craft, "service", "terms")),
        keywords: list(inputValue(craft, "seo", "keywords")),
        summary: first(section(craft, "seo", "summary")),
      };
    case "BusinessSetup":
      return {
        name: first(section(craft, "profile", "name")) ?? text(inputValue(craft, "start", "businessName")),
        description:
          first(section(craft, "profile", "description")) ?? text(inputValue(craft, "profile", "description")),
        audience: first(section(craft, "profile", "audience")) ?? text(inputValue(craft, "profile", "audience")),
        keywords: list(section(craft, "profile", "keywords")) ?? list(inputValue(craft, "profile", "keywords")),
        websiteUrl: text(inputValue(craft, "audit", "websiteUrl")),
      };
    case "Campaign":
      return {
        name: text(inputValue(craft, "brief", "campaignName")),
        objective: text(inputValue(craft, "brief", "goal")),
        audience: text(inputValue(craft, "brief", "audience")),
        message: text(inputValue(craft, "brief", "message")),
        startDate: text(inputValue(craft, "brief", "startDate")),
        endDate: text(inputValue(craft, "brief", "endDate")),
        slogan: first(section(craft, "brief", "slogans")),
        description: first(section(craft, "brief", "summary")),
      };
    default:
      return {};
  }
}

/** The write-back of a craft, or null when its workflow writes nothing back or it produced nothing yet. */
export function writeBackOf(craft: Craft): WriteBack | null {
  const type = WRITE_BACK_TYPES[craft.workflowName];
  if (!type) return null;
  const values = compact(fieldsOf(craft));
  if (Object.keys(values).length === 0) return null;
  const steps = craft.steps.filter((step) => step.values && Object.keys(step.values).length > 0);
  return {
    type,
    values,
    sections: {
      profileReference: { profileReferenceId: craft.craftId, profileReferenceType: craft.workflowName },
      steps: steps.map((step) => ({ name: step.name, values: step.values ?? {} })),
      results: craft.steps.flatMap((step) => {
        const latest = step.results?.[step.results.length - 1];
        return latest ? [{ step: step.name, content: latest.content, sections: latest.sections }] : [];
      }),
      inputBindingValues: Object.assign({}, ...steps.map((step) => step.values ?? {})),
    },
  };
}
