import { GatewaySession, linkFrom, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";
import { CrafterApiError, createCrafterClient } from "../src";

// @crafter/client against the gateway of the test stack, as a third party uses it: a key made in
// Settings (with a browser session), then only the key.

jest.setTimeout(60_000);

const session = new GatewaySession();

async function createKey(scopes: string[]): Promise<string> {
  const created = await session.post("/api/settings/apiKeys", { name: "client package", scopes });
  expect(created.status).toBe(201);
  return (created.body.result as { secret: string }).secret;
}

beforeAll(async () => {
  const email = uniqueEmail("client-pkg");
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
});

describe("@crafter/client with an API key", () => {
  it("creates a project and lists it", async () => {
    const crafter = createCrafterClient({ baseUrl: session.baseUrl, apiKey: await createKey(["read", "projects"]) });
    const before = await crafter.get("/api/projects");
    const created = await crafter.post("/api/projects/createProject", {
      body: { name: "Client Bakery", description: "Made with @crafter/client" },
    });
    expect(created.project?.projectTitle).toBe("Client Bakery");
    const after = await crafter.get("/api/projects");
    const titles = after.projects.map((project) => project?.projectTitle);
    expect(titles).toContain("Client Bakery");
    expect(after.projects).toHaveLength(before.projects.length + 1);
  });

  it("rejects with the envelope's error: a scope the key lacks, a refused body, a revoked or unknown key", async () => {
    const readOnly = createCrafterClient({ baseUrl: session.baseUrl, apiKey: await createKey(["read"]) });
    const forbidden = await readOnly
      .post("/api/projects/createProject", { body: { name: "No", description: "No" } })
      .catch((error: unknown) => error);
    expect(forbidden).toBeInstanceOf(CrafterApiError);
    expect(forbidden).toMatchObject({ status: 403, code: "FORBIDDEN" });
    expect((forbidden as Error).message).toContain('"projects"');

    const writer = createCrafterClient({ baseUrl: session.baseUrl, apiKey: await createKey(["read", "projects"]) });
    const refused = await writer
      .post("/api/projects/createProject", { body: { name: "", description: "x" } })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400 });
    expect(Object.keys((refused as CrafterApiError).fields)).toContain("name");

    const unknown = createCrafterClient({ baseUrl: session.baseUrl, apiKey: "crk_not-a-key" });
    await expect(unknown.get("/api/projects")).rejects.toMatchObject({ status: 401 });
  });
});
