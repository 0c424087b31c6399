import type { ProfileTypeName } from "@crafter/validation";
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

/**
 * A product's fields from a craft: `input` is the step holding the product's details, `seo` the step
 * whose result has the SEO summary (ProductSetup: details/summary; ProductInfoWriter: product/seo).
 */
function productFields(craft: Craft, input: string, seo: string): Record<string, string | string[] | undefined> {
  return {
    name: text(inputValue(craft, input, "name")),
    description: text(inputValue(craft, input, "description")),
    audience: text(inputValue(craft, input, "audience")),
    pageUrl: text(inputValue(craft, input, "pageUrl")),
    featureList: list(inputValue(craft, input, "features")) ?? list(section(craft, seo, "points")),
    shippingAndReturnsPolicy: text(inputValue(craft, input, "shipping")),
    usage: text(inputValue(craft, input, "usage")),
    keywords: list(inputValue(craft, seo, "keywords")),
    seoSummary: first(section(craft, seo, "seoDescription")) ?? first(section(craft, seo, "summary")),
    pageSlug: first(section(craft, seo, "slug")),
  };
}

/** A service's fields from a craft (ServiceSetup: details/summary; ServiceInfoWriter: service/seo). */
function serviceFields(craft: Craft, input: string, seo: string): Record<string, string | string[] | undefined> {
  return {
    name: text(inputValue(craft, input, "name")),
    description: text(inputValue(craft, input, "description")),
    audience: text(inputValue(craft, input, "audience")),
    benefits: list(inputValue(craft, input, "benefits")) ?? list(section(craft, seo, "points")),
    terms: text(inputValue(craft, input, "terms")),
    webPageUrl: text(inputValue(craft, input, "pageUrl")),
    keywords: list(inputValue(craft, seo, "keywords")),
    summary: first(section(craft, seo, "summary")),
  };
}

function fieldsOf(craft: Craft): Record<string, string | string[] | undefined> {
  switch (craft.workflowName) {
    case "ProductSetup":
      return productFields(craft, "details", "summary");
    case "ProductInfoWriter":
      return productFields(craft, "product", "seo");
    case "ServiceSetup":
      return serviceFields(craft, "details", "summary");
    case "ServiceInfoWriter":
      return serviceFields(craft, "service", "seo");
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
