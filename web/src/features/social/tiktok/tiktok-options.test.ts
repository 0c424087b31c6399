import { describe, expect, it } from "@jest/globals";
import { choiceProblem, EMPTY_CHOICE, privacyLabel, type TikTokCreator, toPostOptions } from "./tiktok-options";

const creator: TikTokCreator = {
  nickname: "Bikes Shop",
  username: "bikes.shop",
  avatarUrl: "https://p16.tiktokcdn.example/a.jpeg",
  privacyLevelOptions: ["PUBLIC_TO_EVERYONE", "SELF_ONLY"],
  commentDisabled: false,
  duetDisabled: true,
  stitchDisabled: false,
  maxVideoPostDurationSec: 600,
};

describe("TikTok posting options", () => {
  it("need a privacy level the creator offers, chosen by the user", () => {
    expect(choiceProblem(EMPTY_CHOICE, creator)).toMatch(/Choose who can see/);
    expect(choiceProblem({ ...EMPTY_CHOICE, privacyLevel: "FOLLOWER_OF_CREATOR" }, creator)).toMatch(/does not offer/);
    expect(choiceProblem({ ...EMPTY_CHOICE, privacyLevel: "SELF_ONLY" }, undefined)).toMatch(/not loaded/);
    expect(choiceProblem({ ...EMPTY_CHOICE, privacyLevel: "SELF_ONLY" }, creator)).toBeNull();
  });

  it("keep interactions off until allowed, and off when the creator disabled them in TikTok", () => {
    expect(toPostOptions({ ...EMPTY_CHOICE, privacyLevel: "SELF_ONLY" }, creator)).toEqual({
      privacyLevel: "SELF_ONLY",
      disableComment: true,
      disableDuet: true,
      disableStitch: true,
    });
    expect(
      toPostOptions(
        { privacyLevel: "PUBLIC_TO_EVERYONE", allowComment: true, allowDuet: true, allowStitch: true },
        creator,
      ),
    ).toEqual({ privacyLevel: "PUBLIC_TO_EVERYONE", disableComment: false, disableDuet: true, disableStitch: false });
  });

  it("reads privacy levels in words", () => {
    expect(privacyLabel("SELF_ONLY")).toBe("Only me");
    expect(privacyLabel("NEW_LEVEL")).toBe("new level");
  });
});
