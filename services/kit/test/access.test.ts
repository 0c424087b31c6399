import { BillingService } from "@crafter/proto/crafter/billing/v1/billing_pb";
import { describe, expect, it } from "@jest/globals";
import { type AllowedCaller, decideAccess, type Presented, rpcAccess } from "../src/rpc/access";

const anonymous: Presented = { kind: "anonymous" };
const alice: Presented = {
  kind: "user",
  user: {
    userId: "alice",
    email: "alice@example.test",
    role: "owner",
    email_verified: true,
    clientId: "c",
    display_name: "Alice",
    actorUserId: "alice",
    actorEmail: "alice@example.test",
    delegatedProjectId: "",
    iat: 0,
    exp: 1,
  },
};
const workflows: Presented = { kind: "service", service: "workflows", exp: 1 };
const gateway: Presented = { kind: "service", service: "gateway", exp: 1 };

describe("decideAccess", () => {
  it("refuses a method with no entry, whoever calls", () => {
    for (const caller of [anonymous, alice, workflows]) {
      expect(decideAccess(undefined, caller, undefined)).toBe("permission_denied");
    }
  });

  it("lets anyone call a public method, token or not", () => {
    for (const caller of [anonymous, alice, workflows]) {
      expect(decideAccess(["public"], caller, "")).toBe("allow");
    }
  });

  it("asks for a token when the method needs one", () => {
    expect(decideAccess(["user"], anonymous, "")).toBe("unauthenticated");
    expect(decideAccess(["service:workflows"], anonymous, "alice")).toBe("unauthenticated");
  });

  it("lets a user act on their own data only", () => {
    expect(decideAccess(["user"], alice, undefined)).toBe("allow");
    expect(decideAccess(["user"], alice, "")).toBe("allow");
    expect(decideAccess(["user"], alice, "alice")).toBe("allow");
    expect(decideAccess(["user"], alice, "bob")).toBe("permission_denied");
    expect(decideAccess(["user", "service:workflows"], alice, "bob")).toBe("permission_denied");
  });

  it("refuses a user whose email is not verified, except on public methods", () => {
    const unverified = { ...alice, user: { ...(alice as { user: object }).user, email_verified: false } } as Presented;
    expect(decideAccess(["user"], unverified, "")).toBe("email_not_verified");
    expect(decideAccess(["public"], unverified, "")).toBe("allow");
    expect(decideAccess(["service:workflows"], unverified, "")).toBe("permission_denied");
  });

  it("refuses a user on a service-only method", () => {
    expect(decideAccess(["service:workflows"], alice, "alice")).toBe("permission_denied");
    expect(decideAccess(["service:workflows"], alice, "")).toBe("permission_denied");
  });

  it("lets a listed service name any user, and refuses every other service", () => {
    expect(decideAccess(["service:workflows"], workflows, "bob")).toBe("allow");
    expect(decideAccess(["service:workflows"], workflows, "")).toBe("allow");
    expect(decideAccess(["user", "service:workflows"], workflows, "alice")).toBe("allow");
    expect(decideAccess(["service:workflows"], gateway, "bob")).toBe("permission_denied");
    // "user" does not admit services: a service token is not a user's.
    expect(decideAccess(["user"], workflows, "")).toBe("permission_denied");
    expect(decideAccess([], workflows, "")).toBe("permission_denied");
  });
});

describe("rpcAccess", () => {
  it("keys the table by the service's type name and its methods' local names", () => {
    const entries = {
      getCredits: ["user"],
      debit: ["service:workflows"],
      refund: ["service:workflows"],
      getPlan: ["user", "service:media"],
      reserveUsage: ["service:media"],
      releaseUsage: ["service:media"],
      grantCredits: ["service:account"],
      getRevenue: ["service:account"],
    } satisfies Record<string, AllowedCaller[]>;
    const table = rpcAccess(BillingService, entries);
    expect(table).toEqual({ "crafter.billing.v1.BillingService": entries });
    const callers: readonly AllowedCaller[] | undefined = table[BillingService.typeName]?.debit;
    expect(callers).toEqual(["service:workflows"]);
  });

  it("does not compile without an entry for every method", () => {
    // @ts-expect-error refund is missing
    const partial = rpcAccess(BillingService, { getCredits: ["user"], debit: ["service:workflows"] });
    expect(partial[BillingService.typeName]?.refund).toBeUndefined();
  });
});
