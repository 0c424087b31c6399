import { describe, expect, it } from "@jest/globals";
import { emailChoiceOptions, loadAllPages } from "./email-choices";
import type { Paged } from "./types";

/** A paged list of `total` named items, `size` a page, as the gateway answers it. */
function pagedList(total: number, size: number) {
  const all = Array.from({ length: total }, (_, i) => ({ id: `c${i + 1}`, name: `Campaign ${i + 1}` }));
  const asked: number[] = [];
  const page = async (n: number): Promise<Paged<{ id: string; name: string }>> => {
    asked.push(n);
    return {
      result: all.slice((n - 1) * size, n * size),
      meta: { count: total, currentPage: n, totalPages: Math.max(1, Math.ceil(total / size)) },
    };
  };
  return { page, asked };
}

describe("the email chooser's lists", () => {
  it("reads every page, so the 101st of 250 campaigns can be chosen", async () => {
    const list = pagedList(250, 100);
    const items = await loadAllPages(list.page);
    expect(items).toHaveLength(250);
    expect(items[100]).toEqual({ id: "c101", name: "Campaign 101" });
    expect(list.asked).toEqual([1, 2, 3]);
  });

  it("stops at an empty list, and at the page limit", async () => {
    const none = pagedList(0, 100);
    expect(await loadAllPages(none.page)).toEqual([]);
    expect(none.asked).toEqual([1]);
    const many = pagedList(1000, 10);
    expect(await loadAllPages(many.page, 3)).toHaveLength(30);
    expect(many.asked).toEqual([1, 2, 3]);
  });

  it("offers any email, every campaign and the other automations, each by its name", () => {
    const options = emailChoiceOptions(
      [{ id: "c1", name: "Spring sale" }],
      [
        { id: "a1", name: "Welcome" },
        { id: "self", name: "This one" },
      ],
      "self",
    );
    expect(options).toEqual([
      { value: "", label: "Any email of this project" },
      { label: "Campaigns", options: [{ value: "c1", label: "Spring sale" }] },
      { label: "Automation emails", options: [{ value: "a1", label: "Welcome" }] },
    ]);
  });
});
