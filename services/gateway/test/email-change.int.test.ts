import { GatewaySession, linkFrom, uniqueEmail, verifiedSession, waitForEmail } from "@crafter/kit/testing";
import { describe, expect, it, jest } from "@jest/globals";

// Changing the account's email through the gateway, auth, notifications (SMTP to
// Mailpit) and account: the current password, a link to the new address, a notice to the old one,
// and the change applied only when the link is used.
jest.setTimeout(90_000);

/** Polls until `check` passes (account learns the new email through Kafka; the gateway caches 10 s). */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe("email change", () => {
  it("asks for the password, refuses a taken email, and changes only when the emailed link is used", async () => {
    const [{ session, email: oldEmail }, { email: takenEmail }] = await Promise.all([
      verifiedSession("email-change"),
      verifiedSession("email-taken"),
    ]);
    const newEmail = uniqueEmail("email-new");

    const wrong = await session.post("/api/settings/email", { newEmail, currentPassword: "not-my-password" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields).toEqual({ currentPassword: "Your current password is not correct." });

    const taken = await session.post("/api/settings/email", {
      newEmail: takenEmail.toUpperCase(),
      currentPassword: "password-123",
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({
      errorMessage: "This email is already used by another account.",
      error: { code: "EMAIL_TAKEN" },
    });

    const asked = await session.post("/api/settings/email", { newEmail, currentPassword: "password-123" });
    expect(asked.status).toBe(200);
    expect(asked.body.result.newEmail).toBe(newEmail);

    // Nothing changes before the link is used: the old address still signs in.
    expect((await session.get("/api/user/account")).body.result.email).toBe(oldEmail);
    const notice = await waitForEmail(oldEmail, "Your Crafter email is being changed");
    expect(notice.Text).toContain(newEmail);
    const link = linkFrom(await waitForEmail(newEmail, "Confirm your new email for Crafter"), "/confirm-email");
    const token = link.searchParams.get("token")!;
    const fresh = new GatewaySession();
    expect((await fresh.post("/auth/signin", { email: oldEmail, password: "password-123" })).status).toBe(200);

    // The account view is cached (10 s): read it right before the link is used (from another
    // browser, so the gateway bumps nothing for this user), so a stale copy would be served.
    expect((await session.get("/api/user/account")).body.result.email).toBe(oldEmail);
    const confirmedAt = Date.now();
    const confirmed = await new GatewaySession().post("/auth/email/confirm", { token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.result).toEqual({ email: newEmail });
    // The link works once.
    const again = await new GatewaySession().post("/auth/email/confirm", { token });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe("InvalidToken");

    expect(
      (await new GatewaySession().post("/auth/signin", { email: newEmail, password: "password-123" })).status,
    ).toBe(200);
    expect(
      (await new GatewaySession().post("/auth/signin", { email: oldEmail, password: "password-123" })).status,
    ).not.toBe(200);
    const account = await eventually(
      async () => (await session.get("/api/user/account")).body.result.email as string,
      (email) => email === newEmail,
    );
    expect(account).toBe(newEmail);
    // Account applies EmailVerified and marks the cached view stale: the new address shows as soon
    // as the event is consumed, well before the cache's 10 s would run out.
    expect(Date.now() - confirmedAt).toBeLessThan(6_000);
  });
});
