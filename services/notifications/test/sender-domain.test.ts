import { describe, expect, it } from "@jest/globals";
import { dkimStatus, dmarcStatus, normalDomain, recordsFor, selectorFor, spfStatus, tagsOf } from "../src/domain/dkim";
import { resolveSender, signAddressToken, verifyAddressToken } from "../src/domain/sender";

const platform = { name: "Crafter", address: "no-reply@crafter.local" };
const dkim = { domainName: "bikes.example", keySelector: "crafter202611", privateKey: "PEM" };

describe("resolveSender", () => {
  const settings = { fromName: "Leeds Bikes", fromAddress: "Hello@Bikes.example", replyTo: "" };

  it("sends from a verified address with the business's name, signed with its domain's key", () => {
    expect(resolveSender({ settings, verified: true, businessName: "Ignored", platform, dkim })).toEqual({
      from: { name: "Leeds Bikes", address: "hello@bikes.example" },
      dkim,
      ownAddress: true,
    });
  });

  it("never signs with a key of another domain than the From's", () => {
    const other = { ...dkim, domainName: "other.example" };
    expect(resolveSender({ settings, verified: true, businessName: "", platform, dkim: other }).dkim).toBeUndefined();
  });

  it("refuses an unverified address as From: the platform's address, the business's name, its address as Reply-To", () => {
    expect(resolveSender({ settings, verified: false, businessName: "", platform, dkim })).toEqual({
      from: { name: "Leeds Bikes", address: "no-reply@crafter.local" },
      replyTo: "hello@bikes.example",
      ownAddress: false,
    });
  });

  it("prefers the reply-to given, falls back to the business profile's name, then the platform's", () => {
    const noName = { fromName: "", fromAddress: "a@bikes.example", replyTo: "team@bikes.example" };
    expect(resolveSender({ settings: noName, verified: false, businessName: "Bike Shop", platform })).toMatchObject({
      from: { name: "Bike Shop", address: platform.address },
      replyTo: "team@bikes.example",
    });
    expect(resolveSender({ settings: null, verified: false, businessName: "", platform })).toEqual({
      from: platform,
      ownAddress: false,
    });
  });

  it("keeps header-breaking characters out of the display name", () => {
    const evil = { fromName: 'Evil\r\nBcc: x@y.z <"a">', fromAddress: "", replyTo: "" };
    const { from } = resolveSender({ settings: evil, verified: false, businessName: "", platform });
    expect(from.name).toBe("Evil Bcc: x@y.z a");
  });
});

describe("address confirmation tokens", () => {
  const claim = { tokenId: "t1", projectId: "p1", address: "a@b.example", expiresAt: 2_000 };

  it("verifies its own token until it expires", () => {
    const token = signAddressToken("secret-secret-secret-secret-1234", claim);
    expect(verifyAddressToken("secret-secret-secret-secret-1234", token, 1_000)).toEqual({ claim });
    expect(verifyAddressToken("secret-secret-secret-secret-1234", token, 2_001)).toEqual({ error: "expired" });
  });

  it("refuses a token signed with another secret or altered", () => {
    const token = signAddressToken("secret-secret-secret-secret-1234", claim);
    expect(verifyAddressToken("another-secret-another-secret-12", token, 0)).toEqual({ error: "invalid" });
    const [payload, mac] = token.split(".");
    const forged = Buffer.from(JSON.stringify({ t: "t1", p: "p2", a: "a@b.example", e: 2000 })).toString("base64url");
    expect(verifyAddressToken("secret-secret-secret-secret-1234", `${forged}.${mac}`, 0)).toEqual({ error: "invalid" });
    expect(verifyAddressToken("secret-secret-secret-secret-1234", `${payload}`, 0)).toEqual({ error: "invalid" });
  });
});

describe("sending domain records", () => {
  const publicKey = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtest";

  it("names the three records to publish", () => {
    const records = recordsFor({
      domain: "bikes.example",
      selector: "crafter202611",
      publicKey,
      spfInclude: "_spf.crafter.example",
      dmarcReport: "dmarc@crafter.example",
    });
    expect(records).toEqual([
      {
        kind: "dkim",
        type: "TXT",
        host: "crafter202611._domainkey.bikes.example",
        value: `v=DKIM1; k=rsa; p=${publicKey}`,
      },
      { kind: "spf", type: "TXT", host: "bikes.example", value: "v=spf1 include:_spf.crafter.example ~all" },
      {
        kind: "dmarc",
        type: "TXT",
        host: "_dmarc.bikes.example",
        value: "v=DMARC1; p=none; rua=mailto:dmarc@crafter.example; adkim=r; aspf=r",
      },
    ]);
    expect(selectorFor(new Date("2026-01-05T00:00:00Z"))).toBe("crafter202601");
  });

  it("accepts domain names only", () => {
    expect(normalDomain(" Bikes.Example. ")).toBe("bikes.example");
    for (const bad of [
      "localhost",
      "-a.example",
      "a..example",
      "a_b.example",
      "1.2.3.4",
      "a@b.example",
      `${"x".repeat(64)}.com`,
    ])
      expect(normalDomain(bad)).toBeNull();
  });

  it("DKIM: verified for our key (split in chunks or spaced), wrong for another key, pending for none", () => {
    expect(
      dkimStatus(publicKey, { records: [`v=DKIM1; k=rsa; p=${publicKey.slice(0, 10)} ${publicKey.slice(10)}`] }).status,
    ).toBe("verified");
    expect(dkimStatus(publicKey, { records: ["v=DKIM1; k=rsa; p=MIIBother"] })).toMatchObject({
      status: "wrong",
      found: ["v=DKIM1; k=rsa; p=MIIBother"],
    });
    expect(dkimStatus(publicKey, { records: ["v=DKIM1; k=rsa"] }).status).toBe("wrong");
    expect(dkimStatus(publicKey, { error: "none" }).status).toBe("pending");
    expect(dkimStatus(publicKey, { error: "failed" })).toMatchObject({
      status: "pending",
      reason: expect.stringContaining("failed"),
    });
  });

  it("SPF: verified with our include in the one v=spf1 record; wrong without it or with two records", () => {
    const inc = "_spf.crafter.example";
    expect(
      spfStatus(inc, {
        records: ["google-site-verification=x", "v=spf1 include:_spf.google.com include:_spf.crafter.example ~all"],
      }).status,
    ).toBe("verified");
    expect(spfStatus(inc, { records: ["v=spf1 +include:_SPF.crafter.example -all"] }).status).toBe("verified");
    expect(spfStatus(inc, { records: ["v=spf1 include:_spf.crafter.example.evil ~all"] }).status).toBe("wrong");
    expect(spfStatus(inc, { records: ["v=spf1 mx -all", "v=spf1 include:_spf.crafter.example ~all"] }).status).toBe(
      "wrong",
    );
    expect(spfStatus(inc, { records: ["google-site-verification=x"] }).status).toBe("pending");
    expect(spfStatus(inc, { error: "none" }).status).toBe("pending");
  });

  it("DMARC: verified with a policy, wrong without one or with two records, pending for none", () => {
    expect(dmarcStatus({ records: ["v=DMARC1; p=quarantine; rua=mailto:x@y.z"] }).status).toBe("verified");
    expect(dmarcStatus({ records: ["v=DMARC1; rua=mailto:x@y.z"] }).status).toBe("wrong");
    expect(dmarcStatus({ records: ["v=DMARC1; p=none", "v=DMARC1; p=reject"] }).status).toBe("wrong");
    expect(dmarcStatus({ records: [] }).status).toBe("pending");
    expect(tagsOf("v=DMARC1; P = reject").get("p")).toBe("reject");
  });
});
