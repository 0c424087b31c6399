import { describe, expect, it } from "@jest/globals";
import { checkDomainInput, judge, nextStatus } from "../src/domain/custom-domain";

const token = "crafter-verification=abc";
const platform = ["crafter.app", "localhost"];

describe("a custom domain as typed", () => {
  it("takes a host name, normalized; punycode for an IDN", () => {
    expect(checkDomainInput(" WWW.Example-Bikes.co.uk. ", platform)).toEqual({
      ok: true,
      domain: "www.example-bikes.co.uk",
    });
    expect(checkDomainInput("bücher.example.de", platform)).toEqual({ ok: true, domain: "xn--bcher-kva.example.de" });
  });

  it("refuses URLs, IPs, single labels, special-use names and the platform's own hosts", () => {
    for (const bad of [
      "",
      "https://example.com",
      "example.com/path",
      "192.168.1.1",
      "[::1]",
      "example",
      "-bad.example.com",
      "a..example.com",
      "my.localhost",
      "api.svc.cluster.local",
      "crafter.app",
      "www.crafter.app",
      "_crafter-verification.example.com",
      `${"a".repeat(64)}.example.com`,
    ])
      expect(`${bad} ${checkDomainInput(bad, platform).ok}`).toBe(`${bad} false`);
  });

  it("refuses a root domain (no CNAME at a zone's apex), by the Public Suffix List, and says what to use", () => {
    for (const [apex, under] of [
      ["example-bikes.co.uk", "www.example-bikes.co.uk"],
      ["Example.com.", "shop.example.com"],
      ["bikes.pages.dev", "www.bikes.pages.dev"],
    ]) {
      const refused = checkDomainInput(apex!, platform);
      expect(refused).toEqual({
        ok: false,
        message: expect.stringContaining(`DNS allows no CNAME record there. Use a name under it, such as www.`),
      });
      expect(checkDomainInput(under!, platform).ok).toBe(true);
    }
    expect(checkDomainInput("example-bikes.co.uk", platform)).toMatchObject({
      message: expect.stringMatching(/^example-bikes\.co\.uk is a root domain/),
    });
  });
});

describe("what a check's answers mean", () => {
  const judged = (cname: Parameters<typeof judge>[3]["cname"], txt: Parameters<typeof judge>[3]["txt"]) =>
    judge("www.example.com", "crafter.app", token, { cname, txt });

  it("verifies when the CNAME names the target (any case, trailing dot) and a TXT record is the token", () => {
    const verdict = judged({ values: ["Crafter.App."] }, { values: ["v=spf1 -all", token] });
    expect(verdict).toMatchObject({ ok: true, inconclusive: false, problem: "" });
  });

  it("says what it found otherwise", () => {
    const verdict = judged({ values: ["elsewhere.example.net"] }, { error: "none" });
    expect(verdict.ok).toBe(false);
    expect(verdict.problem).toBe(
      "www.example.com is a CNAME to elsewhere.example.net, not to crafter.app. No TXT record found at _crafter-verification.www.example.com.",
    );
    expect(verdict.records.map((r) => r.found)).toEqual([["elsewhere.example.net"], []]);
  });

  it("keeps a verified domain verified through a failed lookup, and fails it when the records are gone", () => {
    const failed = judged({ error: "failed" }, { values: [token] });
    expect(failed.inconclusive).toBe(true);
    expect(nextStatus("verified", failed)).toBe("verified");
    expect(nextStatus("pending", failed)).toBe("pending");
    const gone = judged({ error: "none" }, { values: [token] });
    expect(nextStatus("verified", gone)).toBe("failing");
    expect(nextStatus("failing", judged({ values: ["crafter.app"] }, { values: [token] }))).toBe("verified");
  });
});
