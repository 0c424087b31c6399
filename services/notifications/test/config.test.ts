import { loadConfig } from "@crafter/kit";
import { describe, expect, it } from "@jest/globals";
import { configSchema } from "../src/config";

// What an operator who forgets a setting sees at start: one message naming it, not a crash later.
const base = {
  AUTH_URL: "http://auth:50051",
  CONTACTS_URL: "http://contacts:50051",
  BILLING_URL: "http://billing:50051",
  PROJECTS_URL: "http://projects:50051",
  ACCOUNT_URL: "http://account:50051",
  WORKFLOWS_URL: "http://workflows:50051",
  MEDIA_URL: "http://media:50051",
  PUBLIC_ORIGIN: "https://crafter.example",
};

describe("the notifications service's settings", () => {
  it("needs a key for signed email links: EMAIL_TRACKING_SECRET, or SERVICE_SECRET to derive it from", () => {
    expect(() => loadConfig(configSchema, base)).toThrow(/EMAIL_TRACKING_SECRET or SERVICE_SECRET is required/);
    expect(loadConfig(configSchema, { ...base, SERVICE_SECRET: "s".repeat(32) }).EMAIL_PROVIDER).toBe("smtp");
    expect(() => loadConfig(configSchema, { ...base, EMAIL_TRACKING_SECRET: "t".repeat(32) })).not.toThrow();
  });

  it("needs SendGrid's key when SendGrid sends everyone's email", () => {
    const withSecret = { ...base, SERVICE_SECRET: "s".repeat(32), EMAIL_PROVIDER: "sendgrid" };
    expect(() => loadConfig(configSchema, withSecret)).toThrow(
      /SENDGRID_API_KEY is required when EMAIL_PROVIDER=sendgrid/,
    );
    expect(loadConfig(configSchema, { ...withSecret, SENDGRID_API_KEY: "SG.key" }).SENDGRID_API_KEY).toBe("SG.key");
  });
});
