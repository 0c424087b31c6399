import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { GatewaySession, gatewayUrl, linkFrom, stackEnv, verifiedSession, waitForEmail } from "@crafter/kit/testing";
import { type LocalDns, startDnsServer } from "@crafter/provider-fakes";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";

// A business's custom domain through the gateway: added (pending, the records to create), checked
// live against the local DNS server at the stack's DNS_SERVERS (projects' resolver), verified, failing,
// removed; and the gateway serving a verified domain's pages and lead form by `Host`, and nothing else.
jest.setTimeout(90_000);

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

/** A request to the gateway as a browser on `host` sends it (the `Host` header the ingress passes on). */
function onHost(
  host: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; type: string; text: string; json: () => any }> {
  const url = new URL(path, gatewayUrl());
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        headers: {
          host,
          ...(payload ? { "content-type": "application/json", origin: `https://${host}` } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers["content-type"] ?? ""),
            text,
            json: () => JSON.parse(text),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** A Web Page Writer craft completed with the offline engine, published at `slug`. */
async function publishedPage(session: GatewaySession, slug: string, offering: string): Promise<void> {
  const base = "/api/workflowsV2";
  const created = await session.post(base, { workflowName: "WebPageWriter", craftName: offering });
  expect(created.status).toBe(201);
  const id: string = created.body.result.craftId;
  const values: Record<string, Record<string, unknown>> = {
    brief: {
      pageType: "landing",
      offering,
      description: `${offering} for riding to work every day.`,
      audience: "commuters",
      benefits: ["Ride to work in comfort"],
      features: ["Steel frame"],
      painPoints: ["crowded buses"],
      offer: "Free fitting",
      cta: "shopNow",
      url: "https://bikes.example.com/",
      keywords: ["commuter bike"],
    },
    outline: { headline: `${offering} that lasts`, sections: ["Hero", "What you get"] },
  };
  let craft = created.body.result;
  for (let guard = 0; craft.state !== "Completed" && guard < 10; guard++) {
    const stepName: string = craft.currentStep;
    const done = await session.put(`${base}/${id}/step/complete`, { stepName, values: values[stepName] ?? {} });
    expect(`${stepName} ${done.status}`).toBe(`${stepName} 200`);
    craft = done.body.result.craft;
  }
  expect((await session.put(`${base}/${id}/page`, { slug })).status).toBe(200);
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
      // A root domain: it cannot hold the CNAME asked for.
      `bikes-${run}.co.uk`,
      target,
    ]) {
      const refused = await other.post(`/api/projects/${otherProjectId}/custom-domain`, { domain: bad });
      expect(`${bad} ${refused.status}`).toBe(`${bad} 400`);
      expect(refused.body.error.fields.domain).toBeTruthy();
    }
    const apex = await other.post(`/api/projects/${otherProjectId}/custom-domain`, { domain: `bikes-${run}.co.uk` });
    expect(apex.body.error.fields.domain).toBe(
      `bikes-${run}.co.uk is a root domain: DNS allows no CNAME record there. Use a name under it, such as www.bikes-${run}.co.uk, and have your DNS host redirect bikes-${run}.co.uk to it.`,
    );
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

describe("serving by Host", () => {
  const slugA = `town-bikes-${run}`;
  const slugA2 = `town-bikes-repairs-${run}`;
  const slugB = `leaf-cup-${run}`;
  let formA = "";
  let formB = "";

  beforeAll(async () => {
    await Promise.all([publishedPage(owner, slugA, "Commuter bikes"), publishedPage(other, slugB, "Loose leaf tea")]);
    formA = (await owner.get(`/api/leads/form?projectId=${projectId}`)).body.result.id;
    formB = (await other.get(`/api/leads/form?projectId=${otherProjectId}`)).body.result.id;
    expect(formA && formB).toBeTruthy();
  });

  it("serves the business's published page on its verified domain, canonical there, and its one page at /", async () => {
    const page = await onHost(domainA, "GET", `/${slugA}`);
    expect(page.status).toBe(200);
    expect(page.type).toContain("text/html");
    expect(page.text).toContain("<h1>Commuter bikes that lasts</h1>");
    expect(page.text).toContain(`<link rel="canonical" href="https://${domainA}/${slugA}" />`);
    expect(page.text).toContain(`<meta property="og:url" content="https://${domainA}/${slugA}" />`);
    // On the platform's own host the page is still there, and names its domain as canonical.
    const platform = await fetch(`${gatewayUrl()}/${slugA}`);
    expect(platform.status).toBe(200);
    expect(await platform.text()).toContain(`<link rel="canonical" href="https://${domainA}/${slugA}" />`);
    // One page: the domain's home is that page.
    const home = await onHost(domainA, "GET", "/");
    expect(home.status).toBe(200);
    expect(home.text).toContain(`<link rel="canonical" href="https://${domainA}/${slugA}" />`);
  });

  it("lists the business's pages at / once it has several", async () => {
    await publishedPage(owner, slugA2, "Bike repairs");
    const home = await onHost(domainA, "GET", "/");
    expect(home.status).toBe(200);
    expect(home.text).toContain(`<link rel="canonical" href="https://${domainA}/" />`);
    expect(home.text).toContain(`<a href="/${slugA}">Commuter bikes that lasts</a>`);
    expect(home.text).toContain(`<a href="/${slugA2}">Bike repairs that lasts</a>`);
    // The dashboard lists the same pages (the URLs they answer on), and only the caller's.
    const listed = await owner.get(`/api/pages?projectId=${projectId}`);
    expect(listed.status).toBe(200);
    expect(listed.body.result.pages.map((p: { slug: string; title: string }) => [p.slug, p.title])).toEqual([
      [slugA2, "Bike repairs that lasts"],
      [slugA, "Commuter bikes that lasts"],
    ]);
    expect((await other.get(`/api/pages?projectId=${projectId}`)).status).toBe(404);
    expect(
      (await other.get(`/api/pages?projectId=${otherProjectId}`)).body.result.pages.map(
        (p: { slug: string }) => p.slug,
      ),
    ).toEqual([slugB]);
  });

  it("serves no other business's page, and nothing on an unverified or unknown host", async () => {
    // Another business's page, on this business's domain.
    const theirs = await onHost(domainA, "GET", `/${slugB}`);
    expect(theirs.status).toBe(404);
    expect(theirs.text).toContain("Page not found");
    expect(theirs.text).not.toContain("Loose leaf tea");
    // A host nobody added.
    const unknown = `www.unknown-${run}.example.net`;
    expect((await onHost(unknown, "GET", `/${slugA}`)).status).toBe(404);
    expect((await onHost(unknown, "GET", "/")).status).toBe(404);
    // A domain whose records are gone (failing) serves nothing, not even its own business's page.
    expect((await onHost(domainB, "GET", `/${slugB}`)).status).toBe(200);
    dns.unpublish(domainB);
    expect(
      (await other.post(`/api/projects/${otherProjectId}/custom-domain/check`, {})).body.result.customDomain.status,
    ).toBe("failing");
    const failing = await onHost(domainB, "GET", `/${slugB}`);
    expect(failing.status).toBe(404);
    expect(failing.text).not.toContain("Loose leaf tea");
    expect(await fetch(`${gatewayUrl()}/${slugB}`).then((r) => r.text())).not.toContain(domainB);
    await publishRecords(other, otherProjectId);
    expect(
      (await other.post(`/api/projects/${otherProjectId}/custom-domain/check`, {})).body.result.customDomain.status,
    ).toBe("verified");
    expect((await onHost(domainB, "GET", `/${slugB}`)).status).toBe(200);
    // The platform's own hosts still serve the app.
    expect((await fetch(`${gatewayUrl()}/healthz`)).status).toBe(200);
  });

  it("serves nothing else of Crafter on the domain: no app, no API, no sign-in", async () => {
    for (const path of ["/app", "/app/settings/integrations", "/pricing", "/signin", "/healthz", `/f/${formA}`]) {
      const answer = await onHost(domainA, "GET", path);
      expect(`${path} ${answer.status}`).toBe(`${path} 404`);
      expect(answer.text).toContain("Page not found");
    }
    for (const [method, path] of [
      ["GET", "/api/contacts"],
      ["GET", "/api/openapi.json"],
      ["GET", `/api/projects/${projectId}/custom-domain`],
      ["POST", "/auth/signin"],
      ["GET", "/auth/check"],
    ] as const) {
      const answer = await onHost(
        domainA,
        method,
        path,
        method === "POST" ? { email: "a@b.co", password: "x" } : undefined,
      );
      expect(`${method} ${path} ${answer.status}`).toBe(`${method} ${path} 404`);
      expect(answer.json()).toMatchObject({ success: false, error: { code: "NOT_FOUND" } });
    }
  });

  it("takes its own business's lead form on the domain, and not another business's", async () => {
    const form = await onHost(domainA, "GET", `/api/public/forms/${formA}`);
    expect(form.status).toBe(200);
    expect(form.json().result.id).toBe(formA);
    const submitted = await onHost(domainA, "POST", `/api/public/forms/${formA}/submissions`, {
      values: { email: `lead-${run}@example.com` },
    });
    expect(submitted.status).toBe(200);
    expect(submitted.json().success).toBe(true);

    expect((await onHost(domainA, "GET", `/api/public/forms/${formB}`)).status).toBe(404);
    const refused = await onHost(domainA, "POST", `/api/public/forms/${formB}/submissions`, {
      values: { email: `lead-${run}@example.com` },
    });
    expect(refused.status).toBe(404);
    expect(refused.json().error.code).toBe("NOT_FOUND");
    // Business B's form works on B's domain.
    expect((await onHost(domainB, "GET", `/api/public/forms/${formB}`)).status).toBe(200);
  });

  it("stops serving on a removed domain at once, and its pages' canonical goes back to the platform", async () => {
    expect((await onHost(domainA, "GET", `/${slugA}`)).status).toBe(200);
    const removed = await owner.request("DELETE", `/api/projects/${projectId}/custom-domain`, {});
    expect(removed.status).toBe(200);
    expect(removed.body.result).toEqual({ removed: true });
    const after = await onHost(domainA, "GET", `/${slugA}`);
    expect(after.status).toBe(404);
    expect((await onHost(domainA, "GET", `/api/public/forms/${formA}`)).status).toBe(404);
    const platform = await (await fetch(`${gatewayUrl()}/${slugA}`)).text();
    expect(platform).not.toContain(domainA);
    expect((await owner.get(`/api/projects/${projectId}/custom-domain`)).body.result).toEqual({});
    // Removing twice is fine.
    expect((await owner.request("DELETE", `/api/projects/${projectId}/custom-domain`, {})).status).toBe(200);
  });
});
