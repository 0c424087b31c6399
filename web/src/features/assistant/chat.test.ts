import { describe, expect, it } from "@jest/globals";
import { ASSISTANT_CHAT_CAP, addMessage, canSend, EMPTY_CHAT, isTooLong, replyMessage } from "./chat";

describe("assistant chat state", () => {
  it("counts messages and their total length, type defaulting to message", () => {
    const state = addMessage(addMessage(EMPTY_CHAT, { content: "Hello" }), { content: "Hi there", type: "answer" });
    expect(state.count).toBe(2);
    expect(state.totalLength).toBe(13);
    expect(state.messages).toEqual([
      { content: "Hello", type: "message" },
      { content: "Hi there", type: "answer" },
    ]);
    expect(addMessage(EMPTY_CHAT, { content: "x", type: "" }).messages[0]?.type).toBe("message");
  });

  it("is flagged too long only once the total passes 163840 characters", () => {
    const atCap = addMessage(EMPTY_CHAT, { content: "a".repeat(ASSISTANT_CHAT_CAP) });
    expect(ASSISTANT_CHAT_CAP).toBe(163840);
    expect(isTooLong(atCap)).toBe(false);
    const past = addMessage(atCap, { content: "b" });
    expect(isTooLong(past)).toBe(true);
    expect(canSend(past, "more")).toBe(false);
  });

  it("refuses a draft that is empty or would pass the cap, and clearing resets everything", () => {
    const nearly = addMessage(EMPTY_CHAT, { content: "a".repeat(ASSISTANT_CHAT_CAP - 3) });
    expect(canSend(nearly, "abc")).toBe(true);
    expect(canSend(nearly, "abcd")).toBe(false);
    expect(canSend(EMPTY_CHAT, "   ")).toBe(false);
    expect(EMPTY_CHAT).toEqual({ messages: [], count: 0, totalLength: 0 });
  });

  it("reads the reply as a message or a string, and nothing else", () => {
    expect(replyMessage({ message: { type: "answer", content: "Sure." } })).toEqual({
      type: "answer",
      content: "Sure.",
    });
    expect(replyMessage({ message: "Plain" })).toEqual({ type: "answer", content: "Plain" });
    expect(replyMessage({ message: null })).toBeNull();
    expect(replyMessage(null)).toBeNull();
  });
});
