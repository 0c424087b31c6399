import { randomUUID } from "node:crypto";
import { GatewaySession, gatewayUrl, linkFrom, stackEnv, verifiedSession, waitForEmail } from "@crafter/kit/testing";
import { type LocalDns, startDnsServer } from "@crafter/provider-fakes";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";

// A business's custom domain through the gateway: added (pending, the records to create), checked
// live against the local DNS server at the stack's DNS_SERVERS (projects' resolver), verified, failing,
// removed; and the gateway serving a verified domain's pages and lead form by `Host`, and nothing else.
jest.setTimeout(60_000);

const env = stackEnv();
const run = randomUUID().slice(0, 8);
const domainA = `www.bikes-${run}.example.co.uk`;
const domainB = `shop.tea-${run}.example.com`;
const target = new URL(env.PUBLIC_ORIGIN ?? gatewayUrl()).hostname;

let dns: LocalDns;
let owner: GatewaySession;
let ownerId: string;
let projectId: string;
let other: GatewaySession;
let otherId: string;
let otherProjectId: string;

async function signUpAdmin(): Promise<GatewaySession> {
  const email = `admin-${randomUUID().slice(0, 8)}@admins.crafter.test`;
  const session = new GatewaySession();
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
  return session;
}

async function createProject(session: GatewaySession, name: string): Promise<string> {
  const created = await session.post("/api/projects/createProject", { name, description: "Bikes for the town" });
  expect(created.status).toBe(201);
  return created.body.result.project.projectId as string;
}

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Publishes the two records the dashboard shows for `domain` of `projectId`. */
async function publishRecords(session: GatewaySession, id: string): Promise<void> {
  const { customDomain } = (await session.get(`/api/projects/${id}/custom-domain`)).body.result;
  for (const record of customDomain.records as Array<{ type: string; name: string; value: string }>) {
    if (record.type === "CNAME") dns.publishCname(record.name, record.value);
    else dns.publish(record.name, record.value);
  }
}

beforeAll(async () => {
  dns = await startDnsServer(env.DNS_SERVERS!.split(",")[0]!.trim());
  let admin: GatewaySession;
  [{ session: owner }, { session: other }, admin] = await Promise.all([
    verifiedSession("domain"),
    verifiedSession("domain-other"),
    signUpAdmin(),
  ]);
  ownerId = (await owner.get("/auth/check")).body.result.user.userId;
  otherId = (await other.get("/auth/check")).body.result.user.userId;
  for (const id of [ownerId, otherId])
    expect(
      (await admin.put(`/api/admin/users/${id}/flags`, { flag: "custom_domain_integration", enabled: true })).status,
    ).toBe(200);
  [projectId, otherProjectId] = await Promise.all([
    createProject(owner, "Town Bikes"),
    createProject(other, "Leaf & Cup"),
  ]);
});

afterAll(() => dns?.close());

describe("a project's custom domain", () => {
  it("is added pending, with the CNAME and TXT records to create", async () => {
    expect((await owner.get(`/api/projects/${projectId}/custom-domain`)).body.result).toEqual({});
    const added = await owner.post(`/api/projects/${projectId}/custom-domain`, {
      domain: ` WWW.Bikes-${run}.Example.co.uk. `,
    });
    expect(added.status).toBe(201);
    const domain = added.body.result.customDomain;
    expect(domain).toMatchObject({ domain: domainA, status: "pending" });
    expect(domain.records).toEqual([
      { type: "CNAME", name: domainA, value: target, found: [], ok: false },
      {
        type: "TXT",
        name: `_crafter-verification.${domainA}`,
        value: expect.stringMatching(/^crafter-verification=[A-Za-z0-9_-]{32}$/),
        found: [],
        ok: false,
      },
    ]);
    expect(domain.problem).toContain(`No CNAME record found at ${domainA}.`);
    expect((await owner.get(`/api/projects/${projectId}/custom-domain`)).body.result.customDomain.domain).toBe(domainA);
  });

  it("refuses what is not a business's domain, a second domain, and another project's domain", async () => {
    for (const bad of [
      "https://bikes.example.com/",
      "bikes",
      "10.0.0.1",
      "bikes..example.com",
      "localhost",
      "x.svc.cluster.local",
      target,
    ]) {
      const refused = await other.post(`/api/projects/${otherProjectId}/custom-domain`, { domain: bad });
      expect(`${bad} ${refused.status}`).toBe(`${bad} 400`);
      expect(refused.body.error.fields.domain).toBeTruthy();
    }
    const taken = await other.post(`/api/projects/${otherProjectId}/custom-domain`, { domain: domainA });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe("CUSTOM_DOMAIN_TAKEN");
    const second = await owner.post(`/api/projects/${projectId}/custom-domain`, { domain: domainB });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe("CONFLICT");
    // Not theirs: another user's project answers as if it did not exist.
    expect((await other.get(`/api/projects/${projectId}/custom-domain`)).status).toBe(404);
    expect((await other.request("DELETE", `/api/projects/${projectId}/custom-domain`, {})).status).toBe(404);
  });

  it("says what it found when the records are wrong, and verifies once they are right (Check now)", async () => {
    dns.publishCname(domainA, "elsewhere.example.net");
    dns.publish(`_crafter-verification.${domainA}`, "google-site-verification=abc");
    const wrong = await owner.post(`/api/projects/${projectId}/custom-domain/check`, {});
    expect(wrong.status).toBe(200);
    expect(wrong.body.result.customDomain.status).toBe("pending");
    expect(wrong.body.result.customDomain.records.map((r: { found: string[] }) => r.found)).toEqual([
      ["elsewhere.example.net"],
      ["google-site-verification=abc"],
    ]);
    expect(wrong.body.result.customDomain.problem).toContain(`is a CNAME to elsewhere.example.net, not to ${target}`);

    await publishRecords(owner, projectId);
    const right = await owner.post(`/api/projects/${projectId}/custom-domain/check`, {});
    expect(right.body.result.customDomain).toMatchObject({ status: "verified", problem: "" });
    expect(right.body.result.customDomain.records.every((r: { ok: boolean }) => r.ok)).toBe(true);
    expect(right.body.result.customDomain.verifiedAt).toBeTruthy();
  });

  it("is verified by the periodic check once its records appear, without Check now", async () => {
    const added = await other.post(`/api/projects/${otherProjectId}/custom-domain`, { domain: domainB });
    expect(added.body.result.customDomain.status).toBe("pending");
    await publishRecords(other, otherProjectId);
    const seen = await eventually(
      () => other.get(`/api/projects/${otherProjectId}/custom-domain`),
      (r) => r.body.result.customDomain?.status === "verified",
    );
    expect(seen.body.result.customDomain.status).toBe("verified");
  });

  it("turns failing, with what was found, when a verified domain's records go", async () => {
    dns.unpublish(`_crafter-verification.${domainB}`);
    const failing = await other.post(`/api/projects/${otherProjectId}/custom-domain/check`, {});
    expect(failing.body.result.customDomain.status).toBe("failing");
    expect(failing.body.result.customDomain.problem).toBe(`No TXT record found at _crafter-verification.${domainB}.`);
    await publishRecords(other, otherProjectId);
    expect(
      (await other.post(`/api/projects/${otherProjectId}/custom-domain/check`, {})).body.result.customDomain.status,
    ).toBe("verified");
  });

  it("is closed to a user whose flag is off", async () => {
    const { session: stranger } = await verifiedSession("domain-noflag");
    const theirs = await createProject(stranger, "No flag");
    const refused = await stranger.post(`/api/projects/${theirs}/custom-domain`, { domain: `x-${run}.example.org` });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("FEATURE_DISABLED");
  });
});
