// Workflow definitions are data: one module per workflow version holding a plain JSON-shaped
// object, listed here and validated when loaded. (Plain .ts rather than .json so that Node,
// esbuild and jest's ESM loader all import them alike.)
import { adsWriterV1 } from "./ads-writer.v1";
import { audienceSegmentDiscoveryV1 } from "./audience-segment-discovery.v1";
import { blogWriterV1 } from "./blog-writer.v1";
import { brandMessagingV1 } from "./brand-messaging.v1";
import { businessInitiationV1 } from "./business-initiation.v1";
import { businessOptimizationV1 } from "./business-optimization.v1";
import { businessSetupV1 } from "./business-setup.v1";
import { campaignV1 } from "./campaign.v1";
import { competitorResearchV1 } from "./competitor-research.v1";
import { emailWriterV1 } from "./email-writer.v1";
import { facebookAdsWriterV1 } from "./facebook-ads-writer.v1";
import { engineCheckV1 } from "./fixtures/engine-check.v1";
import { googleAdsWriterV1 } from "./google-ads-writer.v1";
import { keywordResearchV1 } from "./keyword-research.v1";
import { podcastWriterV1 } from "./podcast-writer.v1";
import { productIdeaListV1 } from "./product-idea-list.v1";
import { productInfoWriterV1 } from "./product-info-writer.v1";
import { productSetupV1 } from "./product-setup.v1";
import { serviceInfoWriterV1 } from "./service-info-writer.v1";
import { serviceSetupV1 } from "./service-setup.v1";
import { smartEditorV1 } from "./smart-editor.v1";
import { socialMediaPostWriterV1 } from "./social-media-post-writer.v1";
import { topicResearchV1 } from "./topic-research.v1";
import { visualDesignerV1 } from "./visual-designer.v1";
import { visualIdentityV1 } from "./visual-identity.v1";
import { webPageWriterV1 } from "./web-page-writer.v1";

/** Every workflow of the spec (section 3), listed in the headers in this order. */
export const DEFINITIONS: unknown[] = [
  audienceSegmentDiscoveryV1,
  adsWriterV1,
  blogWriterV1,
  brandMessagingV1,
  businessInitiationV1,
  businessOptimizationV1,
  businessSetupV1,
  campaignV1,
  competitorResearchV1,
  emailWriterV1,
  facebookAdsWriterV1,
  googleAdsWriterV1,
  keywordResearchV1,
  productIdeaListV1,
  productInfoWriterV1,
  productSetupV1,
  serviceInfoWriterV1,
  serviceSetupV1,
  smartEditorV1,
  socialMediaPostWriterV1,
  visualIdentityV1,
  visualDesignerV1,
  webPageWriterV1,
  podcastWriterV1,
  topicResearchV1,
];

/** Hidden workflows for the integration tests (WORKFLOWS_TEST_FIXTURES=true): never in headers. */
export const TEST_DEFINITIONS: unknown[] = [engineCheckV1];
