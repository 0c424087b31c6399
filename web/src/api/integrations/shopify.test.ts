import { describe, expect, it } from "@jest/globals";
import { shopDomainProblem, syncProgress } from ".";

describe("the store domain, checked as it is typed", () => {
  it("takes a store's domain however it is pasted", () => {
    for (const typed of [
      "town-bikes.myshopify.com",
      " https://Town-Bikes.myshopify.com/admin ",
      "town-bikes.myshopify.com/",
    ])
      expect(shopDomainProblem(typed, "myshopify.com")).toBeNull();
  });

  it("says what is wrong with anything else", () => {
    expect(shopDomainProblem("", "myshopify.com")).toBe("Enter your store's domain");
    for (const typed of ["townbikes.com", "town bikes.myshopify.com", "evil.com/.myshopify.com", "a.b.myshopify.com"])
      expect(shopDomainProblem(typed, "myshopify.com")).toBe(
        "Enter the domain Shopify gave your store, like your-store.myshopify.com",
      );
  });

  it("follows the server's suffix", () => {
    expect(shopDomainProblem("bikes.myshopify.crafter.test", "myshopify.crafter.test")).toBeNull();
    expect(shopDomainProblem("bikes.myshopify.crafter.test", "myshopify.com")).not.toBeNull();
  });
});

describe("Sync now's progress", () => {
  const sync = (part: "products" | "customers", finishedAt: string) => ({ part, finishedAt, imported: 1, error: "" });

  it("counts only the parts finished since it was asked", () => {
    const asked = "2026-11-28T08:00:00.000Z";
    const older = [sync("products", "2026-11-28T07:00:00.000Z"), sync("customers", "2026-11-28T07:00:00.000Z")];
    expect(syncProgress(older, asked)).toEqual({ done: [], complete: false });
    const half = [sync("products", "2026-11-28T08:00:02.000Z"), older[1]!];
    expect(syncProgress(half, asked).done.map((item) => item.part)).toEqual(["products"]);
    const both = [half[0]!, sync("customers", "2026-11-28T08:00:03.000Z")];
    expect(syncProgress(both, asked).complete).toBe(true);
    expect(syncProgress(both, null).complete).toBe(false);
  });
});
