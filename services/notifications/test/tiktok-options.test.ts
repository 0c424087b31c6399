import { describe, expect, it } from "@jest/globals";
import { creatorOptionsProblems, tiktokOptionsOf } from "../src/domain/tiktok-options";

// TikTok's posting options on a publish request: a privacy level the user chose (no default), among
// the creator's, and no interaction allowed that the creator turned off.

const none = { privacyLevel: "", disableComment: false, disableDuet: false, disableStitch: false };
const creator = {
  privacyLevelOptions: ["FOLLOWER_OF_CREATOR", "SELF_ONLY"],
  commentDisabled: true,
  duetDisabled: false,
  stitchDisabled: false,
};

describe("TikTok options on a publish request", () => {
  it("are not kept without a TikTok channel, and need a privacy level with one", () => {
    expect(tiktokOptionsOf(["facebook_page"], { ...none, privacyLevel: "SELF_ONLY" })).toEqual({ options: undefined });
    expect(tiktokOptionsOf(["facebook_page", "tiktok"], none)).toEqual({
      problem: "Choose who can see this post on TikTok.",
    });
    expect(tiktokOptionsOf(["tiktok"], { ...none, privacyLevel: "EVERYONE" })).toMatchObject({
      problem: expect.stringContaining("PUBLIC_TO_EVERYONE"),
    });
    expect(tiktokOptionsOf(["tiktok"], { ...none, privacyLevel: "SELF_ONLY", disableDuet: true })).toEqual({
      options: { privacyLevel: "SELF_ONLY", disableComment: false, disableDuet: true, disableStitch: false },
    });
  });

  it("fit the creator's settings: one of its privacy levels, and interactions it turned off stay off", () => {
    const ok = { privacyLevel: "SELF_ONLY", disableComment: true, disableDuet: false, disableStitch: false };
    expect(creatorOptionsProblems(ok, creator, "photo")).toEqual({});
    expect(creatorOptionsProblems({ ...ok, privacyLevel: "PUBLIC_TO_EVERYONE" }, creator, "photo")).toEqual({
      tiktokPrivacyLevel:
        "This TikTok account cannot post as PUBLIC_TO_EVERYONE; it offers FOLLOWER_OF_CREATOR, SELF_ONLY.",
    });
    expect(creatorOptionsProblems({ ...ok, disableComment: false }, creator, "video")).toEqual({
      tiktokDisableComment: "This TikTok account turned comments off in TikTok's settings: a post cannot allow them.",
    });
    const noDuets = { ...creator, commentDisabled: false, duetDisabled: true, stitchDisabled: true };
    expect(Object.keys(creatorOptionsProblems({ privacyLevel: "SELF_ONLY" }, noDuets, "video"))).toEqual([
      "tiktokDisableDuet",
      "tiktokDisableStitch",
    ]);
    // A photo post has no duet or stitch to allow.
    expect(creatorOptionsProblems({ privacyLevel: "SELF_ONLY" }, noDuets, "photo")).toEqual({});
  });
});
