import { GatewaySession, gatewayUrl, linkFrom, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";

// The gateway's envelope and status codes for good input, bad input and missing sessions,
// through the real services.

// Step completions run the offline engine, which streams with pauses; on a loaded machine (2 cores
// shared by several stacks) they take longer than jest's default 5 s.
jest.setTimeout(60_000);

const session = new GatewaySession();
const bakery = {
  name: "Crumb & Co. Bakery",
  description:
    "A neighbourhood sourdough bakery baking naturally leavened bread, croissants and seasonal fruit tarts every morning with organic flour from local mills.",
  audience: "Local families and office workers who care about real bread",
  keywords: ["sourdough", "artisan bread", "organic bakery"],
  websiteUrl: "crumbandco.example.com",
};

beforeAll(async () => {
  const email = uniqueEmail("api");
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
});

describe("sessions", () => {
  it("refuses /api without a session, with an expired token, and with a forged one", async () => {
    const anonymous = await new GatewaySession().get("/api/user/account");
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({
      success: false,
      result: null,
      errorMessage: "Your session has expired. Please sign in again.",
      error: { code: "UNAUTHENTICATED" },
    });
    const forged = new GatewaySession();
    const [header, payload] = session.cookies.get("crafter_at")!.split(".");
    const expired = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64url").toString()), exp: 1 }),
    ).toString("base64url");
    forged.cookies.set("crafter_at", `${header}.${expired}.invalidsignature`);
    expect((await forged.get("/api/user/account")).status).toBe(401);
    expect((await forged.get("/auth/check")).status).toBe(401);
  });
});

describe("CSRF rules and malformed input", () => {
  it("needs JSON, a same-origin Origin, and well-formed JSON", async () => {
    const notJson = await session.request("POST", "/api/projects/createProject", "name=x", {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(notJson.status).toBe(415);
    const crossSite = await session.request("POST", "/api/projects/createProject", bakery, {
      origin: "https://evil.example",
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.error.code).toBe("FORBIDDEN");
    const malformed = await session.request("POST", "/api/projects/createProject", "{name:", {});
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ success: false, error: { code: "CR_ERR_BAD_REQUEST" } });
  });

  it("answers unknown API routes with a 404 envelope", async () => {
    const response = await session.get("/api/no-such-thing");
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe("NOT_FOUND");
  });
});

describe("initial data, account, flags and settings", () => {
  it("returns the initial app state with the spec's defaults", async () => {
    const initial = await session.get("/api/app/initial");
    expect(initial.status).toBe(200);
    const { userInfo, featureFlag, activeProjectInfo, userSettings } = initial.body.result;
    expect(userInfo).toMatchObject({ display_name: "Crafter", role: "owner", isSubscribed: false });
    expect(typeof userInfo.credits).toBe("number");
    expect(featureFlag.allFeatures).toEqual(
      expect.arrayContaining(["content_calendar", "visual_designer", "leads_form"]),
    );
    expect(featureFlag.allFeatures).toHaveLength(29);
    expect(activeProjectInfo.projectId).toBeNull();
    expect(userSettings.settings).toMatchObject({ theme: "light", viewMode: "list", rightSidebarWidth: "medium" });
  });

  it("merges settings and ignores empty values", async () => {
    const saved = await session.put("/api/userSettings/settings", { theme: "dark", viewMode: "" });
    expect(saved.status).toBe(200);
    expect(saved.body.result.settings).toMatchObject({ theme: "dark", viewMode: "list" });
    expect((await session.get("/api/userSettings/settings")).body.result.settings.theme).toBe("dark");
    const bad = await session.put("/api/userSettings/settings", { theme: "purple" });
    expect(bad.status).toBe(400);
  });
});

describe("projects", () => {
  it("rejects missing fields and an invalid URL with the spec's message", async () => {
    const missing = await session.post("/api/projects/createProject", { audience: "x" });
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields).toMatchObject({ name: "Business name is required" });
    const badUrl = await session.post("/api/projects/createProject", { ...bakery, websiteUrl: "http://localhost" });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body).toMatchObject({ errorMessage: "Invalid URL", error: { code: "InvalidUrl" } });
  });

  it("creates the first project, makes it active and computes its check-list", async () => {
    const created = await session.post("/api/projects/createProject", bakery);
    expect(created.status).toBe(201);
    expect(created.body.result.profile).toMatchObject({
      profileType: "PROJECT",
      name: bakery.name,
      websiteUrl: "https://crumbandco.example.com/",
    });
    const active = await session.get("/api/projects/active-project");
    expect(active.body.result.projectId).toBe(created.body.result.project.projectId);
    expect(active.body.result.projectCheckList.length).toBeGreaterThan(0);
    const checkList = await session.get(`/api/projects/check-list/${active.body.result.projectId}`);
    expect(checkList.status).toBe(200);
  });

  it("refuses switching from a project that is not the active one", async () => {
    const active = (await session.get("/api/projects/active-project")).body.result;
    const conflict = await session.put("/api/projects/active-project", {
      currentActiveId: "not-the-active-one",
      newActiveId: active.projectId,
    });
    expect(conflict.status).toBe(409);
  });
});

describe("workflowsV2", () => {
  it("lists BlogWriter among the headers", async () => {
    const headers = await session.get("/api/workflowsV2/headers");
    expect(headers.status).toBe(200);
    expect(headers.body.result.names).toContain("BlogWriter");
    expect(headers.body.result.headers.find((h: { name: string }) => h.name === "BlogWriter").available).toBe(true);
  });

  it("answers an unknown craft id with 404", async () => {
    const response = await session.get("/api/workflowsV2/00000000-0000-4000-8000-000000000000");
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ success: false, error: { code: "NOT_FOUND" } });
  });

  it("crafts a blog post from topic through outline to a saved rich-text draft", async () => {
    const created = await session.post("/api/workflowsV2", { workflowName: "BlogWriter" });
    expect(created.status).toBe(201);
    const craftId = created.body.result.craftId;
    const [topic, outline] = created.body.result.steps;

    const invalid = await session.put(`/api/workflowsV2/${craftId}/step/complete`, {
      stepName: topic.name,
      values: {},
    });
    expect(invalid.status).toBe(400);

    const first = await session.put(`/api/workflowsV2/${craftId}/step/complete`, {
      stepName: topic.name,
      values: { topic: "Why slow-fermented sourdough is easier to digest", keywords: ["sourdough", "fermentation"] },
    });
    expect(first.status).toBe(200);
    expect(first.body.result.result.engine).toBe("offline");

    const second = await session.put(`/api/workflowsV2/${craftId}/step/complete`, {
      stepName: outline.name,
      values: first.body.result.craft.steps[1].values,
    });
    expect(second.status).toBe(200);
    const draft = second.body.result.result;
    expect(draft.format).toBe("html");
    expect(draft.content).toContain("sourdough");
    expect(draft.note).toMatch(/offline/i);

    const reloaded = await session.get(`/api/workflowsV2/${craftId}`);
    expect(reloaded.body.result.state).toBe("Completed");
    const results = await session.get(`/api/workflowsV2/${craftId}/results`);
    expect(JSON.stringify(results.body.result.results)).toContain("sourdough");

    const renamed = await session.put(`/api/workflowsV2/${craftId}/name`, { name: "Sourdough digestion" });
    expect(renamed.body.result.craftName).toBe("Sourdough digestion");
    const list = await session.get("/api/workflowsV2?page=1&pageSize=10");
    expect(list.body.result.crafts.map((c: { craftId: string }) => c.craftId)).toContain(craftId);
  });
});

describe("dashboard", () => {
  it("serves the built dashboard for client-side routes", async () => {
    const response = await fetch(`${gatewayUrl()}/app/dashboard`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<div id="root">');
  });
});

describe("/rpc", () => {
  it("streams a step completion to a Connect client authenticated by the session cookie", async () => {
    const { createClient } = await import("@connectrpc/connect");
    const { createConnectTransport } = await import("@connectrpc/connect-node");
    const { WorkflowsService } = await import("@crafter/proto/crafter/workflows/v1/workflows_pb");
    const created = await session.post("/api/workflowsV2", { workflowName: "BlogWriter" });
    const craftId = created.body.result.craftId;
    const cookie = [...session.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const transport = createConnectTransport({
      baseUrl: `${gatewayUrl()}/rpc`,
      httpVersion: "1.1",
      interceptors: [
        (next) => (req) => {
          req.header.set("cookie", cookie);
          req.header.set("origin", gatewayUrl());
          return next(req);
        },
      ],
    });
    const client = createClient(WorkflowsService, transport);
    const cases: string[] = [];
    let text = "";
    for await (const message of client.completeStep({
      craftId,
      stepName: "topic",
      values: { topic: "Sourdough starters for beginners", keywords: ["sourdough starter"] },
    })) {
      cases.push(message.event.case ?? "");
      if (message.event.case === "delta") text += message.event.value.text;
    }
    expect(cases[0]).toBe("started");
    expect(cases.filter((c) => c === "delta").length).toBeGreaterThan(1);
    expect(cases.at(-1)).toBe("completed");
    expect(text).toMatch(/sourdough starters/i);

    // Without the cookie the stream is refused.
    const anonymous = createClient(
      WorkflowsService,
      createConnectTransport({ baseUrl: `${gatewayUrl()}/rpc`, httpVersion: "1.1" }),
    );
    await expect(
      (async () => {
        for await (const _ of anonymous.completeStep({ craftId, stepName: "outline", values: {} })) {
          // drain
        }
      })(),
    ).rejects.toThrow();
  });
});
