import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { LocalGoogleBusinessServer } from "../src/google-business";

// The local Google Business Profile answers as Google documents: Bearer required, Google's error
// JSON, readMask required and honoured, pages with opaque tokens, replies written and deleted.
const fake = new LocalGoogleBusinessServer();
let base = "";
const get = async (path: string, token = "t-1") => {
  const res = await fetch(`${base}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

beforeAll(async () => {
  base = `http://127.0.0.1:${await fake.start(0)}`;
  fake.allowToken("t-1");
  const account = fake.addAccount("111", "Leeds Bikes Ltd");
  fake.addLocation(account, { id: "222", title: "Leeds Bikes", websiteUri: "https://leeds-bikes.example" });
  for (let i = 1; i <= 7; i++)
    fake.addReview("222", {
      reviewId: `r${i}`,
      reviewer: { displayName: `Rider ${i}` },
      starRating: i % 2 ? "FIVE" : "THREE",
      comment: `Review ${i}`,
      createTime: `2026-01-0${i}T10:00:00Z`,
      updateTime: `2026-01-0${i}T10:00:00Z`,
    });
});
afterAll(() => fake.stop());

describe("LocalGoogleBusinessServer", () => {
  it("refuses a call without a live token with Google's error shape", async () => {
    const answer = await get("/v1/accounts", "");
    expect(answer.status).toBe(401);
    expect(answer.body.error).toMatchObject({ code: 401, status: "UNAUTHENTICATED" });
    expect((await get("/v1/accounts", "nope")).status).toBe(401);
  });

  it("lists accounts and locations, the latter only with a readMask and only its fields", async () => {
    expect((await get("/v1/accounts")).body.accounts).toEqual([
      { name: "accounts/111", accountName: "Leeds Bikes Ltd", type: "PERSONAL" },
    ]);
    const noMask = await get("/v1/accounts/111/locations");
    expect(noMask.status).toBe(400);
    expect(noMask.body.error.status).toBe("INVALID_ARGUMENT");
    const listed = await get("/v1/accounts/111/locations?readMask=name,title");
    expect(listed.body).toEqual({ locations: [{ name: "locations/222", title: "Leeds Bikes" }], totalSize: 1 });
    expect((await get("/v1/locations/222?readMask=websiteUri")).body).toEqual({
      websiteUri: "https://leeds-bikes.example",
    });
    expect((await get("/v1/locations/999?readMask=title")).status).toBe(404);
  });

  it("pages reviews newest first with the average and count, and refuses a forged page token", async () => {
    const first = await get("/v4/accounts/111/locations/222/reviews?pageSize=5");
    expect(first.body.reviews.map((r: { reviewId: string }) => r.reviewId)).toEqual(["r7", "r6", "r5", "r4", "r3"]);
    expect(first.body).toMatchObject({ totalReviewCount: 7, averageRating: 4.1 });
    expect(first.body.reviews[0].name).toBe("accounts/111/locations/222/reviews/r7");
    const second = await get(`/v4/accounts/111/locations/222/reviews?pageSize=5&pageToken=${first.body.nextPageToken}`);
    expect(second.body.reviews).toHaveLength(2);
    expect(second.body.nextPageToken).toBeUndefined();
    expect((await get("/v4/accounts/111/locations/222/reviews?pageToken=forged")).status).toBe(400);
    expect((await get("/v4/accounts/999/locations/222/reviews")).status).toBe(404);
  });

  it("writes, replaces and deletes a reply", async () => {
    const put = (comment: unknown) =>
      fetch(`${base}/v4/accounts/111/locations/222/reviews/r1/reply`, {
        method: "PUT",
        headers: { authorization: "Bearer t-1", "content-type": "application/json" },
        body: JSON.stringify({ comment }),
      });
    expect((await put("")).status).toBe(400);
    const written = await put("Thank you!");
    expect(written.status).toBe(200);
    expect(await written.json()).toMatchObject({ comment: "Thank you!" });
    expect(fake.review("222", "r1")?.reviewReply?.comment).toBe("Thank you!");
    const deleted = await fetch(`${base}/v4/accounts/111/locations/222/reviews/r1/reply`, {
      method: "DELETE",
      headers: { authorization: "Bearer t-1" },
    });
    expect(deleted.status).toBe(200);
    expect(fake.review("222", "r1")?.reviewReply).toBeUndefined();
    expect(fake.seen.repliesDeleted).toEqual(["r1"]);
  });
});
