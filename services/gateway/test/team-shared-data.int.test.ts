import { Code, ConnectError } from "@connectrpc/connect";
import { createServiceClient, databaseName } from "@crafter/kit";
import {
  type GatewaySession,
  linkFrom,
  stackEnv,
  stackServiceCredentials,
  verifiedSession,
  waitForEmail,
} from "@crafter/kit/testing";
import { AuthService } from "@crafter/proto/crafter/auth/v1/auth_pb";
import { MembersService } from "@crafter/proto/crafter/projects/v1/members_pb";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import mongoose from "mongoose";

// Team members work in the owner's per-user areas: the gateway asks projects for a
// delegated token (auth mints it for projects only) and calls contacts and workflows as the owner,
// with the member as `act`. Real gateway, projects, auth, contacts, workflows and Mailpit.
jest.setTimeout(120_000);

const INVITE_SUBJECT = "You are invited to a project on Crafter";
const env = stackEnv();
const members = createServiceClient(MembersService, env.PROJECTS_URL ?? "http://127.0.0.1:50053", {
  timeoutMs: 30_000,
});
const authUrl = env.AUTH_URL ?? "http://127.0.0.1:50051";

/** The claims of a JWT, unverified (the services verify; the test only reads them). */
function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8"));
}
const tokenOf = (session: GatewaySession) => session.cookies.get("crafter_at") ?? "";
const userIdOf = (session: GatewaySession) => claimsOf(tokenOf(session)).sub as string;
const bearer = (session: GatewaySession) => ({ headers: { authorization: `Bearer ${tokenOf(session)}` } });

async function rpcCode(call: Promise<unknown>): Promise<Code | "ok"> {
  try {
    await call;
    return "ok";
  } catch (error) {
    return ConnectError.from(error).code;
  }
}

async function createProject(owner: GatewaySession, name: string): Promise<string> {
  const created = await owner.post("/api/projects/createProject", { name, description: `${name} for tests` });
  expect(created.status).toBe(201);
  return created.body.result.project.projectId as string;
}

async function invite(owner: GatewaySession, projectId: string, email: string, role: string): Promise<string> {
  const sent = await owner.post(`/api/projects/${projectId}/invites`, { email, role });
  expect(sent.status).toBe(201);
  return linkFrom(await waitForEmail(email, INVITE_SUBJECT), "/app/invite").searchParams.get("token")!;
}

/** A verified user who accepted an invitation to `projectId` as `role` and switched to it. */
async function joined(owner: GatewaySession, projectId: string, role: string, prefix: string) {
  const { session, email } = await verifiedSession(prefix);
  const token = await invite(owner, projectId, email, role);
  const accepted = await session.post("/api/projects/invites/accept", { token });
  expect(accepted.status).toBe(200);
  // A new user without a project of their own is now in the joined one, as if they had switched.
  const active = (await session.get("/api/projects/active-project")).body.result;
  expect(active.projectId).toBe(projectId);
  return { session, email };
}

const contactEmails = (page: { body: { result: { result: { email: string }[] } } }) =>
  page.body.result.result.map((c) => c.email);
const craftIds = (page: { body: { result: { crafts: { craftId: string }[] } } }) =>
  page.body.result.crafts.map((c) => c.craftId);

describe("team members in the owner's contacts and crafts", () => {
  let owner: GatewaySession;
  let projectId: string;
  let privateProjectId: string;
  let contactId: string;
  let craftId: string;
  let manager: { session: GatewaySession; email: string };

  beforeAll(async () => {
    ({ session: owner } = await verifiedSession("share-owner"));
    privateProjectId = await createProject(owner, "Private Plans");
    projectId = await createProject(owner, "Shared Shop");
    const contact = await owner.post(`/api/contacts?projectId=${projectId}`, { email: "ada@shared.example" });
    expect(contact.status).toBe(201);
    contactId = contact.body.result.id;
    const craft = await owner.post("/api/workflowsV2", { workflowName: "BlogWriter", projectId });
    expect(craft.status).toBe(201);
    craftId = craft.body.result.craftId;
    manager = await joined(owner, projectId, "manager", "share-manager");
  });

  it("a manager lists, opens and creates the owner's contacts and crafts in the shared project", async () => {
    const { session } = manager;
    // By the active project and by an explicit projectId.
    expect(contactEmails(await session.get("/api/contacts"))).toContain("ada@shared.example");
    const listed = await session.get(`/api/contacts?projectId=${projectId}`);
    expect(listed.status).toBe(200);
    expect(contactEmails(listed)).toContain("ada@shared.example");
    const opened = await session.get(`/api/contacts/${contactId}`);
    expect(opened.status).toBe(200);
    expect(opened.body.result.projectId).toBe(projectId);

    const created = await session.post("/api/contacts", { email: "grace@shared.example" });
    expect(created.status).toBe(201);
    expect(created.body.result.projectId).toBe(projectId);
    expect(contactEmails(await owner.get(`/api/contacts?projectId=${projectId}&pageSize=100`))).toContain(
      "grace@shared.example",
    );

    expect(craftIds(await session.get("/api/workflowsV2?pageSize=100"))).toContain(craftId);
    expect((await session.get(`/api/workflowsV2/${craftId}`)).status).toBe(200);
    // Works on the owner's craft: a step completed by the member is in the owner's craft.
    const step = await session.put(`/api/workflowsV2/${craftId}/step/complete`, {
      stepName: "topic",
      values: { topic: "Sourdough for beginners", keywords: ["bread"] },
    });
    expect(step.status).toBe(200);
    expect(JSON.stringify((await owner.get(`/api/workflowsV2/${craftId}`)).body.result)).toContain(
      "Sourdough for beginners",
    );
    const craft = await session.post("/api/workflowsV2", { workflowName: "BlogWriter", projectId });
    expect(craft.status).toBe(201);
    const ownerSees = await owner.get(`/api/workflowsV2/${craft.body.result.craftId}`);
    expect(ownerSees.status).toBe(200);
    // ...and only the shared project's crafts, never the owner's others.
    const privateCraft = await owner.post("/api/workflowsV2", {
      workflowName: "BlogWriter",
      projectId: privateProjectId,
    });
    const privateId = privateCraft.body.result.craftId as string;
    expect(craftIds(await session.get("/api/workflowsV2?pageSize=100"))).not.toContain(privateId);
    // Nor by its id: the delegated token reaches only its own project's crafts (its `pid`).
    expect((await session.get(`/api/workflowsV2/${privateId}`)).status).toBe(404);
    expect((await session.put(`/api/workflowsV2/${privateId}/name`, { name: "Taken" })).status).toBe(404);
    expect((await session.put(`/api/workflowsV2/${privateId}/favorite`, { favorite: true })).status).toBe(404);
    expect((await session.request("DELETE", `/api/workflowsV2/${privateId}`)).status).toBe(404);
    const untouched = await owner.get(`/api/workflowsV2/${privateId}`);
    expect(untouched.status).toBe(200);
    expect(untouched.body.result.craftName).not.toBe("Taken");
    expect(untouched.body.result.craftName).not.toBe("");
  });

  it("the delegated token acts as the owner with the member's role and names the member as act", async () => {
    const issued = await members.delegateAccess({ projectId }, bearer(manager.session));
    expect(issued.role).toBe("manager");
    const claims = claimsOf(issued.accessToken);
    expect(claims).toMatchObject({
      sub: userIdOf(owner),
      role: "manager",
      pid: projectId,
      act: { sub: userIdOf(manager.session), email: manager.email.toLowerCase() },
    });
    expect((claims.exp as number) - (claims.iat as number)).toBeGreaterThan(0);
    // The owner uses their own token; an outsider gets none.
    expect(await rpcCode(members.delegateAccess({ projectId }, bearer(owner)))).toBe(Code.InvalidArgument);
    const { session: outsider } = await verifiedSession("share-outsider");
    expect(await rpcCode(members.delegateAccess({ projectId }, bearer(outsider)))).toBe(Code.NotFound);
    expect((await outsider.get(`/api/contacts?projectId=${projectId}`)).status).toBe(404);
    expect((await outsider.get(`/api/workflowsV2?projectId=${projectId}`)).status).toBe(404);
    // A delegated token never manages members nor deletes the project, even sent to projects directly.
    const asDelegate = { headers: { authorization: `Bearer ${issued.accessToken}` } };
    expect(await rpcCode(members.listMembers({ projectId }, asDelegate))).toBe(Code.PermissionDenied);
    expect(await rpcCode(members.delegateAccess({ projectId }, asDelegate))).toBe(Code.PermissionDenied);
  });

  it("auth mints delegated tokens for projects only", async () => {
    const request = {
      ownerUserId: userIdOf(owner),
      memberUserId: userIdOf(manager.session),
      memberEmail: manager.email,
      projectId,
      role: "manager",
    };
    const asGateway = createServiceClient(AuthService, authUrl, {
      timeoutMs: 30_000,
      as: "service",
      credentials: stackServiceCredentials("gateway"),
    });
    expect(await rpcCode(asGateway.issueDelegatedToken(request))).toBe(Code.PermissionDenied);
    const direct = createServiceClient(AuthService, authUrl, { timeoutMs: 30_000 });
    expect(await rpcCode(direct.issueDelegatedToken(request, bearer(manager.session)))).toBe(Code.PermissionDenied);
    expect(await rpcCode(direct.issueDelegatedToken(request))).toBe(Code.Unauthenticated);
  });

  it("a member is still refused the owner's other projects, project deletion and member management", async () => {
    const { session } = manager;
    expect((await session.get(`/api/contacts?projectId=${privateProjectId}`)).status).toBe(404);
    expect((await session.get(`/api/workflowsV2?projectId=${privateProjectId}`)).status).toBe(404);
    expect((await session.get(`/api/projects/${projectId}/members`)).status).toBe(403);
    expect([403, 404]).toContain((await session.request("DELETE", `/api/projects/${projectId}`)).status);
    expect(
      (await owner.get(`/api/projects`)).body.result.projects.map((p: { projectId: string }) => p.projectId),
    ).toContain(projectId);
  });

  it("a projectAdmin works in the same data", async () => {
    const { session } = await joined(owner, projectId, "projectAdmin", "share-admin");
    expect(contactEmails(await session.get("/api/contacts?pageSize=100"))).toEqual(
      expect.arrayContaining(["ada@shared.example", "grace@shared.example"]),
    );
    const created = await session.post(`/api/contacts?projectId=${projectId}`, { email: "alan@shared.example" });
    expect(created.status).toBe(201);
    const craft = await session.post("/api/workflowsV2", { workflowName: "BlogWriter", projectId });
    expect(craft.status).toBe(201);
    expect(craftIds(await owner.get(`/api/workflowsV2?projectId=${projectId}&pageSize=100`))).toContain(
      craft.body.result.craftId,
    );
  });

  it("removing a member ends their delegated access at once", async () => {
    const { session } = manager;
    // A cached token exists from the calls above.
    expect((await session.get(`/api/contacts/${contactId}`)).status).toBe(200);
    const removed = await owner.request("DELETE", `/api/projects/${projectId}/members/${userIdOf(session)}`);
    expect(removed.status).toBe(200);
    expect((await session.get(`/api/contacts?projectId=${projectId}`)).status).toBe(404);
    expect((await session.get(`/api/workflowsV2/${craftId}`)).status).toBe(404);
    expect((await session.get(`/api/contacts/${contactId}`)).status).toBe(404);
    expect(contactEmails(await session.get("/api/contacts"))).not.toContain("ada@shared.example");
    expect(await rpcCode(members.delegateAccess({ projectId }, bearer(session)))).toBe(Code.NotFound);
  });
});

describe("a deleted project's team", () => {
  let db: mongoose.Connection;
  beforeAll(async () => {
    db = await mongoose
      .createConnection(env.MONGODB_URL ?? "mongodb://127.0.0.1:27017/", {
        dbName: databaseName(process.env.CRAFTER_NAMESPACE ?? env.CRAFTER_NAMESPACE ?? "crafter", "projects"),
        serverSelectionTimeoutMS: 5000,
      })
      .asPromise();
  });
  afterAll(async () => {
    await db.close();
  });

  it("ends its memberships and open invitations", async () => {
    const { session: owner } = await verifiedSession("doomed-owner");
    await createProject(owner, "Keeper");
    const projectId = await createProject(owner, "Doomed Deli");
    const { session: member } = await joined(owner, projectId, "manager", "doomed-member");
    const { session: late, email: lateEmail } = await verifiedSession("doomed-late");
    const token = await invite(owner, projectId, lateEmail, "projectAdmin");
    const members = db.collection("project_members");
    expect(await members.countDocuments({ projectId })).toBe(1);

    expect((await owner.request("DELETE", `/api/projects/${projectId}`)).status).toBe(200);
    expect(await members.countDocuments({ projectId })).toBe(0);
    const inviteIds = (await db.collection("project_invites").find({ projectId }).toArray()).map((i) => i._id);
    expect(inviteIds.length).toBeGreaterThan(0);
    for (const id of inviteIds)
      expect(await db.collection("project_invite_closures").countDocuments({ _id: id as never })).toBe(1);

    const listed = (await member.get("/api/projects")).body.result.projects as { projectId: string }[];
    expect(listed.map((p) => p.projectId)).not.toContain(projectId);
    expect((await member.get(`/api/contacts?projectId=${projectId}`)).status).toBe(404);
    const accept = await late.post("/api/projects/invites/accept", { token });
    expect(accept.status).toBe(400);
    expect(accept.body.error.code).toBe("INVITE_INVALID");
  });
});
