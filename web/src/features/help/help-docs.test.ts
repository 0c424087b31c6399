/// <reference types="node" />
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "@jest/globals";
import { HELP_FOR_PARAM, helpFor, helpHrefFor, parseHelpDoc, searchHelp } from "./help-docs";

const dir = join(dirname(fileURLToPath(import.meta.url)), "pages");
const docs = readdirSync(dir)
  .filter((file) => file.endsWith(".md"))
  .map((file) => parseHelpDoc(file.replace(/\.md$/, ""), readFileSync(join(dir, file), "utf8")));

describe("help pages", () => {
  it("have a title each and explain every workspace page", () => {
    expect(docs.every((doc) => doc.title && !doc.title.startsWith("<!--"))).toBe(true);
    for (const path of [
      "/app/projects",
      "/app/offerings",
      "/app/offerings/product/tools",
      "/app/offerings/service/crafts",
      "/app/campaign/crafts",
      "/app/business",
      "/app/business/profile",
      "/app/business/reviews",
      "/app/business/crafts",
      "/app/business/tools",
      "/app/dashboard",
      "/app/crafts",
      "/app/crafts/BlogWriter",
    ]) {
      expect(helpFor(docs, path)).toBeDefined();
    }
    expect(helpFor(docs, "/app/business/crafts")?.slug).toBe("strategy");
    expect(helpFor(docs, "/app/crafts/AdsWriter")?.slug).toBe("craft");
    expect(helpFor(docs, "/app/crafts")?.slug).toBe("contents");
    // Each of these pages has its own help, not the generic one.
    for (const [path, slug] of <[string, string][]>[
      ["/app/contacts", "contacts"],
      ["/app/contacts/import", "contacts"],
      ["/app/contacts/c_1", "contacts"],
      ["/app/settings/custom-fields", "contacts"],
      ["/app/segments", "segments"],
      ["/app/segments/new", "segments"],
      ["/app/email/campaigns", "email-campaigns"],
      ["/app/email/campaigns/new", "email-campaigns"],
      ["/app/email/campaigns/c_1", "email-campaigns"],
      ["/app/calendar", "calendar"],
    ]) {
      expect([path, helpFor(docs, path)?.slug]).toEqual([path, slug]);
    }
  });

  it("are found by every word of a query, by word starts, titles first", () => {
    expect(searchHelp(docs, "csv review").map((doc) => doc.slug)[0]).toBe("business-reviews");
    expect(searchHelp(docs, "slug").map((doc) => doc.slug)).toContain("offerings-product");
    expect(searchHelp(docs, "zzzz-nothing")).toEqual([]);
    expect(searchHelp(docs, "  ")).toHaveLength(docs.length);
  });

  it("are linked from a page by its path, which the help page resolves to the page's doc", () => {
    const href = new URL(helpHrefFor("/app/business/reviews"), "https://crafter.test");
    expect(href.pathname).toBe("/app/help");
    const path = href.searchParams.get(HELP_FOR_PARAM) ?? "";
    expect(helpFor(docs, path)?.slug).toBe("business-reviews");
    // A path with characters that mean something in a query string comes back unchanged.
    const odd = new URL(helpHrefFor("/app/crafts/a&b=c?d"), "https://crafter.test");
    expect(odd.searchParams.get(HELP_FOR_PARAM)).toBe("/app/crafts/a&b=c?d");
  });
});
