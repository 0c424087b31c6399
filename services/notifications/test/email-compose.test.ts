import { describe, expect, it } from "@jest/globals";
import { chooseWinner, readinessErrors, statsOf, variantOf } from "../src/domain/campaign-rules";
import {
  composeEmail,
  fillSmartValues,
  signTrackingToken,
  verifyTrackingToken,
  withUtm,
} from "../src/domain/email-compose";
import { backoffDelays, parseAddress, Throttle } from "../src/mail/providers";

const links = {
  unsubscribeUrl: "https://app.test/preferences/tok",
  preferencesUrl: "https://app.test/preferences/tok",
  oneClickUrl: "https://app.test/api/public/unsubscribe/tok",
};
const contact = { contactId: "c1", email: "ann@example.test", firstName: "Ann", lastName: "" };
const business = { name: "Crumb & Co.", address: "1 Baker Street, London" };

describe("smart values", () => {
  it("fills contact and business values, with fallbacks for empty ones, escaping HTML", () => {
    const out = fillSmartValues(
      'Hi {{contact.firstName | "there"}} {{contact.lastName | "friend"}} from {{business.name}} {{unknown.x}}',
      { contact: { ...contact, firstName: "<Ann>" }, business, links },
      (v) => v.replace(/</g, "&lt;").replace(/>/g, "&gt;"),
    );
    expect(out).toBe("Hi &lt;Ann&gt; friend from Crumb & Co. {{unknown.x}}");
  });
});

describe("UTM", () => {
  it("adds source, medium and campaign to http links without UTM", () => {
    const url = new URL(withUtm("https://shop.test/p?x=1", "Spring sale"));
    expect(url.searchParams.get("utm_source")).toBe("crafter");
    expect(url.searchParams.get("utm_medium")).toBe("email");
    expect(url.searchParams.get("utm_campaign")).toBe("Spring sale");
    expect(url.searchParams.get("x")).toBe("1");
  });
  it("leaves links that already carry UTM, and non-http links, alone", () => {
    expect(withUtm("https://shop.test/?utm_source=news", "c")).toBe("https://shop.test/?utm_source=news");
    expect(withUtm("mailto:a@b.test", "c")).toBe("mailto:a@b.test");
  });
});

describe("composeEmail", () => {
  const secret = "s".repeat(40);
  const tracking = {
    openUrl: "https://app.test/t/o/open.gif",
    clickUrl: (url: string) => `https://app.test/t/c/${signTrackingToken(secret, { deliveryId: "d1", url })}`,
  };
  const email = composeEmail({
    subject: 'Hello {{contact.firstName | "there"}}',
    preheader: "Fresh bread",
    html: '<html><body><p>Hi {{contact.firstName}}</p><a href="https://shop.test/bread">Shop</a> <a href="{{unsubscribe_url}}">Leave</a></body></html>',
    contact,
    business,
    links,
    tracking,
    utmCampaign: "Spring",
  });

  it("has the RFC 8058 one-click headers", () => {
    expect(email.headers).toEqual({
      "List-Unsubscribe": "<https://app.test/api/public/unsubscribe/tok>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
  });
  it("wraps content links in signed click redirects carrying the UTM target, and keeps consent links", () => {
    const hrefs = [...email.html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
    const tracked = hrefs.find((h) => h.includes("/t/c/"))!;
    const claim = verifyTrackingToken(secret, tracked.split("/t/c/")[1]!);
    expect(claim?.deliveryId).toBe("d1");
    expect(new URL(claim!.url!).searchParams.get("utm_campaign")).toBe("Spring");
    expect(hrefs).toContain(links.unsubscribeUrl);
  });
  it("adds the footer with the business address, the preheader and the pixel", () => {
    expect(email.subject).toBe("Hello Ann");
    expect(email.html).toContain("1 Baker Street, London");
    expect(email.html).toContain("Crumb &amp; Co.");
    expect(email.html).toContain('<img src="https://app.test/t/o/open.gif"');
    expect(email.html.indexOf("Fresh bread")).toBeLessThan(email.html.indexOf("Hi Ann"));
    expect(email.text).toContain(`Unsubscribe: ${links.unsubscribeUrl}`);
    expect(email.text).toContain("1 Baker Street, London");
  });
  it("adds no pixel and leaves links alone without tracking", () => {
    const plain = composeEmail({
      subject: "s",
      preheader: "",
      html: '<a href="https://shop.test/">x</a>',
      contact,
      business,
      links,
      tracking: null,
      utmCampaign: null,
    });
    expect(plain.html).toContain('href="https://shop.test/"');
    expect(plain.html).not.toContain("<img");
  });
});

describe("tracking tokens", () => {
  const secret = "k".repeat(40);
  it("round-trips and refuses tampering or another key", () => {
    const token = signTrackingToken(secret, { deliveryId: "d42" });
    expect(verifyTrackingToken(secret, token)).toEqual({ deliveryId: "d42" });
    expect(verifyTrackingToken("x".repeat(40), token)).toBeNull();
    expect(verifyTrackingToken(secret, `${token.slice(0, -1)}A`)).toBeNull();
    expect(verifyTrackingToken(secret, "garbage")).toBeNull();
    const other = signTrackingToken(secret, { deliveryId: "d1", url: "https://evil.test/" });
    const [payload] = other.split(".");
    expect(verifyTrackingToken(secret, `${payload}.${token.split(".")[1]}`)).toBeNull();
  });
  it("refuses a signed click whose URL is not http(s)", () => {
    expect(
      verifyTrackingToken(secret, signTrackingToken(secret, { deliveryId: "d", url: "javascript:alert(1)" })),
    ).toBeNull();
  });
});

describe("campaign rules", () => {
  it("puts about the share's percent in the test, split between a and b, stable per contact", () => {
    const variants = Array.from({ length: 4000 }, (_, i) => variantOf("camp", `c${i}`, 20));
    const test = variants.filter((v) => v !== "main").length;
    expect(test).toBeGreaterThan(700);
    expect(test).toBeLessThan(900);
    expect(Math.abs(variants.filter((v) => v === "a").length - variants.filter((v) => v === "b").length)).toBeLessThan(
      120,
    );
    expect(variantOf("camp", "c7", 20)).toBe(variants[7]);
    expect(variantOf("camp", "c7", null)).toBe("main");
  });
  it("chooses the higher open rate, then clicks, a tie going to a", () => {
    expect(chooseWinner({ sent: 10, opened: 2, clicked: 0 }, { sent: 10, opened: 5, clicked: 0 })).toBe("b");
    expect(chooseWinner({ sent: 10, opened: 5, clicked: 0 }, { sent: 10, opened: 5, clicked: 1 })).toBe("b");
    expect(chooseWinner({ sent: 0, opened: 0, clicked: 0 }, { sent: 0, opened: 0, clicked: 0 })).toBe("a");
  });
  it("computes rates as fractions of sent", () => {
    const stats = statsOf({
      recipients: 10,
      sent: 8,
      delivered: 0,
      bounced: 2,
      complained: 0,
      opened: 4,
      clicked: 1,
      failed: 1,
      skipped: 1,
      possibleDuplicates: 0,
    });
    expect(stats).toMatchObject({
      delivered: 6,
      deliveryRate: 0.75,
      bounceRate: 0.25,
      openRate: 0.5,
      clickRate: 0.125,
    });
    expect(statsOf({ ...stats, sent: 0, bounced: 0, opened: 0, clicked: 0 }).openRate).toBe(0);
  });
  it("names what a campaign lacks before it can be sent", () => {
    expect(readinessErrors({ name: "x", segmentId: "", subject: " ", html: "", abTest: { subjectB: "" } })).toEqual({
      segmentId: "Choose a segment",
      subject: "Subject is required",
      html: "The email has no content",
      "abTest.subjectB": "Subject B is required",
    });
  });
});

describe("providers", () => {
  it("parses a From header", () => {
    expect(parseAddress("Crafter <no-reply@crafter.test>")).toEqual({
      email: "no-reply@crafter.test",
      name: "Crafter",
    });
    expect(parseAddress("a@b.test")).toEqual({ email: "a@b.test" });
  });
  it("backs off ×4 per retry with bounded jitter", () => {
    expect(backoffDelays(3, 100, () => 0)).toEqual([100, 400]);
    expect(backoffDelays(1, 100)).toEqual([]);
    for (const d of backoffDelays(4, 100, () => 0.999)) expect(d).toBeGreaterThan(0);
  });
  it("lets a burst through, then paces to the rate", async () => {
    let now = 0;
    const throttle = new Throttle(10, () => now);
    for (let i = 0; i < 10; i++) await throttle.take();
    let passed = false;
    const next = throttle.take().then(() => {
      passed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(passed).toBe(false);
    now = 150;
    await next;
    expect(passed).toBe(true);
  });
});
