import { describe, expect, it } from "@jest/globals";
import {
  addressText,
  hoursLines,
  importedReview,
  listingChanges,
  listingValues,
  reviewChanged,
  starsOf,
} from "../src/domain/google-business";

describe("Google reviews as Crafter reviews", () => {
  it("reads the star enum, and skips a review without an id or rating", () => {
    expect(["ONE", "TWO", "THREE", "FOUR", "FIVE", "STAR_RATING_UNSPECIFIED", 5].map(starsOf)).toEqual([
      1, 2, 3, 4, 5, 0, 0,
    ]);
    expect(importedReview({ reviewId: "r", starRating: "STAR_RATING_UNSPECIFIED" })).toBeNull();
    expect(importedReview({ starRating: "FIVE" })).toBeNull();
  });

  it("keeps the reviewer, time and reply, and names an anonymous reviewer as Google does", () => {
    const review = importedReview({
      reviewId: "abc",
      reviewer: { displayName: "Jo Bloggs" },
      starRating: "FOUR",
      comment: "Good",
      createTime: "2026-03-01T23:30:00Z",
      reviewReply: { comment: "Thanks", updateTime: "2026-03-02T08:00:00Z" },
    });
    expect(review).toEqual({
      remoteId: "abc",
      author: "Jo Bloggs",
      rating: 4,
      text: "Good",
      reviewedOn: "2026-03-01",
      reviewedAt: new Date("2026-03-01T23:30:00Z"),
      reply: "Thanks",
      repliedAt: new Date("2026-03-02T08:00:00Z"),
    });
    const anonymous = importedReview({
      reviewId: "x",
      reviewer: { displayName: "Hidden", isAnonymous: true },
      starRating: "ONE",
    });
    expect(anonymous).toMatchObject({
      author: "A Google user",
      text: "",
      reply: "",
      repliedAt: null,
      reviewedAt: null,
    });
    expect(reviewChanged(review!, review!)).toBe(false);
    expect(reviewChanged(review!, { ...review!, reply: "" })).toBe(true);
  });
});

describe("a listing as business profile values", () => {
  const listing = {
    title: "Leeds Bikes",
    storefrontAddress: { regionCode: "GB", postalCode: "LS1 6BR", locality: "Leeds", addressLines: ["12 Call Lane"] },
    phoneNumbers: { primaryPhone: "+44 113 496 0000" },
    websiteUri: "https://leeds-bikes.example",
    regularHours: {
      periods: [
        { openDay: "SUNDAY", openTime: { hours: 18 }, closeDay: "MONDAY", closeTime: {} },
        { openDay: "MONDAY", openTime: { hours: 13 }, closeDay: "MONDAY", closeTime: { hours: 17 } },
        { openDay: "MONDAY", openTime: { hours: 9 }, closeDay: "MONDAY", closeTime: { hours: 12, minutes: 30 } },
      ],
    },
    categories: {
      primaryCategory: { displayName: "Bicycle store" },
      additionalCategories: [{ displayName: "Bicycle store" }, { displayName: "Repair shop" }],
    },
  };

  it("writes the address, hours (Monday first, split days twice, midnight as 24:00) and categories", () => {
    expect(addressText(listing.storefrontAddress)).toBe("12 Call Lane, Leeds LS1 6BR, GB");
    expect(hoursLines(listing.regularHours)).toEqual([
      "Monday 09:00–12:30",
      "Monday 13:00–17:00",
      "Sunday 18:00–24:00",
    ]);
    expect(listingValues(listing)).toMatchObject({
      name: "Leeds Bikes",
      address: "12 Call Lane\nLeeds LS1 6BR\nGB",
      phone: "+44 113 496 0000",
      categories: ["Bicycle store", "Repair shop"],
    });
    expect(listingValues({})).toEqual({});
  });

  it("proposes only what differs from the profile, a website's trailing slash aside", () => {
    const profile: Record<string, unknown> = {
      name: "Leeds Bikes",
      websiteUrl: "https://leeds-bikes.example/",
      phone: "",
      categories: ["Bicycle store"],
    };
    const { changes, values } = listingChanges(listingValues(listing), (key) => profile[key]);
    expect(changes.map((change) => change.key)).toEqual(["address", "phone", "openingHours", "categories"]);
    expect(changes.find((change) => change.key === "categories")).toMatchObject({
      current: "Bicycle store",
      proposed: "Bicycle store\nRepair shop",
    });
    expect(Object.keys(values)).toEqual(["address", "phone", "openingHours", "categories"]);
  });
});
