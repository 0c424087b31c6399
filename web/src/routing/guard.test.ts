import { describe, expect, it } from "@jest/globals";
import { guard, guardWaits, safeCallbackUrl } from "./guard";

describe("guard rule 1: a not-logged-in visitor on /app goes to /signin with the path as callbackUrl", () => {
  it("sends /app to /signin?callbackUrl=/app", () => {
    expect(guard({ access: "app", pathname: "/app", session: "anonymous" })).toBe("/signin?callbackUrl=%2Fapp");
  });

  it("keeps the query of a deep link in the callbackUrl", () => {
    const target = guard({
      access: "app",
      pathname: "/app/crafts/BlogWriter",
      search: "?craftId=abc&x=1",
      session: "anonymous",
    });
    expect(target).toBe(`/signin?callbackUrl=${encodeURIComponent("/app/crafts/BlogWriter?craftId=abc&x=1")}`);
    const callback = new URLSearchParams(target?.split("?")[1]).get("callbackUrl");
    expect(callback).toBe("/app/crafts/BlogWriter?craftId=abc&x=1");
  });

  it("accepts a search string without the leading ? and ignores an empty one", () => {
    expect(guard({ access: "app", pathname: "/app/crafts", search: "page=2", session: "anonymous" })).toBe(
      `/signin?callbackUrl=${encodeURIComponent("/app/crafts?page=2")}`,
    );
    expect(guard({ access: "app", pathname: "/app/crafts", search: "?", session: "anonymous" })).toBe(
      "/signin?callbackUrl=%2Fapp%2Fcrafts",
    );
  });

  it("guards the /_app shell page too", () => {
    expect(guard({ access: "app", pathname: "/_app", session: "anonymous" })).toBe("/signin?callbackUrl=%2F_app");
  });

  it("leaves guest, auth and public pages alone", () => {
    for (const pathname of ["/signin", "/signup", "/verify"]) {
      expect(guard({ access: "guest", pathname, session: "anonymous" })).toBeNull();
    }
    for (const pathname of ["/forgot-password", "/reset-password"]) {
      expect(guard({ access: "auth", pathname, session: "anonymous" })).toBeNull();
    }
    for (const pathname of ["/", "/pricing", "/application"]) {
      expect(guard({ access: "public", pathname, session: "anonymous" })).toBeNull();
    }
  });

  it("waits for the session only where it may move the visitor", () => {
    expect(guardWaits("app")).toBe(true);
    expect(guardWaits("guest")).toBe(true);
    expect(guardWaits("auth")).toBe(false);
    expect(guardWaits("public")).toBe(false);
  });
});

describe("guard rule 2: a logged-in user with an unverified email on /app goes to /signin", () => {
  it("sends every /app path to /signin without a callbackUrl", () => {
    expect(guard({ access: "app", pathname: "/app", session: "unverified" })).toBe("/signin");
    expect(guard({ access: "app", pathname: "/app/dashboard", search: "?a=1", session: "unverified" })).toBe("/signin");
  });

  it("lets the unverified user stay on /signin (where they are told to check their email): no loop", () => {
    expect(guard({ access: "guest", pathname: "/signin", session: "unverified" })).toBeNull();
    expect(guard({ access: "guest", pathname: "/verify", search: "?token=t", session: "unverified" })).toBeNull();
  });
});

describe("guard rule 3: a verified user on verify, signin or signup goes to the callbackUrl, else /app", () => {
  it("goes to /app without a callbackUrl", () => {
    for (const pathname of ["/signin", "/signup", "/verify"]) {
      expect(guard({ access: "guest", pathname, session: "verified" })).toBe("/app");
    }
  });

  it("goes to a same-site callbackUrl, query included", () => {
    const search = `?callbackUrl=${encodeURIComponent("/app/crafts/BlogWriter?craftId=abc")}`;
    expect(guard({ access: "guest", pathname: "/signin", search, session: "verified" })).toBe(
      "/app/crafts/BlogWriter?craftId=abc",
    );
    expect(
      guard({ access: "guest", pathname: "/signup", search: "?callbackUrl=/app/settings", session: "verified" }),
    ).toBe("/app/settings");
  });

  it("ignores callbackUrls that leave the site", () => {
    for (const callbackUrl of [
      "https://evil.example/app",
      "//evil.example/app",
      "/\\evil.example",
      "\\\\evil.example",
      "javascript:alert(1)",
      "app/dashboard",
      " /app",
      "/app\nLocation: x",
    ]) {
      const search = `?callbackUrl=${encodeURIComponent(callbackUrl)}`;
      expect(guard({ access: "guest", pathname: "/signin", search, session: "verified" })).toBe("/app");
    }
  });

  it("ignores an empty callbackUrl and one pointing back at an auth entry page (which would loop)", () => {
    expect(guard({ access: "guest", pathname: "/signin", search: "?callbackUrl=", session: "verified" })).toBe("/app");
    expect(
      guard({
        access: "guest",
        pathname: "/signin",
        search: "?callbackUrl=%2Fsignin%3FcallbackUrl%3D%2Fapp",
        session: "verified",
      }),
    ).toBe("/app");
    expect(guard({ access: "guest", pathname: "/verify", search: "?callbackUrl=/signup", session: "verified" })).toBe(
      "/app",
    );
  });

  it("leaves a verified user alone everywhere else", () => {
    expect(guard({ access: "app", pathname: "/app/dashboard", session: "verified" })).toBeNull();
    expect(guard({ access: "public", pathname: "/", session: "verified" })).toBeNull();
    expect(guard({ access: "auth", pathname: "/forgot-password", session: "verified" })).toBeNull();
  });
});

describe("safeCallbackUrl", () => {
  it("keeps relative same-site paths with their query and hash", () => {
    expect(safeCallbackUrl("/app")).toBe("/app");
    expect(safeCallbackUrl("/app/crafts?page=2#top")).toBe("/app/crafts?page=2#top");
  });

  it("rejects missing, absolute, protocol-relative and backslash URLs", () => {
    expect(safeCallbackUrl(null)).toBeNull();
    expect(safeCallbackUrl(undefined)).toBeNull();
    expect(safeCallbackUrl("")).toBeNull();
    expect(safeCallbackUrl("http://x.example")).toBeNull();
    expect(safeCallbackUrl("//x.example")).toBeNull();
    expect(safeCallbackUrl("/\\x.example")).toBeNull();
    expect(safeCallbackUrl("/app\\..\\x")).toBeNull();
    expect(safeCallbackUrl("/\tx")).toBeNull();
  });
});
