import { randomUUID } from "node:crypto";
import { databaseName } from "@crafter/kit";
import { GatewaySession, gatewayUrl, linkFrom, stackEnv, verifiedSession, waitForEmail } from "@crafter/kit/testing";
import { type BusinessReview, LocalGoogleBusinessServer, LocalOAuthServer } from "@crafter/provider-fakes";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import mongoose, { type Connection } from "mongoose";

// Google Business Profile through the gateway and the projects service, against the local OAuth
// server (the google_business connection) and the local Google Business Profile APIs: choose the
// location, import its reviews (two pages, deduplicated by Google's id over repeated syncs, each
// announced once with ReviewReceived), a new and a changed review after a sync, replies written
// to and deleted from Google, and the business profile filled from the listing after a preview.
jest.setTimeout(60_000);

const env = stackEnv();
const oauth = new LocalOAuthServer({
  clientId: env.GOOGLE_CLIENT_ID ?? "",
  clientSecret: env.GOOGLE_CLIENT_SECRET ?? "",
  account: { sub: "g-77", email: "owner@leeds-bikes.example", name: "Leeds Bikes" },
});
const google = new LocalGoogleBusinessServer({ oauth });
const ACCOUNT = "accounts/5001";

let owner: GatewaySession;
let projectId: string;
let profileId: string;
let projectsDb: Connection;

const review = (n: number, extra: Partial<BusinessReview> = {}): BusinessReview => ({
  reviewId: `rev-${n}`,
  reviewer: { displayName: `Rider ${n}` },
  starRating: (["ONE", "TWO", "THREE", "FOUR", "FIVE"] as const)[n % 5]!,
  comment: `Ride number ${n} was great`,
  createTime: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
  updateTime: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
  ...extra,
});

async function signUpAdmin(): Promise<GatewaySession> {
  const email = `admin-${randomUUID().slice(0, 8)}@admins.crafter.test`;
  const session = new GatewaySession();
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
  return session;
}

/** The connect flow as the browser follows it: start, the provider's consent, the callback. */
async function connectGoogleBusiness(): Promise<void> {
  const started = await owner.post(`/api/integrations/google_business/connect?projectId=${projectId}`, {});
  expect(started.status).toBe(200);
  const authorize = new URL(started.body.result.authorizeUrl);
  expect(authorize.searchParams.get("scope")).toContain("https://www.googleapis.com/auth/business.manage");
  authorize.hostname = "127.0.0.1";
  const consent = await fetch(authorize, { redirect: "manual" });
  const callback = consent.headers.get("location")!;
  const back = await fetch(callback.replace(env.PUBLIC_ORIGIN ?? gatewayUrl(), gatewayUrl()), { redirect: "manual" });
  expect(back.headers.get("location")).toBe("/app/settings/integrations?connected=google_business");
}

type ListedReview = { reviewId: string; source: string; author: string; text: string; reply: string };

async function allReviews(): Promise<ListedReview[]> {
  const out: ListedReview[] = [];
  for (let page = 1; ; page++) {
    const listed = await owner.get(`/api/business/reviews?projectId=${projectId}&page=${page}&pageSize=100`);
    expect(listed.status).toBe(200);
    // A paged route answers `{ result: <items>, meta }` as its envelope's result.
    const answer = listed.body.result as { result: ListedReview[]; meta: { totalPages: number } };
    out.push(...answer.result);
    if (page >= answer.meta.totalPages) return out;
  }
}

const sync = async () => {
  const answer = await owner.post(`/api/business/google/sync?projectId=${projectId}`, {});
  expect(answer.status).toBe(200);
  return answer.body.result as { created: number; updated: number; googleBusiness: Record<string, unknown> };
};

beforeAll(async () => {
  await oauth.start(Number(new URL(env.GOOGLE_BASE_URL ?? "http://x:28045").port));
  await google.start(Number(new URL(env.GOOGLE_BUSINESS_API_URL ?? "http://x:28048").port));
  const account = google.addAccount("5001", "Leeds Bikes Ltd");
  google.addLocation(account, { id: "7001", title: "Leeds Bikes — Kirkgate" });
  google.addLocation(account, {
    id: "7002",
    title: "Leeds Bikes",
    storefrontAddress: {
      regionCode: "GB",
      postalCode: "LS1 6BR",
      locality: "Leeds",
      addressLines: ["12 Call Lane"],
    },
    phoneNumbers: { primaryPhone: "+44 113 496 0000" },
    websiteUri: "https://leeds-bikes.example/",
    regularHours: {
      periods: [
        { openDay: "SATURDAY", openTime: { hours: 10 }, closeDay: "SATURDAY", closeTime: { hours: 16 } },
        { openDay: "MONDAY", openTime: { hours: 9 }, closeDay: "MONDAY", closeTime: { hours: 17, minutes: 30 } },
      ],
    },
    categories: {
      primaryCategory: { name: "categories/gcid:bicycle_store", displayName: "Bicycle store" },
      additionalCategories: [{ name: "categories/gcid:bicycle_repair_shop", displayName: "Bicycle repair shop" }],
    },
  });
  // 52 reviews: two pages of Google's 50.
  for (let n = 1; n <= 52; n++)
    google.addReview(
      "7002",
      review(n, n === 3 ? { reviewReply: { comment: "Thanks!", updateTime: "2026-01-02T00:00:00Z" } } : {}),
    );

  let admin: GatewaySession;
  [{ session: owner }, admin] = await Promise.all([verifiedSession("gbp"), signUpAdmin()]);
  const userId = (await owner.get("/auth/check")).body.result.user.userId;
  for (const flag of ["google_business_integration", "google_reviews"])
    expect((await admin.put(`/api/admin/users/${userId}/flags`, { flag, enabled: true })).status).toBe(200);
  const created = await owner.post("/api/projects/createProject", { name: "Leeds Cycles", description: "Bikes" });
  expect(created.status).toBe(201);
  ({ projectId, profileId } = created.body.result.project);
  projectsDb = await mongoose
    .createConnection(env.MONGODB_URL ?? "mongodb://127.0.0.1:27017/", {
      dbName: databaseName(env.CRAFTER_NAMESPACE ?? "crafter", "projects"),
    })
    .asPromise();
});

afterAll(async () => {
  await projectsDb?.close();
  await google.stop();
  await oauth.stop();
});

describe("Google Business Profile", () => {
  it("says when it is not connected", async () => {
    const state = await owner.get(`/api/business/google?projectId=${projectId}`);
    expect(state.status).toBe(200);
    expect(state.body.result).toMatchObject({ connection: "not_connected", lastSyncedAt: null });
    const locations = await owner.get(`/api/business/google/locations?projectId=${projectId}`);
    expect(locations.status).toBe(409);
    expect(locations.body.errorMessage).toContain("Connect Google Business Profile");
  });

  it("lists the account's locations once connected, and imports the chosen one's reviews", async () => {
    // A review pasted from CSV before the connection stays beside Google's.
    const pasted = await owner.post("/api/business/reviews/import", {
      projectId,
      csv: "author,rating,text,date\nAnn Walker,5,Lovely shop,2025-12-01\n",
    });
    expect(pasted.body.result.created).toBe(1);
    await connectGoogleBusiness();
    const locations = await owner.get(`/api/business/google/locations?projectId=${projectId}`);
    expect(locations.status).toBe(200);
    expect(locations.body.result).toEqual([
      { name: "locations/7001", account: ACCOUNT, title: "Leeds Bikes — Kirkgate", address: "" },
      { name: "locations/7002", account: ACCOUNT, title: "Leeds Bikes", address: "12 Call Lane, Leeds LS1 6BR, GB" },
    ]);
    const wrong = await owner.put(`/api/business/google/location?projectId=${projectId}`, {
      account: ACCOUNT,
      location: "locations/9999",
    });
    expect(wrong.status).toBe(404);

    const chosen = await owner.put(`/api/business/google/location?projectId=${projectId}`, {
      account: ACCOUNT,
      location: "locations/7002",
    });
    expect(chosen.status).toBe(200);
    expect(chosen.body.result).toMatchObject({ created: 52, updated: 0 });
    expect(chosen.body.result.googleBusiness).toMatchObject({
      connection: "connected",
      location: { name: "locations/7002", title: "Leeds Bikes" },
      totalReviewCount: 52,
      lastError: "",
    });
    const reviews = await allReviews();
    expect(reviews).toHaveLength(53);
    expect(reviews.filter((r) => r.source === "google")).toHaveLength(52);
    expect(reviews.find((r) => r.author === "Ann Walker")?.source).toBe("csv");
    const third = reviews.find((r) => r.author === "Rider 3");
    expect(third).toMatchObject({
      rating: 4,
      text: "Ride number 3 was great",
      reply: "Thanks!",
      reviewedOn: "2026-01-01",
    });
    expect(google.seen.reviewLists).toBeGreaterThanOrEqual(3);
  });

  it("syncs again without duplicates, then picks up a new and a changed review", async () => {
    expect(await sync()).toMatchObject({ created: 0, updated: 0 });
    expect(await allReviews()).toHaveLength(53);
    google.addReview("7002", review(60, { reviewer: { displayName: "", isAnonymous: true }, comment: "Quick fix" }));
    google.addReview("7002", review(5, { comment: "Ride number 5 was great, and they fixed my gears" }));
    const outcome = await sync();
    expect(outcome).toMatchObject({ created: 1, updated: 1 });
    expect(outcome.googleBusiness.totalReviewCount).toBe(53);
    const reviews = await allReviews();
    expect(reviews).toHaveLength(54);
    expect(reviews.find((r) => r.text === "Quick fix")?.author).toBe("A Google user");
    expect(reviews.find((r) => r.author === "Rider 5")?.text).toContain("fixed my gears");
  });

  it("announces each new review once with ReviewReceived, through the outbox", async () => {
    const docs = await projectsDb
      .collection("reviews")
      .find({ projectId, source: "google" }, { projection: { outbox: 1 } })
      .toArray();
    expect(docs).toHaveLength(53);
    const entries = docs.flatMap((doc) => doc.outbox as { id: string; type: string; key: string }[]);
    expect(entries).toHaveLength(53);
    expect(new Set(entries.map((entry) => entry.type))).toEqual(new Set(["crafter.events.v1.ReviewReceived"]));
    expect(entries.every((entry) => entry.key === projectId)).toBe(true);
    const last = entries.at(-1)!;
    const deadline = Date.now() + 20_000;
    while (!(await projectsDb.collection("outbox_published").findOne({ _id: last.id as never }))) {
      if (Date.now() > deadline) throw new Error("ReviewReceived was not published");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  it("writes, edits and deletes a reply at Google", async () => {
    const target = (await allReviews()).find((r) => r.author === "Rider 7")!;
    const written = await owner.put(`/api/business/reviews/${target.reviewId}/reply`, { reply: "Thank you, Rider!" });
    expect(written.status).toBe(200);
    expect(written.body.result.reply).toBe("Thank you, Rider!");
    expect(google.review("7002", "rev-7")?.reviewReply?.comment).toBe("Thank you, Rider!");
    const edited = await owner.put(`/api/business/reviews/${target.reviewId}/reply`, {
      reply: "Thanks — see you soon.",
    });
    expect(edited.status).toBe(200);
    expect(google.review("7002", "rev-7")?.reviewReply?.comment).toBe("Thanks — see you soon.");
    expect(google.seen.repliesPut.map((put) => put.review)).toEqual(["rev-7", "rev-7"]);

    const cleared = await owner.put(`/api/business/reviews/${target.reviewId}/reply`, { reply: "" });
    expect(cleared.status).toBe(200);
    expect(cleared.body.result.reply).toBe("");
    expect(google.review("7002", "rev-7")?.reviewReply).toBeUndefined();
    expect(google.seen.repliesDeleted).toEqual(["rev-7"]);
    // A sync keeps what Google has: no reply comes back.
    await sync();
    expect((await allReviews()).find((r) => r.author === "Rider 7")?.reply).toBe("");

    const removed = await owner.request("DELETE", `/api/business/reviews/${target.reviewId}`);
    expect(removed.status).toBe(409);
  });

  it("shows Google's refusal and keeps the reply unchanged when Google is down", async () => {
    const target = (await allReviews()).find((r) => r.author === "Rider 8")!;
    google.failNext(5, 503);
    const refused = await owner.put(`/api/business/reviews/${target.reviewId}/reply`, { reply: "Hello" });
    expect(refused.status).toBe(503);
    google.failNext(0);
    expect((await allReviews()).find((r) => r.author === "Rider 8")?.reply).toBe("");
    expect(google.review("7002", "rev-8")?.reviewReply).toBeUndefined();
  });

  it("previews filling the business profile from the listing, then applies it", async () => {
    const preview = await owner.get(`/api/business/google/listing?projectId=${projectId}`);
    expect(preview.status).toBe(200);
    const { changes, values } = preview.body.result as {
      changes: { key: string; current: string; proposed: string }[];
      values: Record<string, unknown>;
    };
    expect(changes.map((change) => change.key)).toEqual([
      "name",
      "websiteUrl",
      "address",
      "phone",
      "openingHours",
      "categories",
    ]);
    expect(changes[0]).toMatchObject({ current: "Leeds Cycles", proposed: "Leeds Bikes" });
    expect(values.openingHours).toEqual(["Monday 09:00–17:30", "Saturday 10:00–16:00"]);
    expect(values.categories).toEqual(["Bicycle store", "Bicycle repair shop"]);
    const applied = await owner.request("PATCH", `/api/profiles/${profileId}`, { values });
    expect(applied.status).toBe(200);
    expect(applied.body.result).toMatchObject({ name: "Leeds Bikes", websiteUrl: "https://leeds-bikes.example/" });
    const again = await owner.get(`/api/business/google/listing?projectId=${projectId}`);
    expect(again.body.result.changes).toEqual([]);
  });
});
