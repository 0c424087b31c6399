import { describe, expect, it } from "@jest/globals";
import { payingUser, REFERRAL_CODE_LENGTH, referralCodeFrom, referralGrantKeys } from "../src/domain/referrals";
import type { InvoiceRecord } from "../src/domain/stripe-webhook";

const invoice = (amountPaid: number) => ({ amountPaid }) as InvoiceRecord;

describe("referrals", () => {
  it("makes codes of the link alphabet, without look-alikes", () => {
    const code = referralCodeFrom(Uint8Array.from({ length: REFERRAL_CODE_LENGTH }, (_, i) => i * 37));
    expect(code).toMatch(/^[a-hjkmnp-z2-9]{8}$/);
    expect(() => referralCodeFrom(new Uint8Array(3))).toThrow();
  });

  it("counts paid packs, completed subscription checkouts and invoices paid with money as payments", () => {
    const pack = {
      kind: "pack",
      userId: "u",
      customerId: "c",
      sessionId: "s",
      checkoutId: "",
      packId: "p",
      credits: 500,
    } as const;
    expect(payingUser(pack, "u")).toBe("u");
    expect(
      payingUser({ kind: "subscribed", userId: "u", customerId: "c", subscriptionId: "s", planKey: "ProMonthly" }, "u"),
    ).toBe("u");
    expect(payingUser({ kind: "invoice", invoice: invoice(2900), paid: true }, "u")).toBe("u");
    expect(payingUser({ kind: "invoice", invoice: invoice(0), paid: true }, "u")).toBe("");
    expect(payingUser({ kind: "invoice", invoice: invoice(2900), paid: false }, "u")).toBe("");
    expect(payingUser({ kind: "ignored", why: "x" }, "")).toBe("");
  });

  it("keys each side's grant by the referred user, so each is written once", () => {
    expect(referralGrantKeys("u1")).toEqual({
      referrer: "grant:referral:u1:referrer",
      referred: "grant:referral:u1:referred",
    });
  });
});
