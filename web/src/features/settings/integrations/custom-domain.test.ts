import { describe, expect, it } from "@jest/globals";
import { domainInputProblem, hostField, recordState, registrableDomain } from "./custom-domain";

describe("the custom domain as the owner types it", () => {
  it("takes a name under a domain, in any case, with a trailing dot", () => {
    for (const ok of ["www.example-bikes.co.uk", " Shop.Example.com. ", "bücher.example.de", "a.b.example.org"])
      expect(`${ok} ${domainInputProblem(ok)}`).toBe(`${ok} null`);
  });

  it("says why a URL, an IP, a single label or a special-use name is not a domain", () => {
    expect(domainInputProblem("")).toBe("Domain is required");
    expect(domainInputProblem("https://www.example.com/")).toContain("no https:// and no path");
    expect(domainInputProblem("10.0.0.1")).toBe("Enter a domain name, not an IP address");
    expect(domainInputProblem("bikes")).toContain("Enter a domain such as www.example.com");
    expect(domainInputProblem("shop.localhost")).toBe("This domain cannot be reached on the internet");
  });

  it("refuses a root domain, saying why and what to use instead", () => {
    expect(domainInputProblem("example-bikes.co.uk")).toBe(
      "example-bikes.co.uk is a root domain: DNS allows no CNAME record there. Use a name under it, such as www.example-bikes.co.uk, and have your DNS host redirect example-bikes.co.uk to it.",
    );
    expect(domainInputProblem("Example.COM")).toContain("such as www.example.com");
  });
});

describe("a record in the table", () => {
  const cname = { type: "CNAME" as const, name: "www.example.com", value: "crafter.app", found: [], ok: false };

  it("is not checked yet, found, not found, or holding another value", () => {
    expect(recordState(cname, null)).toBe("not_checked");
    expect(recordState(cname, "2026-11-28T08:00:00Z")).toBe("not_found");
    expect(recordState({ ...cname, found: ["elsewhere.net"] }, "2026-11-28T08:00:00Z")).toBe("wrong_value");
    expect(recordState({ ...cname, found: ["crafter.app"], ok: true }, "2026-11-28T08:00:00Z")).toBe("found");
  });

  it("names its host field relative to the registrable domain", () => {
    expect(registrableDomain("www.example-bikes.co.uk")).toBe("example-bikes.co.uk");
    expect(hostField("www.example-bikes.co.uk", "www.example-bikes.co.uk")).toBe("www");
    expect(hostField("_crafter-verification.shop.eu.example.com", "shop.eu.example.com")).toBe(
      "_crafter-verification.shop.eu",
    );
  });
});
