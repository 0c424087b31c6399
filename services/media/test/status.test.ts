import { describe, expect, it } from "@jest/globals";
import { status } from "../src/domain/status";

describe("media status", () => {
  it("is empty without entries and counts them otherwise", () => {
    expect(status(0)).toEqual({ entries: 0, empty: true });
    expect(status(3)).toEqual({ entries: 3, empty: false });
  });
});
