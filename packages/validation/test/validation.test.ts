import { describe, expect, it } from "@jest/globals";
import {
  cleanDomain,
  DEFAULT_SETTINGS,
  EMAIL_REQUIRED_MESSAGE,
  emailError,
  INVALID_EMAIL_MESSAGE,
  isValidUrl,
  mergeSettings,
  normalizeUrl,
  pageSlugProblem,
  RESERVED_PAGE_SLUGS,
} from "../src/index";

describe("URL rule (spec section 5)", () => {
  it.each([
    ["https://example.com", true],
    ["http://shop.example.co.uk/path?q=1", true],
    ["ftp://files.example.org", true],
    ["https://my-bakery.example", true],
    ["https://a.abcdefghijklmn", true], // last label of 14
    ["https://a.abcdefghijklmno", false], // 15
    ["https://example.c", false], // last label of 1
    ["http://localhost", false], // one label
    ["https://exa_mple.com", false], // underscore
    ["mailto:someone@example.com", false],
    ["javascript:alert(1)", false],
    ["https://", false],
    ["", false],
    ["   ", false],
    ["https://exa mple.com", false],
  ])("%s → %s", (input, valid) => {
    expect(isValidUrl(input)).toBe(valid);
  });

  it("needs a scheme unless scheme-less mode is allowed, then assumes https", () => {
    expect(isValidUrl("example.com")).toBe(false);
    expect(normalizeUrl("example.com", { allowSchemeless: true })).toBe("https://example.com/");
    expect(normalizeUrl("  www.example.com/about ", { allowSchemeless: true })).toBe("https://www.example.com/about");
    expect(normalizeUrl("localhost", { allowSchemeless: true })).toBeNull();
    expect(normalizeUrl("mailto:me@acme.com", { allowSchemeless: true })).toBeNull();
    // Protocol-relative and broken schemes are neither a scheme nor a bare host.
    expect(normalizeUrl("//example.com", { allowSchemeless: true })).toBeNull();
    expect(normalizeUrl("//example.com")).toBeNull();
    expect(normalizeUrl("https:/example.com", { allowSchemeless: true })).toBeNull();
    expect(normalizeUrl("://example.com", { allowSchemeless: true })).toBeNull();
    expect(normalizeUrl("https://user:pass@example.com")).toBeNull();
  });
});

describe("email rule", () => {
  it.each([
    ["", EMAIL_REQUIRED_MESSAGE],
    ["   ", EMAIL_REQUIRED_MESSAGE],
    [undefined, EMAIL_REQUIRED_MESSAGE],
    ["plain", INVALID_EMAIL_MESSAGE],
    ["a@b", INVALID_EMAIL_MESSAGE],
    ["a@b.c", INVALID_EMAIL_MESSAGE],
    ["two@@example.com", INVALID_EMAIL_MESSAGE],
    ["sp ace@example.com", INVALID_EMAIL_MESSAGE],
    ["owner@bakery.example", null],
    ["First.Last+tag@sub.example.co.uk", null],
    // Addresses a naive regex accepts, refused as in validator.js's test list.
    ["multiple..dots@stillinvalid.com", INVALID_EMAIL_MESSAGE],
    ["ends.with.dot.@gmail.com", INVALID_EMAIL_MESSAGE],
    ["foo@_bar.com", INVALID_EMAIL_MESSAGE],
    ['"foobar"@example.com', INVALID_EMAIL_MESSAGE],
    ['"  foo  m端ller "@example.com', INVALID_EMAIL_MESSAGE],
    ['"foo\\@bar"@example.com', INVALID_EMAIL_MESSAGE],
    [".leading.dot@example.com", INVALID_EMAIL_MESSAGE],
    ["Name <name@example.com>", INVALID_EMAIL_MESSAGE],
    ["user@[127.0.0.1]", INVALID_EMAIL_MESSAGE],
    ["hans@m端ller.com", null],
  ])("%s → %s", (input, message) => {
    expect(emailError(input)).toBe(message);
  });
});

describe("domain cleaning", () => {
  it("trims, drops the scheme and a leading www", () => {
    expect(cleanDomain("  https://www.Example.com/about ")).toBe("Example.com/about");
    expect(cleanDomain("http://shop.example.com")).toBe("shop.example.com");
    expect(cleanDomain("www.example.com")).toBe("example.com");
    expect(cleanDomain("example.com")).toBe("example.com");
    expect(cleanDomain("https://wwwexample.com")).toBe("wwwexample.com");
  });
});

describe("settings merge", () => {
  it("ignores empty values and keeps false and 0", () => {
    const merged = mergeSettings(DEFAULT_SETTINGS, {
      theme: "dark",
      viewMode: "",
      customerProfileColumns: [],
      leftSidebarOpen: false,
      rightSidebarWidth: null,
      fastGeneration: undefined,
      zoom: 0,
    });
    expect(merged.theme).toBe("dark");
    expect(merged.viewMode).toBe("list");
    expect(merged.customerProfileColumns).toEqual(DEFAULT_SETTINGS.customerProfileColumns);
    expect(merged.leftSidebarOpen).toBe(false);
    expect(merged.rightSidebarWidth).toBe("medium");
    expect(merged.fastGeneration).toBe(false);
    expect(merged.zoom).toBe(0);
  });

  it("does not change the defaults it merged over", () => {
    mergeSettings(DEFAULT_SETTINGS, { theme: "dark" });
    expect(DEFAULT_SETTINGS.theme).toBe("light");
  });
});

describe("published page slugs (issue 14)", () => {
  it.each([
    ["my-bakery", null],
    ["bakery2026", null],
    ["abc", null],
    ["ab", "length"],
    ["a".repeat(61), "length"],
    ["My-Bakery", "characters"],
    ["my_bakery", "characters"],
    ["-bakery", "characters"],
    ["bakery-", "characters"],
    ["my--bakery", "characters"],
    ["my bakery", "characters"],
    ["café", "characters"],
    ["pricing", "reserved"],
    ["why-us", "reserved"],
    ["integrations", "reserved"],
    ["faq", "reserved"],
    ["signin", "reserved"],
    ["forgot-password", "reserved"],
    ["api", "reserved"],
  ] as const)("%s → %s", (slug, problem) => {
    expect(pageSlugProblem(slug)).toBe(problem);
  });

  it("reserves every first path segment of the site's public routes", () => {
    for (const path of ["/FAQ", "/usecases", "/features", "/why-us", "/pricing", "/integrations/shopify", "/signup"]) {
      const first = path.split("/")[1]!.toLowerCase();
      expect(RESERVED_PAGE_SLUGS.has(first)).toBe(true);
    }
  });
});
