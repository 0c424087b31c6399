import { describe, expect, it } from "@jest/globals";
import { delegatedClaims } from "../src/domain/delegation";

const owner = { id: "owner-1", email: "o@x.test", emailVerified: true, clientId: "c-1", displayName: "Olga" };
const member = { userId: "member-1", email: "m@x.test" };

describe("delegatedClaims", () => {
  it("acts as the owner with the member's project role, naming the member and the project", () => {
    expect(delegatedClaims(owner, member, "p-1", "manager")).toEqual({
      sub: "owner-1",
      email: "o@x.test",
      role: "manager",
      email_verified: true,
      client_id: "c-1",
      display_name: "Olga",
      sid: "delegated:p-1:member-1",
      act: { sub: "member-1", email: "m@x.test" },
      pid: "p-1",
    });
    expect(delegatedClaims(owner, member, "p-1", "projectAdmin")?.role).toBe("projectAdmin");
  });

  it.each(["owner", "admin", "superadmin", "", "tester"])("never lends the role %s", (role) => {
    expect(delegatedClaims(owner, member, "p-1", role)).toBeNull();
  });

  it("needs an owner, a member other than the owner, and a project", () => {
    expect(delegatedClaims({ ...owner, id: "" }, member, "p-1", "manager")).toBeNull();
    expect(delegatedClaims(owner, { ...member, userId: "" }, "p-1", "manager")).toBeNull();
    expect(delegatedClaims(owner, { ...member, userId: "owner-1" }, "p-1", "manager")).toBeNull();
    expect(delegatedClaims(owner, member, "", "manager")).toBeNull();
  });
});
