import { describe, expect, it } from "@jest/globals";
import { urlOf } from "./contract";

describe("urlOf", () => {
  it("fills and encodes path parameters", () => {
    expect(urlOf("/api/contacts/{id}", { path: { id: "a/b c" } })).toBe("/api/contacts/a%2Fb%20c");
  });

  it("appends the query in key order, leaving out empty values and repeating array keys", () => {
    const url = urlOf("/api/contacts", {
      query: { q: "ada lovelace", page: 2, tags: ["a", "b"], sort: undefined, x: "" },
    });
    expect(url).toBe("/api/contacts?page=2&q=ada+lovelace&tags=a&tags=b");
    expect(urlOf("/api/contacts", { query: { page: 2, q: "ada lovelace" } })).toBe(
      urlOf("/api/contacts", { query: { q: "ada lovelace", page: 2 } }),
    );
    expect(urlOf("/api/contacts", {})).toBe("/api/contacts");
  });

  it("refuses a template whose parameter has no value", () => {
    expect(() => urlOf("/api/contacts/{id}")).toThrow("{id}");
  });
});
