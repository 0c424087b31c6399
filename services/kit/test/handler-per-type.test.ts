import { describe, expect, it } from "@jest/globals";
import { type EventHandler, type EventMeta, handlerPerType } from "../src/events/consumer";

const meta: EventMeta = { id: "e1", type: "t", source: "s", time: "", topic: "x", key: "k" };

function handler(type: string, seen: string[], name: string, fail = false): EventHandler {
  return {
    type,
    async handle() {
      seen.push(name);
      if (fail) throw new Error(`${name} failed`);
    },
  };
}

describe("handlerPerType", () => {
  it("runs every handler of a type, in the order given, and keeps other types apart", async () => {
    const seen: string[] = [];
    const handlers = handlerPerType([handler("a", seen, "a1"), handler("b", seen, "b1"), handler("a", seen, "a2")]);
    expect([...handlers.keys()]).toEqual(["a", "b"]);
    await handlers.get("a")!.handle({}, meta);
    expect(seen).toEqual(["a1", "a2"]);
    await handlers.get("b")!.handle({}, meta);
    expect(seen).toEqual(["a1", "a2", "b1"]);
  });

  it("fails the event when one of them fails, so the consumer retries it", async () => {
    const seen: string[] = [];
    const handlers = handlerPerType([handler("a", seen, "a1", true), handler("a", seen, "a2")]);
    await expect(handlers.get("a")!.handle({}, meta)).rejects.toThrow("a1 failed");
    expect(seen).toEqual(["a1"]);
  });
});
