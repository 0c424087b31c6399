import { GatewaySession, linkFrom, uniqueEmail, verifiedSession, waitForEmail } from "@crafter/kit/testing";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";

// Team members through the gateway, projects (membership, the check on every project
// RPC) and notifications (the invitation email over SMTP to Mailpit).
jest.setTimeout(90_000);

const INVITE_SUBJECT = "You are invited to a project on Crafter";

interface Ctx {
  owner: GatewaySession;
  projectId: string;
  businessProfileId: string;
}

async function ownerWithProject(): Promise<Ctx> {
  const { session: owner } = await verifiedSession("team-owner");
  const created = await owner.post("/api/projects/createProject", {
    name: "Shared Bakery",
    description: "Sourdough for the neighbourhood",
  });
  expect(created.status).toBe(201);
  const projectId = created.body.result.project.projectId as string;
  return { owner, projectId, businessProfileId: created.body.result.profile.profileId as string };
}

/** Invites `email` and returns the token of the link emailed to it. */
async function invite(ctx: Ctx, email: string, role = "manager"): Promise<{ token: string; inviteId: string }> {
  const sent = await ctx.owner.post(`/api/projects/${ctx.projectId}/invites`, { email, role });
  expect(sent.status).toBe(201);
  const message = await waitForEmail(email, INVITE_SUBJECT);
  expect(message.Text).toContain("Shared Bakery");
  return { token: linkFrom(message, "/app/invite").searchParams.get("token")!, inviteId: sent.body.result.inviteId };
}

describe("team members", () => {
  let ctx: Ctx;
  beforeAll(async () => {
    ctx = await ownerWithProject();
  });

  it("invite → email → accept: the member reads and edits the project's profiles, not its owner-only parts", async () => {
    const { session: member, email } = await verifiedSession("team-member");
    const { token } = await invite(ctx, email.toUpperCase(), "manager");

    // Before accepting, the project is not theirs.
    expect((await member.get(`/api/profiles?projectId=${ctx.projectId}`)).status).toBe(404);

    const accepted = await member.post("/api/projects/invites/accept", { token });
    expect(accepted.status).toBe(200);
    expect(accepted.body.result).toEqual({ projectId: ctx.projectId, projectTitle: "Shared Bakery", role: "manager" });

    // The link works once.
    const again = await member.post("/api/projects/invites/accept", { token });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("INVITE_USED");

    // The member sees the project in their list, switches to it and reads its data.
    const listed = (await member.get("/api/projects")).body.result.projects as { projectId: string; role: string }[];
    expect(listed).toContainEqual(expect.objectContaining({ projectId: ctx.projectId, role: "manager" }));
    const active = (await member.get("/api/projects/active-project")).body.result;
    const switched = await member.put("/api/projects/active-project", {
      currentActiveId: active.projectId ?? "",
      newActiveId: ctx.projectId,
    });
    expect(switched.status).toBe(200);
    expect(switched.body.result.profile.name).toBe("Shared Bakery");
    const profiles = await member.get(`/api/profiles?projectId=${ctx.projectId}`);
    expect(profiles.status).toBe(200);
    expect(profiles.body.result.profiles.map((p: { profileId: string }) => p.profileId)).toContain(
      ctx.businessProfileId,
    );
    // A manager writes (project.write): a product the owner then sees.
    const product = await member.post("/api/profiles", {
      projectId: ctx.projectId,
      profileType: "PRODUCT",
      values: { name: "Rye loaf", description: "Dark and dense" },
    });
    expect(product.status).toBe(201);
    const ownerSees = await ctx.owner.get(`/api/profiles?projectId=${ctx.projectId}&profileType=PRODUCT`);
    expect(ownerSees.body.result.profiles.map((p: { name: string }) => p.name)).toContain("Rye loaf");
    // ...but not the owner's parts: settings (projectAdmin and owner), members (owner).
    const rename = await member.request("PATCH", `/api/projects/${ctx.projectId}`, { projectTitle: "Mine now" });
    expect(rename.status).toBe(403);
    expect((await member.get(`/api/projects/${ctx.projectId}/members`)).status).toBe(403);
    expect((await member.request("DELETE", `/api/projects/${ctx.projectId}`)).status).not.toBe(200);

    // The owner lists the member; the accepted invitation is no longer pending.
    const team = await ctx.owner.get(`/api/projects/${ctx.projectId}/members`);
    expect(team.status).toBe(200);
    expect(team.body.result.members).toEqual([
      expect.objectContaining({ email: email.toLowerCase(), role: "manager" }),
    ]);
    expect(team.body.result.invites.map((i: { email: string }) => i.email)).not.toContain(email.toLowerCase());

    // Removed: access ends on the next call.
    const memberUserId = team.body.result.members[0].userId as string;
    const removed = await ctx.owner.request("DELETE", `/api/projects/${ctx.projectId}/members/${memberUserId}`);
    expect(removed.status).toBe(200);
    expect((await member.get(`/api/profiles?projectId=${ctx.projectId}`)).status).toBe(404);
    expect((await member.get(`/api/profiles/${ctx.businessProfileId}`)).status).toBe(404);
    const after = (await member.get("/api/projects")).body.result.projects as { projectId: string }[];
    expect(after.map((p) => p.projectId)).not.toContain(ctx.projectId);
    // Their active project falls back to none of the owner's.
    expect((await member.get("/api/projects/active-project")).body.result.projectId).not.toBe(ctx.projectId);
  });

  it("lets a projectAdmin change the project's settings but not its members; one membership per person", async () => {
    const { session: admin, email } = await verifiedSession("team-admin");
    const { token } = await invite(ctx, email, "projectAdmin");
    expect((await admin.post("/api/projects/invites/accept", { token })).body.result.role).toBe("projectAdmin");

    const renamed = await admin.request("PATCH", `/api/projects/${ctx.projectId}`, { projectTitle: "Shared Bakery" });
    expect(renamed.status).toBe(200);
    const voice = await admin.put(`/api/projects/${ctx.projectId}/brand-voice`, {
      tone: "warm",
      wordsToUse: [],
      wordsToAvoid: [],
      exampleCopy: "",
    });
    expect(voice.status).toBe(200);
    expect((await admin.get(`/api/projects/${ctx.projectId}/members`)).status).toBe(403);
    expect(
      (await admin.post(`/api/projects/${ctx.projectId}/invites`, { email: "x@example.test", role: "manager" })).status,
    ).toBe(403);

    // Inviting someone who already is a member is refused.
    const again = await ctx.owner.post(`/api/projects/${ctx.projectId}/invites`, { email, role: "manager" });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("MEMBER_EXISTS");
  });

  it("refuses a non-member, another account's acceptance, a revoked link and a forged one", async () => {
    const { session: stranger } = await verifiedSession("team-stranger");
    expect((await stranger.get(`/api/profiles?projectId=${ctx.projectId}`)).status).toBe(404);
    expect((await stranger.get(`/api/profiles/${ctx.businessProfileId}`)).status).toBe(404);
    expect((await stranger.get(`/api/projects/${ctx.projectId}/members`)).status).toBe(404);
    expect(
      (await stranger.put("/api/projects/active-project", { currentActiveId: "", newActiveId: ctx.projectId })).status,
    ).toBe(404);

    // A link forwarded to someone else does not work for them.
    const invited = uniqueEmail("team-invited");
    const { token, inviteId } = await invite(ctx, invited, "projectAdmin");
    const wrongUser = await stranger.post("/api/projects/invites/accept", { token });
    expect(wrongUser.status).toBe(403);
    expect(wrongUser.body.error.code).toBe("INVITE_EMAIL_MISMATCH");
    const pending = (await ctx.owner.get(`/api/projects/${ctx.projectId}/members`)).body.result.invites;
    expect(pending).toContainEqual(expect.objectContaining({ inviteId, email: invited, role: "projectAdmin" }));

    // Revoked: the invited person cannot join with it any more.
    expect((await ctx.owner.request("DELETE", `/api/projects/${ctx.projectId}/invites/${inviteId}`)).status).toBe(200);
    const signUp = new GatewaySession();
    await signUp.post("/auth/signup", { email: invited, password: "password-123" });
    const verify = linkFrom(await waitForEmail(invited, "Verify your email"), "/verify").searchParams.get("token")!;
    await signUp.post("/auth/verify", { token: verify });
    expect((await signUp.post("/auth/signin", { email: invited, password: "password-123" })).status).toBe(200);
    const revoked = await signUp.post("/api/projects/invites/accept", { token });
    expect(revoked.status).toBe(409);
    expect(revoked.body.error.code).toBe("INVITE_USED");

    const forged = await signUp.post("/api/projects/invites/accept", { token: `${token.slice(0, -2)}xx` });
    expect(forged.status).toBe(400);
    expect(forged.body.error.code).toBe("INVITE_INVALID");

    // Bad input is a 400 with fields, never a 500.
    const bad = await ctx.owner.post(`/api/projects/${ctx.projectId}/invites`, {
      email: "not-an-email",
      role: "owner",
    });
    expect(bad.status).toBe(400);
    const badEmail = await ctx.owner.post(`/api/projects/${ctx.projectId}/invites`, { email: "nope", role: "manager" });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.error.fields).toEqual({ email: "Invalid email" });
  });
});
