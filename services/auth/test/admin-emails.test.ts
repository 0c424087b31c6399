import { describe, expect, it } from "@jest/globals";
import { effectiveRole } from "../src/domain/admin-emails";
import { describeDevice } from "../src/domain/device";

describe("effectiveRole", () => {
  const admins = ["boss@crafter.test", "@admins.crafter.test"];
  it("raises a verified listed address or domain to admin", () => {
    expect(effectiveRole({ email: "Boss@Crafter.test", role: "owner", emailVerified: true }, admins)).toBe("admin");
    expect(effectiveRole({ email: "a-1@admins.crafter.test", role: "owner", emailVerified: true }, admins)).toBe(
      "admin",
    );
  });
  it("never raises an unverified address, a look-alike domain, or lowers a superadmin", () => {
    expect(effectiveRole({ email: "boss@crafter.test", role: "owner", emailVerified: false }, admins)).toBe("owner");
    expect(effectiveRole({ email: "x@evil-admins.crafter.test", role: "owner", emailVerified: true }, admins)).toBe(
      "owner",
    );
    expect(effectiveRole({ email: "x@example.test", role: "superadmin", emailVerified: true }, [])).toBe("superadmin");
    expect(effectiveRole({ email: "x@example.test", role: "nonsense", emailVerified: true }, [])).toBe("owner");
  });
});

describe("describeDevice", () => {
  it("tells web, mobile and the Chrome extension apart", () => {
    const desktop =
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
    expect(describeDevice(desktop)).toEqual({ kind: "web", browser: "Chrome 126", os: "macOS" });
    const iphone =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
    expect(describeDevice(iphone).kind).toBe("mobile");
    expect(describeDevice(`${desktop} CrafterChromeExtension/1.0`).kind).toBe("chrome");
    expect(describeDevice("")).toEqual({ kind: "web", browser: "", os: "" });
  });
});
