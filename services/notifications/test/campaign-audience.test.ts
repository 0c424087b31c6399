import { describe, expect, it } from "@jest/globals";
import { countAudience, exclusionOf } from "../src/domain/campaign-audience";

const member = (contactId: string, consent: string, email = `${contactId}@x.test`) => ({ contactId, email, consent });

describe("who in a segment gets a campaign", () => {
  it("sends only to subscribed members with an address", () => {
    expect(exclusionOf(member("a", "subscribed"))).toBeNull();
    expect(exclusionOf(member("b", "subscribed", " "))).toBe("no_email");
    expect(exclusionOf(member("c", "pending"))).toBe("pending");
    expect(exclusionOf(member("d", "unsubscribed"))).toBe("unsubscribed");
    expect(exclusionOf(member("e", "bounced"))).toBe("bounced");
    expect(exclusionOf(member("f", "complained"))).toBe("complained");
    expect(exclusionOf(member("g", "mystery"))).toBe("pending");
  });

  it("counts across pages, each contact once, the reasons largest first", () => {
    const seen = new Set<string>();
    let count = countAudience(
      [member("a", "subscribed"), member("b", "pending"), member("c", "unsubscribed")],
      undefined,
      seen,
    );
    count = countAudience([member("a", "subscribed"), member("d", "pending"), member("e", "subscribed")], count, seen);
    expect(count).toEqual({
      members: 5,
      recipients: 2,
      excluded: [
        { reason: "pending", count: 2 },
        { reason: "unsubscribed", count: 1 },
      ],
    });
  });
});
