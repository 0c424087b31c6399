// Referrals for real: the link's code through sign-up (auth → UserRegistered → billing),
// and the referral credits when the referred user's first payment's webhook arrives, signed with
// the stack's test secret as Stripe signs it (stripe-mock sends no webhooks).
import { randomUUID } from "node:crypto";
import {
  type EnvelopeResponse,
  GatewaySession,
  gatewayUrl,
  linkFrom,
  stackEnv,
  uniqueEmail,
  verifiedSession,
  waitForEmail,
} from "@crafter/kit/testing";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";
import Stripe from "stripe";

jest.setTimeout(120_000);

const secret = stackEnv().STRIPE_WEBHOOK_SECRET ?? "whsec_crafter_local";
// Only for signing (no request is made with it).
const signer = new Stripe("sk_test_signer");

async function deliver(event: object): Promise<EnvelopeResponse> {
  const payload = JSON.stringify(event);
  const header = signer.webhooks.generateTestHeaderString({ payload, secret });
  const response = await fetch(`${gatewayUrl()}/api/billing/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": header },
    body: payload,
  });
  return {
    status: response.status,
    body: (await response.json()) as EnvelopeResponse["body"],
    headers: response.headers,
  };
}

/** A credit pack's Checkout, paid: the event Stripe sends (a new event id each call). */
function packPaid(userId: string, customerId: string) {
  return {
    id: `evt_${randomUUID().replaceAll("-", "")}`,
    object: "event",
    api_version: "2026-10-28.endive",
    type: "checkout.session.completed",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: {
      object: {
        id: `cs_test_${randomUUID().replaceAll("-", "")}`,
        object: "checkout.session",
        mode: "payment",
        status: "complete",
        payment_status: "paid",
        client_reference_id: userId,
        customer: customerId,
        metadata: { userId, packId: "pack_500" },
      },
    },
  };
}

interface Referrals {
  code: string;
  link: string;
  signedUp: number;
  paid: number;
  referrerCredits: number;
  referredCredits: number;
}

const referralsOf = async (session: GatewaySession) =>
  (await session.get<Referrals>("/api/settings/referrals")).body.result;

const referralGrants = async (session: GatewaySession) => {
  const ledger = await session.get("/api/billing/ledger?page=1&pageSize=100");
  return (ledger.body.result.result as Array<{ source: string; delta: number }>).filter((e) => e.source === "referral");
};

/** Polls until `check` passes (the sign-up reaches billing through Kafka). */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

let referrer: GatewaySession;
let code = "";

/** Turns `first_promoter` on for the session's user, as an admin does (the test stack's @admins.crafter.test). */
async function enableReferrals(session: GatewaySession): Promise<void> {
  const adminEmail = `admin-${randomUUID().slice(0, 8)}@admins.crafter.test`;
  const admin = new GatewaySession();
  await admin.post("/auth/signup", { email: adminEmail, password: "password-123" });
  const token = linkFrom(await waitForEmail(adminEmail, "Verify your email"), "/verify").searchParams.get("token")!;
  await admin.post("/auth/verify", { token });
  expect((await admin.post("/auth/signin", { email: adminEmail, password: "password-123" })).status).toBe(200);
  const userId: string = (await session.get("/auth/check")).body.result.user.userId;
  const set = await admin.put(`/api/admin/users/${userId}/flags`, { flag: "first_promoter", enabled: true });
  expect(set.status).toBe(200);
}

beforeAll(async () => {
  ({ session: referrer } = await verifiedSession("ref-referrer"));
  // The flag is off by default, and the server refuses the page's API, not only the web's menu.
  const off = await referrer.get("/api/settings/referrals");
  expect(off.status).toBe(403);
  expect(off.body).toMatchObject({
    errorMessage: "This feature is not available for your account.",
    error: { code: "FEATURE_DISABLED" },
  });
  await enableReferrals(referrer);
  const first = await referralsOf(referrer);
  code = first.code;
  expect(first).toEqual({
    code: expect.stringMatching(/^[a-z2-9]{8}$/),
    link: expect.stringMatching(new RegExp(`/signup\\?ref=${first.code}$`)),
    signedUp: 0,
    paid: 0,
    referrerCredits: 100,
    referredCredits: 50,
  });
  // The code is the user's: asked again, the same.
  expect((await referralsOf(referrer)).code).toBe(code);
});

describe("referrals", () => {
  it("records the referrer once and gives both their credits once on the first payment, however often Stripe delivers it", async () => {
    const referred = new GatewaySession();
    const email = uniqueEmail("ref-referred");
    // Signing up twice through the link (before verifying) records one referral.
    expect((await referred.post("/auth/signup", { email, password: "password-123", ref: code })).status).toBe(200);
    expect((await referred.post("/auth/signup", { email, password: "password-123", ref: code })).status).toBe(200);
    const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
    expect((await referred.post("/auth/verify", { token })).status).toBe(200);
    expect((await referred.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
    const userId: string = (await referred.get("/auth/check")).body.result.user.userId;

    const signedUp = await eventually(
      () => referralsOf(referrer),
      (view) => view.signedUp === 1,
    );
    expect(signedUp).toMatchObject({ signedUp: 1, paid: 0 });
    expect(await referralGrants(referrer)).toEqual([]);

    const customerId = `cus_${randomUUID().replaceAll("-", "").slice(0, 14)}`;
    const paid = packPaid(userId, customerId);
    const outcomes = await Promise.all([deliver(paid), deliver(paid), deliver(paid)]);
    expect(outcomes.map((o) => o.status)).toEqual([200, 200, 200]);
    expect((await deliver(paid)).body.result.outcome).toBe("duplicate");
    // A second payment (another event) rewards nothing more.
    expect((await deliver(packPaid(userId, customerId))).status).toBe(200);

    expect(await referralGrants(referrer)).toEqual([expect.objectContaining({ kind: "grant", delta: 100 })]);
    expect(await referralGrants(referred)).toEqual([expect.objectContaining({ kind: "grant", delta: 50 })]);
    expect(await referralsOf(referrer)).toMatchObject({ signedUp: 1, paid: 1 });
  });

  it("ignores an unknown code", async () => {
    const stranger = new GatewaySession();
    const email = uniqueEmail("ref-unknown");
    const signup = await stranger.post("/auth/signup", { email, password: "password-123", ref: "zzzzzzzz" });
    expect(signup.status).toBe(200);
    await waitForEmail(email, "Verify your email");
    // Nothing recorded for the unknown code, and the referrer's counts did not move.
    expect(await referralsOf(referrer)).toMatchObject({ signedUp: 1, paid: 1 });
  });
});
