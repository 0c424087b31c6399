import { describe, expect, it } from "@jest/globals";
import { chatRequest, contextLine } from "./chat";
import { answerInput, currentAnswerTarget, registerAnswerTarget, withAnswer } from "./handoff";

const inputs = [
  { name: "tone", kind: "select" },
  { name: "headline", kind: "text" },
  { name: "body", kind: "InlineTextGenerator" },
  { name: "hiddenNote", kind: "text" },
];
const shown = (input: { name: string }) => input.name !== "hiddenNote";

describe("the assistant's request", () => {
  it("carries the active profile and the open craft only when known", () => {
    const messages = [{ content: "Hi", type: "message" }];
    expect(chatRequest(messages, { profileId: "p1", craftId: "c1" })).toEqual({
      messages,
      profileId: "p1",
      craftId: "c1",
    });
    expect(chatRequest(messages, { profileId: " ", craftId: null })).toEqual({ messages });
    expect(chatRequest(messages, {})).toEqual({ messages });
  });

  it("says what it uses, leaving out what is unknown", () => {
    expect(contextLine({ business: "Rye & Shine", profile: "Spelt loaf", craft: "Blog post" })).toBe(
      "Using: Rye & Shine · Spelt loaf · Blog post",
    );
    expect(contextLine({ business: "Rye & Shine", profile: null, craft: " " })).toBe("Using: Rye & Shine");
    expect(contextLine({})).toBe("");
  });
});

describe("Use in craft", () => {
  it("puts the answer into the focused text input, else the first shown one", () => {
    expect(answerInput(inputs, shown, "body")?.name).toBe("body");
    expect(answerInput(inputs, shown, null)?.name).toBe("headline");
    // A focused select or a hidden input does not take text: the first text input does.
    expect(answerInput(inputs, shown, "tone")?.name).toBe("headline");
    expect(answerInput(inputs, shown, "hiddenNote")?.name).toBe("headline");
    expect(answerInput([{ name: "tone", kind: "select" }], shown, null)).toBeNull();
  });

  it("keeps what the user wrote and adds the answer after a blank line", () => {
    expect(withAnswer("", "  Fresh rye daily.\n", true)).toBe("Fresh rye daily.");
    expect(withAnswer(undefined, "Fresh rye daily.", true)).toBe("Fresh rye daily.");
    expect(withAnswer("My intro.  ", "Fresh rye.\n\nBaked daily.", true)).toBe(
      "My intro.\n\nFresh rye.\n\nBaked daily.",
    );
    // One line: the browser would drop line breaks and glue sentences together; spaces keep them apart.
    expect(withAnswer("My intro.", "Fresh rye.\n\nBaked daily.", false)).toBe("My intro. Fresh rye. Baked daily.");
    expect(withAnswer(null, "Fresh rye.\nBaked daily.", false)).toBe("Fresh rye. Baked daily.");
  });

  it("has one target at a time, and a closed form stops being it", () => {
    const first = { craftId: "c1", stepTitle: "Topic", insert: () => null };
    const second = { craftId: "c1", stepTitle: "Draft", insert: () => null };
    expect(currentAnswerTarget()).toBeNull();
    const closeFirst = registerAnswerTarget(first);
    expect(currentAnswerTarget()).toBe(first);
    const closeSecond = registerAnswerTarget(second);
    // The first form unmounting after the second opened leaves the second in place.
    closeFirst();
    expect(currentAnswerTarget()).toBe(second);
    closeSecond();
    expect(currentAnswerTarget()).toBeNull();
  });
});
