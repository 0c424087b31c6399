import { describe, expect, it } from "@jest/globals";
import { KeyedQueue } from "../src/store/keyed-queue";

describe("KeyedQueue", () => {
  it("runs one key's work one at a time in call order, and other keys alongside", async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const gates = new Map<string, () => void>();
    const step = (name: string) => () =>
      new Promise<string>((resolve) => {
        log.push(`start ${name}`);
        gates.set(name, () => {
          log.push(`end ${name}`);
          resolve(name);
        });
      });
    const a1 = queue.run("a", step("a1"));
    const a2 = queue.run("a", step("a2"));
    const b1 = queue.run("b", step("b1"));
    await Promise.resolve();
    await Promise.resolve();
    expect(log).toEqual(["start a1", "start b1"]);
    gates.get("a1")!();
    expect(await a1).toBe("a1");
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(["start a1", "start b1", "end a1", "start a2"]);
    gates.get("a2")!();
    gates.get("b1")!();
    expect(await Promise.all([a2, b1])).toEqual(["a2", "b1"]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(queue.size).toBe(0);
  });

  it("goes on with the next work after a failure, and hands the failure to its caller", async () => {
    const queue = new KeyedQueue();
    const failed = queue.run("a", async () => {
      throw new Error("boom");
    });
    const next = queue.run("a", async () => "next");
    await expect(failed).rejects.toThrow("boom");
    expect(await next).toBe("next");
  });
});
