import { type GatewaySession, verifiedSession } from "@crafter/kit/testing";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";
import type { Craft } from "../../../web/src/api/types";
import { writeBackOf } from "../../../web/src/features/projects/write-back";

// Projects, profiles and reviews through the gateway and the real services: the
// switch, profiles of the four types with their fields and sections, prefills for every type, the
// crafts of a profile, write-backs, and reviews.

// Step completions run the offline engine, which streams with pauses.
jest.setTimeout(90_000);

let session: GatewaySession;
let firstProject: { projectId: string; profileId: string };

const del = (path: string) => session.request("DELETE", path, {});
const patch = (path: string, body: unknown) => session.request("PATCH", path, body);

async function createProject(name: string) {
  const created = await session.post("/api/projects/createProject", {
    name,
    description: `${name} repairs and sells bikes in Leeds, with same-day puncture repair.`,
    audience: "Commuters and weekend riders",
    keywords: ["bike repair", "puncture", "leeds"],
  });
  expect(created.status).toBe(201);
  return { projectId: created.body.result.project.projectId, profileId: created.body.result.profile.profileId };
}

const product = {
  name: "Trail Bike 29",
  keywords: ["trail bike", "mountain bike"],
  audience: "Weekend trail riders",
  description: "A light aluminium trail bike with 29-inch wheels.",
  pageUrl: "spokes.example.com/trail-bike",
  featureList: ["12-speed drivetrain", "Hydraulic disc brakes", "Tubeless-ready wheels"],
  shippingAndReturnsPolicy: "Free delivery in Leeds; 30-day returns.",
  seoSummary: "A light 29er trail bike for weekend riders.",
  pageSlug: "Trail Bike 29",
  usage: "Check tyre pressure before each ride.",
  logoImage: "https://spokes.example.com/logo.png",
  images: ["https://spokes.example.com/bike.jpg"],
};
const service = {
  name: "Same-day puncture repair",
  keywords: ["puncture repair"],
  audience: "Commuters",
  description: "We fix your puncture the day you bring it in.",
  benefits: ["Back on the road today", "Fixed price"],
  terms: "Drop off before noon.",
  summary: "Punctures fixed the same day for a fixed price.",
  webPageUrl: "https://spokes.example.com/puncture",
  logoImage: "",
  images: [],
};
const campaign = {
  name: "Spring tune-up",
  audience: "Riders getting their bikes out after winter",
  keywords: ["tune-up", "spring"],
  tone: "Friendly",
  description: "Our spring service offer.",
  message: "Get your bike spring-ready",
  startDate: "2026-03-01",
  endDate: "2026-04-15",
  objective: "Book 80 tune-ups",
  slogan: "Ride into spring",
  logoImage: "",
  images: [],
};

beforeAll(async () => {
  ({ session } = await verifiedSession("workspace"));
  firstProject = await createProject("Spokes Cycles");
});

describe("projects", () => {
  it("lists, renames, switches (id, title and profile together) and deletes projects", async () => {
    const second = await createProject("Pedal Co");
    const listed = await session.get("/api/projects");
    expect(listed.body.result.projects.map((p: { projectId: string }) => p.projectId)).toEqual([
      firstProject.projectId,
      second.projectId,
    ]);

    const renamed = await patch(`/api/projects/${second.projectId}`, { projectTitle: "  Pedal & Co  " });
    expect(renamed.status).toBe(200);
    expect(renamed.body.result.projectTitle).toBe("Pedal & Co");
    expect((await session.get(`/api/profiles/${second.profileId}`)).body.result.name).toBe("Pedal & Co");
    expect((await patch(`/api/projects/${second.projectId}`, { projectTitle: " " })).status).toBe(400);

    // The first project is active; a switch naming a stale current id is refused.
    const stale = await session.put("/api/projects/active-project", {
      currentActiveId: second.projectId,
      newActiveId: second.projectId,
    });
    expect(stale.status).toBe(409);
    const switched = await session.put("/api/projects/active-project", {
      currentActiveId: firstProject.projectId,
      newActiveId: second.projectId,
    });
    expect(switched.status).toBe(200);
    expect(switched.body.result).toMatchObject({
      projectId: second.projectId,
      projectTitle: "Pedal & Co",
      profile: { profileId: second.profileId, profileType: "PROJECT" },
    });
    const initial = await session.get("/api/app/initial");
    expect(initial.body.result.activeProjectInfo).toMatchObject({
      projectId: second.projectId,
      projectTitle: "Pedal & Co",
      profile: { profileId: second.profileId, name: "Pedal & Co" },
    });

    // Deleting the active project falls back to the other one; the only project cannot go.
    const deleted = await del(`/api/projects/${second.projectId}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.result).toEqual({ deleted: true, activeProjectId: firstProject.projectId });
    expect((await session.get(`/api/profiles/${second.profileId}`)).status).toBe(404);
    expect((await session.get("/api/projects/active-project")).body.result.projectId).toBe(firstProject.projectId);
    const only = await del(`/api/projects/${firstProject.projectId}`);
    expect(only.status).toBe(400);
    expect(only.body.errorMessage).toMatch(/at least one project/);
    expect((await del("/api/projects/not-mine")).status).toBe(404);
  });

  it("keeps other users out of a user's projects and profiles", async () => {
    const { session: other } = await verifiedSession("workspace-other");
    expect((await other.get(`/api/profiles/${firstProject.profileId}`)).status).toBe(404);
    expect((await other.request("DELETE", `/api/projects/${firstProject.projectId}`, {})).status).toBe(404);
    expect(
      (await other.request("PATCH", `/api/profiles/${firstProject.profileId}`, { values: { name: "Mine" } })).status,
    ).toBe(404);
  });
});

describe("profiles of the four types", () => {
  it("creates a product, a service and a campaign with every spec field", async () => {
    const madeProduct = await session.post("/api/profiles", { profileType: "PRODUCT", values: product });
    expect(madeProduct.status).toBe(201);
    expect(madeProduct.body.result).toMatchObject({
      profileType: "PRODUCT",
      projectId: firstProject.projectId,
      name: product.name,
      keywords: product.keywords,
      audience: product.audience,
      description: product.description,
      fields: {
        pageUrl: "https://spokes.example.com/trail-bike",
        featureList: product.featureList,
        shippingAndReturnsPolicy: product.shippingAndReturnsPolicy,
        seoSummary: product.seoSummary,
        pageSlug: "trail-bike-29",
        usage: product.usage,
        logoImage: product.logoImage,
        images: product.images,
      },
      sections: {
        crafts: [],
        profileReference: null,
        steps: [],
        results: [],
        profileItems: [],
        inputBindingValues: {},
      },
    });
    const madeService = await session.post("/api/profiles", { profileType: "SERVICE", values: service });
    expect(madeService.status).toBe(201);
    expect(madeService.body.result.fields).toMatchObject({
      benefits: service.benefits,
      terms: service.terms,
      summary: service.summary,
      webPageUrl: service.webPageUrl,
    });
    const madeCampaign = await session.post("/api/profiles", { profileType: "CAMPAIGN", values: campaign });
    expect(madeCampaign.status).toBe(201);
    expect(madeCampaign.body.result.fields).toMatchObject({
      tone: "Friendly",
      message: campaign.message,
      startDate: "2026-03-01",
      endDate: "2026-04-15",
      objective: campaign.objective,
      slogan: campaign.slogan,
    });

    const products = await session.get("/api/profiles?profileType=PRODUCT");
    expect(products.body.result.profiles.map((p: { name: string }) => p.name)).toEqual([product.name]);
    const all = await session.get("/api/profiles");
    expect(all.body.result.profiles.map((p: { profileType: string }) => p.profileType)).toEqual([
      "PROJECT",
      "PRODUCT",
      "SERVICE",
      "CAMPAIGN",
    ]);
  });

  it("answers the spec's errors for bad fields and never a 500", async () => {
    const badUrl = await session.post("/api/profiles", {
      profileType: "PRODUCT",
      values: { name: "X", pageUrl: "not a url" },
    });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.error).toEqual({ code: "InvalidUrl", fields: { pageUrl: "Invalid URL" } });
    const backwards = await session.post("/api/profiles", {
      profileType: "CAMPAIGN",
      values: { name: "Y", startDate: "2026-05-01", endDate: "2026-04-01" },
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.fields).toEqual({ endDate: "The end date must be on or after the start date" });
    expect((await session.post("/api/profiles", { profileType: "PROJECT", values: { name: "Z" } })).status).toBe(400);
    expect((await session.post("/api/profiles", { profileType: "PRODUCT", values: {} })).body.error.fields).toEqual({
      name: "Name is required",
    });
    expect((await session.post("/api/profiles", { profileType: "PRODUCT", values: { name: 5 } })).status).toBe(400);
  });

  it("updates only the fields and sections named; the business profile renames its project", async () => {
    const created = await session.post("/api/profiles", { profileType: "SERVICE", values: { name: "Wheel truing" } });
    const profileId = created.body.result.profileId;
    const updated = await patch(`/api/profiles/${profileId}`, {
      values: { terms: "48h", benefits: "Straight wheels\nFewer spokes break" },
      sections: { profileItems: [{ key: "price", value: "£25" }] },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.result).toMatchObject({
      name: "Wheel truing",
      fields: { terms: "48h", benefits: ["Straight wheels", "Fewer spokes break"] },
      sections: { profileItems: [{ key: "price", value: "£25" }], steps: [] },
    });
    expect((await patch(`/api/profiles/${profileId}`, { sections: { steps: "no" } })).status).toBe(400);
    expect((await patch(`/api/profiles/${profileId}`, {})).status).toBe(400);
    expect((await del(`/api/profiles/${profileId}`)).status).toBe(200);
    expect((await session.get(`/api/profiles/${profileId}`)).status).toBe(404);

    const business = await patch(`/api/profiles/${firstProject.profileId}`, {
      values: { name: "Spokes Cycles Leeds", websiteUrl: "spokes.example.com" },
    });
    expect(business.body.result).toMatchObject({
      name: "Spokes Cycles Leeds",
      websiteUrl: "https://spokes.example.com/",
    });
    const active = await session.get("/api/projects/active-project");
    expect(active.body.result.projectTitle).toBe("Spokes Cycles Leeds");
    expect(active.body.result.projectCheckList.find((i: { key: string }) => i.key === "add-website").done).toBe(true);
    expect((await del(`/api/profiles/${firstProject.profileId}`)).status).toBe(400);
  });
});

async function profileOf(type: string) {
  const list = await session.get(`/api/profiles?profileType=${type}`);
  return list.body.result.profiles[0] as { profileId: string; name: string };
}

async function newCraft(workflowName: string, profileId: string): Promise<Craft> {
  const created = await session.post("/api/workflowsV2", { workflowName, profileId });
  expect(created.status).toBe(201);
  return created.body.result as Craft;
}

const firstValues = (craft: Craft) => craft.steps[0]!.values ?? {};

describe("prefills from the chosen profile", () => {
  it("fills every input a product, service, campaign or business profile has a field for", async () => {
    const productProfile = await profileOf("PRODUCT");
    expect(firstValues(await newCraft("ProductSetup", productProfile.profileId))).toMatchObject({
      name: product.name,
      description: product.description,
      audience: product.audience,
      pageUrl: "https://spokes.example.com/trail-bike",
      features: product.featureList,
      shipping: product.shippingAndReturnsPolicy,
      usage: product.usage,
    });
    const serviceProfile = await profileOf("SERVICE");
    expect(firstValues(await newCraft("ServiceSetup", serviceProfile.profileId))).toMatchObject({
      name: service.name,
      description: service.description,
      benefits: service.benefits,
      terms: service.terms,
      pageUrl: service.webPageUrl,
    });
    const campaignProfile = await profileOf("CAMPAIGN");
    expect(firstValues(await newCraft("Campaign", campaignProfile.profileId))).toMatchObject({
      campaignName: campaign.name,
      goal: campaign.objective,
      message: campaign.message,
      startDate: campaign.startDate,
      endDate: campaign.endDate,
    });
    // The business profile fills what the definitions reference (audience), not a product's name.
    const business = firstValues(await newCraft("ProductSetup", firstProject.profileId));
    expect(business.audience).toBe("Commuters and weekend riders");
    expect(business.name).toBeUndefined();
  });

  it("lists the crafts written for a profile on its crafts page", async () => {
    const productProfile = await profileOf("PRODUCT");
    const ad = await newCraft("AdsWriter", productProfile.profileId);
    let listed: string[] = [];
    for (let attempt = 0; attempt < 40 && !listed.includes(ad.craftId); attempt += 1) {
      const crafts = await session.get(`/api/profiles/${productProfile.profileId}/crafts`);
      expect(crafts.status).toBe(200);
      listed = crafts.body.result.crafts.map((c: { craftId: string }) => c.craftId);
      if (!listed.includes(ad.craftId)) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(listed).toContain(ad.craftId);
    const campaignProfile = await profileOf("CAMPAIGN");
    const campaignCrafts = await session.get(`/api/profiles/${campaignProfile.profileId}/crafts`);
    expect(campaignCrafts.body.result.crafts.map((c: { craftId: string }) => c.craftId)).not.toContain(ad.craftId);
  });
});

describe("write-backs", () => {
  it("writes a ProductSetup's details back to a product profile, with its sections", async () => {
    const created = await session.post("/api/profiles", { profileType: "PRODUCT", values: { name: "Kids bike" } });
    const profileId = created.body.result.profileId;
    const craft = await newCraft("ProductSetup", profileId);
    const done = await session.put(`/api/workflowsV2/${craft.craftId}/step/complete`, {
      stepName: "details",
      values: {
        name: "Kids bike 16",
        description: "A 16-inch bike for children aged 4 to 6.",
        features: ["Stabilisers", "Coaster brake", "Bell"],
        shipping: "Free delivery in Leeds.",
      },
    });
    expect(done.status).toBe(200);
    const back = writeBackOf(done.body.result.craft as Craft);
    expect(back?.type).toBe("PRODUCT");
    const written = await patch(`/api/profiles/${profileId}`, { values: back!.values, sections: back!.sections });
    expect(written.status).toBe(200);
    expect(written.body.result).toMatchObject({
      name: "Kids bike 16",
      description: "A 16-inch bike for children aged 4 to 6.",
      fields: {
        featureList: ["Stabilisers", "Coaster brake", "Bell"],
        shippingAndReturnsPolicy: "Free delivery in Leeds.",
      },
      sections: { profileReference: { profileReferenceId: craft.craftId, profileReferenceType: "ProductSetup" } },
    });
    expect(written.body.result.sections.inputBindingValues).toMatchObject({ name: "Kids bike 16" });
  });

  it("writes a Campaign brief back to a campaign profile", async () => {
    const created = await session.post("/api/profiles", { profileType: "CAMPAIGN", values: { name: "Draft" } });
    const profileId = created.body.result.profileId;
    const craft = await newCraft("Campaign", profileId);
    const done = await session.put(`/api/workflowsV2/${craft.craftId}/step/complete`, {
      stepName: "brief",
      values: {
        campaignName: "Back to school",
        goal: "Sell 50 kids bikes",
        offering: "Kids bikes",
        audience: "Parents in Leeds",
        message: "Ride to school",
        startDate: "2026-08-15",
        endDate: "2026-09-15",
        channels: ["email"],
      },
    });
    expect(done.status).toBe(200);
    const back = writeBackOf(done.body.result.craft as Craft)!;
    expect(back.values).toMatchObject({ name: "Back to school", objective: "Sell 50 kids bikes" });
    const written = await patch(`/api/profiles/${profileId}`, { values: back.values, sections: back.sections });
    expect(written.status).toBe(200);
    expect(written.body.result.fields).toMatchObject({
      objective: "Sell 50 kids bikes",
      startDate: "2026-08-15",
      endDate: "2026-09-15",
      message: "Ride to school",
    });
  });
});

describe("business reviews", () => {
  it("adds reviews by hand and from CSV, replies, pages and deletes", async () => {
    const added = await session.post("/api/business/reviews", {
      author: "Ann",
      rating: 5,
      text: "Fixed my puncture in an hour.",
      reviewedOn: "2026-02-01",
    });
    expect(added.status).toBe(201);
    expect(added.body.result).toMatchObject({ author: "Ann", rating: 5, source: "manual", reply: "" });
    const again = await session.post("/api/business/reviews", {
      author: "ann",
      rating: 5,
      text: "Fixed my puncture in an hour.",
      reviewedOn: "2026-02-01",
    });
    expect(again.status).toBe(409);
    expect((await session.post("/api/business/reviews", { author: "Bo", rating: 7 })).body.error.fields).toEqual({
      rating: "Rating must be a whole number from 1 to 5",
    });
    expect((await session.post("/api/business/reviews", { author: "Bo", rating: 1e12 })).status).toBe(400);
    // A typed date is a day that exists, and the document says so (third parties read the format).
    expect(
      (await session.post("/api/business/reviews", { author: "Bo", rating: 4, reviewedOn: "2026-02-30" })).body.error
        .fields,
    ).toEqual({ reviewedOn: "Date must be a date (YYYY-MM-DD)" });
    const document = (await session.get("/api/openapi.json")).body as any;
    const reviewBody = document.paths["/api/business/reviews"].post.requestBody.content["application/json"].schema;
    expect(JSON.stringify(reviewBody.properties.reviewedOn)).toContain('"format":"date"');

    const csv = [
      "Name,Rating,Review,Date",
      "Ann,5,Fixed my puncture in an hour.,2026-02-01",
      'Ben,4,"Good service, fair price",2026-02-03',
      "Cat,★★★,Slow on Saturdays,",
      "Dan,0,Bad row,",
    ].join("\n");
    const imported = await session.post("/api/business/reviews/import", { csv });
    expect(imported.status).toBe(200);
    expect(imported.body.result).toEqual({
      created: 2,
      skipped: 1,
      errors: [{ line: 5, reason: "Rating must be a whole number from 1 to 5" }],
    });
    expect((await session.post("/api/business/reviews/import", { csv })).body.result).toMatchObject({
      created: 0,
      skipped: 3,
    });
    expect((await session.post("/api/business/reviews/import", { csv: "" })).status).toBe(400);

    const page = await session.get("/api/business/reviews?page=1&pageSize=2");
    expect(page.body.result.meta).toEqual({ count: 3, currentPage: 1, totalPages: 2 });
    const ben = (await session.get("/api/business/reviews?pageSize=10")).body.result.result.find(
      (r: { author: string }) => r.author === "Ben",
    );
    expect(ben).toMatchObject({ rating: 4, text: "Good service, fair price", source: "csv" });

    const replied = await session.put(`/api/business/reviews/${ben.reviewId}/reply`, { reply: "Thanks, Ben!" });
    expect(replied.status).toBe(200);
    expect(replied.body.result.reply).toBe("Thanks, Ben!");
    expect(replied.body.result.repliedAt).not.toBeNull();
    expect((await del(`/api/business/reviews/${ben.reviewId}`)).status).toBe(200);
    expect((await del(`/api/business/reviews/${ben.reviewId}`)).status).toBe(404);
    expect((await session.put("/api/business/reviews/nope/reply", { reply: "x" })).status).toBe(404);
  });
});
