import { describe, expect, it } from "@jest/globals";
import { ApiError } from "../api/errors";
import { type ActionDeps, runAction } from "./use-action";

function deps() {
  const log: string[] = [];
  const recorder: ActionDeps = {
    mutate: async (key) => {
      log.push(`mutate ${typeof key === "string" ? key : "matcher"}`);
    },
    notifyError: (error, title) => log.push(`error ${title}: ${(error as Error).message}`),
    notifySuccess: (title) => log.push(`success ${title}`),
  };
  return { log, recorder };
}

describe("runAction", () => {
  it("revalidates the named reads, then toasts the success, and answers the result", async () => {
    const { log, recorder } = deps();
    const result = await runAction(
      async () => ({ id: "s1" }),
      { error: "Could not save", success: (saved) => `Saved ${saved.id}`, revalidate: ["/api/segments", () => true] },
      recorder,
    );
    expect(result).toEqual({ id: "s1" });
    expect(log).toEqual(["mutate /api/segments", "mutate matcher", "success Saved s1"]);
  });

  it("toasts a failure with its title and the server's message, revalidates nothing, and answers undefined", async () => {
    const { log, recorder } = deps();
    const failing = async () => {
      throw new ApiError({ status: 409, code: "CONFLICT", serverMessage: "Name taken" });
    };
    await expect(
      runAction(failing, { error: "Could not save", revalidate: ["/api/segments"] }, recorder),
    ).resolves.toBe(undefined);
    expect(log).toEqual(["error Could not save: Name taken"]);
  });

  it("lets onError take an error (a field message) instead of the toast", async () => {
    const { log, recorder } = deps();
    const seen: unknown[] = [];
    const failing = async () => {
      throw new ApiError({ status: 400, fields: { name: "Required" } });
    };
    await runAction(failing, { error: "Could not save", onError: (error) => seen.push(error) > 0 }, recorder);
    expect(seen).toHaveLength(1);
    expect(log).toEqual([]);
  });
});
