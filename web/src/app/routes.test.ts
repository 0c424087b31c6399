import { describe, expect, it } from "@jest/globals";
import { CREATE_WORKFLOWS, createHref, PAGES } from "./route-data";

describe("the route table's data", () => {
  it("has the pages of issue 3, each once", () => {
    expect(Object.values(PAGES)).toEqual([
      "/app/crafts/:workflowName",
      "/app/workflows",
      "/app/tools",
      "/app/smart-documents",
      "/app/smart-documents/tools",
      "/app/smart-documents/crafts",
      "/app/favorites",
      "/app/settings/subscription",
      "/app/settings/wallet",
    ]);
  });

  it("drives the Create menu: a craft page per workflow, the galleries for Email and Social media post", () => {
    expect(CREATE_WORKFLOWS.map((entry) => [entry.label, entry.workflowName])).toEqual([
      ["Campaign strategy", "Campaign"],
      ["Email", "EmailWriter"],
      ["Social media post", "SocialMediaPostWriter"],
      ["Blog post", "BlogWriter"],
      ["Podcast", "PodcastWriter"],
      ["Ad", "AdsWriter"],
      ["Web page", "WebPageWriter"],
      ["Smart document", "SmartEditor"],
    ]);
    expect(CREATE_WORKFLOWS.map(createHref)).toEqual([
      "/app/crafts/Campaign",
      "/app/create/email",
      "/app/create/social-media-post",
      "/app/crafts/BlogWriter",
      "/app/crafts/PodcastWriter",
      "/app/crafts/AdsWriter",
      "/app/crafts/WebPageWriter",
      "/app/crafts/SmartEditor?standalone=1",
    ]);
    const testIds = CREATE_WORKFLOWS.map((entry) => entry.testId);
    expect(new Set(testIds).size).toBe(testIds.length);
    expect(testIds).toContain("nav-create-blog-post");
  });
});
