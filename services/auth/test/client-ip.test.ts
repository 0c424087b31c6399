import { rateLimitHeaders } from "@crafter/kit";
import { describe, expect, it } from "@jest/globals";
import { trustedClientIp, UNTRUSTED_IP } from "../src/domain/client-ip";

describe("trustedClientIp", () => {
  it("takes the named IP only from the gateway's verified service token", () => {
    expect(trustedClientIp("203.0.113.7", "gateway")).toBe("203.0.113.7");
    expect(trustedClientIp(" ", "gateway")).toBe("unknown");
    expect(trustedClientIp("203.0.113.7", "workflows")).toBe(UNTRUSTED_IP);
    // No service token (a user or an anonymous caller): nobody else may name an IP.
    expect(trustedClientIp("203.0.113.7", undefined)).toBe(UNTRUSTED_IP);
  });
});

describe("rateLimitHeaders", () => {
  it("gives Retry-After and the IETF RateLimit-Policy / RateLimit fields", () => {
    const headers = rateLimitHeaders(
      { name: "signin", limit: 10, windowSeconds: 900 },
      { allowed: false, count: 11, retryAfterSeconds: 420 },
    );
    expect(headers).toEqual({
      "retry-after": "420",
      "ratelimit-policy": '"signin";q=10;w=900',
      ratelimit: '"signin";r=0;t=420',
    });
  });
});
