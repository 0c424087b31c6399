import { describe, expect, it } from "@jest/globals";
import { offlineReplyDraft, replyPrompt } from "./review-reply";

describe("review replies", () => {
  it("thanks a happy reviewer by first name and signs with the business", () => {
    const draft = offlineReplyDraft({ author: "Ann Lee", rating: 5, text: "Great" }, "Spokes");
    expect(draft).toMatch(/^Thank you, Ann!/);
    expect(draft).toContain("5-star");
    expect(draft).toMatch(/the Spokes team$/);
  });

  it("apologises to an unhappy reviewer and invites contact", () => {
    const draft = offlineReplyDraft({ author: "Bob", rating: 1, text: "Slow" }, "");
    expect(draft).toMatch(/sorry/);
    expect(draft).toMatch(/contact us/);
  });

  it("asks the assistant with the review's rating, author and text", () => {
    const prompt = replyPrompt({ author: "Cat", rating: 2, text: "Closed early" }, "Spokes");
    expect(prompt).toContain("2-star review by Cat");
    expect(prompt).toContain("Review: Closed early");
  });
});
