import { describe, expect, it } from "@jest/globals";
import { flagProviderRouter, SENDGRID_FLAG } from "../src/clients/provider-router";
import type { EmailProvider } from "../src/mail/providers";
import { Throttle } from "../src/mail/providers";

// The per-user provider choice: SendGrid only when the user's sendgrid_integration flag is on and a
// SendGrid provider is configured; the account service's answer cached for cacheMs, a stale answer
// used while it is away.
const provider = (name: EmailProvider["name"]): EmailProvider => ({ name, send: async () => ({ messageId: name }) });
const smtp = { provider: provider("smtp"), throttle: new Throttle(10) };
const sendgrid = { provider: provider("sendgrid"), throttle: new Throttle(10) };

describe("flagProviderRouter", () => {
  it("sends a flagged user's email through SendGrid and everyone else's through SMTP", async () => {
    const flags: Record<string, string[]> = { ann: [SENDGRID_FLAG, "automation"], bob: ["automation"] };
    const router = flagProviderRouter({ smtp, sendgrid, flagsOf: async (u) => flags[u] ?? [], cacheMs: 0 });
    expect(await router.providerFor("ann")).toBe(sendgrid);
    expect(await router.providerFor("bob")).toBe(smtp);
    flags.bob = [SENDGRID_FLAG];
    expect(await router.providerFor("bob")).toBe(sendgrid);
  });

  it("uses SMTP for everyone when no SendGrid key is configured", async () => {
    const router = flagProviderRouter({ smtp, sendgrid: null, flagsOf: async () => [SENDGRID_FLAG], cacheMs: 0 });
    expect(await router.providerFor("ann")).toBe(smtp);
  });

  it("asks again after cacheMs, keeps the last answer while the account service is away, and throws with none", async () => {
    let now = 0;
    let calls = 0;
    let answer: string[] | Error = [SENDGRID_FLAG];
    const router = flagProviderRouter({
      smtp,
      sendgrid,
      cacheMs: 1000,
      now: () => now,
      flagsOf: async () => {
        calls++;
        if (answer instanceof Error) throw answer;
        return answer;
      },
    });
    expect(await router.providerFor("ann")).toBe(sendgrid);
    expect(await router.providerFor("ann")).toBe(sendgrid);
    expect(calls).toBe(1);
    now = 1500;
    answer = new Error("account unavailable");
    expect(await router.providerFor("ann")).toBe(sendgrid);
    await expect(router.providerFor("bob")).rejects.toThrow("account unavailable");
    answer = [];
    now = 3000;
    expect(await router.providerFor("ann")).toBe(smtp);
  });
});
