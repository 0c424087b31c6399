import type { ProfileTypeName } from "@crafter/validation";

/**
 * The profile areas of the workspace (spec section 2: offerings/product, offerings/service and
 * campaign each have a base page, a tools page and a crafts page): which profile type each holds
 * and the workflows its tools page offers, the setup workflow first.
 */
export interface ProfileArea {
  type: Exclude<ProfileTypeName, "PROJECT">;
  base: string;
  title: string;
  /** One profile, lower case ("product"). */
  one: string;
  subtitle: string;
  tools: string[];
  help: string;
}

export const PRODUCT_AREA: ProfileArea = {
  type: "PRODUCT",
  base: "/app/offerings/product",
  title: "Products",
  one: "product",
  subtitle: "The products you sell: their details feed every craft written for them.",
  tools: [
    "ProductSetup",
    "ProductInfoWriter",
    "ProductIdeaList",
    "AdsWriter",
    "FacebookAdsWriter",
    "GoogleAdsWriter",
    "SocialMediaPostWriter",
    "EmailWriter",
    "WebPageWriter",
    "BlogWriter",
  ],
  help: "offerings-product",
};

export const SERVICE_AREA: ProfileArea = {
  type: "SERVICE",
  base: "/app/offerings/service",
  title: "Services",
  one: "service",
  subtitle: "The services you offer: their benefits and terms feed every craft written for them.",
  tools: [
    "ServiceSetup",
    "ServiceInfoWriter",
    "AdsWriter",
    "FacebookAdsWriter",
    "GoogleAdsWriter",
    "SocialMediaPostWriter",
    "EmailWriter",
    "WebPageWriter",
    "BlogWriter",
  ],
  help: "offerings-service",
};

export const CAMPAIGN_AREA: ProfileArea = {
  type: "CAMPAIGN",
  base: "/app/campaign",
  title: "Campaigns",
  one: "campaign",
  subtitle: "Time-boxed pushes with an objective, a message and dates.",
  tools: [
    "Campaign",
    "EmailWriter",
    "SocialMediaPostWriter",
    "AdsWriter",
    "FacebookAdsWriter",
    "GoogleAdsWriter",
    "BlogWriter",
  ],
  help: "campaign",
};

/** The Strategy page's workflows (business/crafts): brand and audience work and the research tools. */
export const STRATEGY_WORKFLOWS = [
  "BrandMessaging",
  "VisualIdentity",
  "AudienceSegmentDiscovery",
  "BusinessOptimization",
  "CompetitorResearch",
  "KeywordResearch",
  "TopicResearch",
];

/** The business tools page's workflows. */
export const BUSINESS_TOOLS = ["BusinessSetup", "BusinessInitiation", ...STRATEGY_WORKFLOWS];

export const areaSections = (area: Pick<ProfileArea, "base">, baseLabel: string) => [
  { path: area.base, label: baseLabel },
  { path: `${area.base}/tools`, label: "Tools" },
  { path: `${area.base}/crafts`, label: "Crafts" },
];
