// BusinessSetup through the gateway (REST /api/workflowsV2) on the test stack, for two attacks: the
// website audit must not read internal addresses (SSRF), and the profile step of a project without
// keywords must not answer 500.
// Run with the test stack up: npm run test:integration -- services/workflows/test/business-setup
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { GatewaySession, linkFrom, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";

interface Step {
  name: string;
  status: string;
  results: { content: string; sections?: Record<string, string[]>; data?: any }[];
}
interface Craft {
  craftId: string;
  state: string;
  currentStep: string;
  steps: Step[];
}

const session = new GatewaySession();
/** The same "internal" page on 127.0.0.1, .10 and .11 (one port): readable only if not refused. */
const servers: Server[] = [];
let port = 0;
const SECRET = "Internal admin — do not expose";

function page(host: string, wanted: number): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url === "/to-private") {
      res.writeHead(302, { location: `http://127.0.0.11:${port}/` });
      return void res.end();
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html><head><title>${SECRET}</title></head><body><h1>Admin</h1></body></html>`);
  });
  server.listen(wanted, host);
  return once(server, "listening").then(() => server);
}

beforeAll(async () => {
  const first = await page("127.0.0.1", 0);
  port = (first.address() as AddressInfo).port;
  servers.push(first, await page("127.0.0.10", port), await page("127.0.0.11", port));

  const email = uniqueEmail("setup");
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
  // A project without keywords (and without a website).
  const project = await session.post("/api/projects/createProject", {
    name: "Crumb & Co",
    description: "We bake slow-fermented sourdough in small batches in Leeds.",
    audience: "home bakers",
  });
  expect(project.status).toBe(201);
});

afterAll(() => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

async function create(): Promise<Craft> {
  const created = await session.post<Craft>("/api/workflowsV2", {
    workflowName: "BusinessSetup",
    craftName: "Setup test",
  });
  expect(created.status).toBe(201);
  return created.body.result;
}

async function complete(craft: Craft, stepName: string, values: Record<string, unknown>) {
  return session.put<{ craft: Craft }>(`/api/workflowsV2/${craft.craftId}/step/complete`, { stepName, values });
}

/** The answer of the audit step for a website address. */
async function audit(websiteUrl: string) {
  const craft = await create();
  expect((await complete(craft, "start", { businessName: "Crumb & Co", hasWebsite: "yes" })).status).toBe(200);
  return complete(craft, "audit", { websiteUrl });
}

describe("BusinessSetup's website audit reads public addresses only (issue 9, finding 2)", () => {
  it("reads a test host pinned by the stack's configuration", async () => {
    const response = await audit(`http://bikefix.crafter.test:${port}/`);
    expect(response.status).toBe(200);
    const step = response.body.result.craft.steps.find((candidate) => candidate.name === "audit")!;
    expect(step.results.at(-1)!.data.title).toBe(SECRET);
  });

  // Forms the step's Url rule lets through reach the fetch, which refuses them; the rule itself
  // already refuses IPv6 literals and single-label names (CR_ERR_BAD_REQUEST on the input).
  for (const [form, host, code] of [
    ["dotted", "127.0.0.10", "InvalidUrl"],
    ["decimal", "2130706442", "InvalidUrl"],
    ["hex", "0x7f00000a", "InvalidUrl"],
    ["octal", "0177.0.0.10", "InvalidUrl"],
    ["IPv4-mapped IPv6", "[::ffff:7f00:a]", "CR_ERR_BAD_REQUEST"],
    ["IPv6 loopback", "[::1]", "CR_ERR_BAD_REQUEST"],
    ["single-label name", "localhost", "CR_ERR_BAD_REQUEST"],
  ] as const) {
    it(`refuses the ${form} form (${host}) with ${code}`, async () => {
      const response = await audit(`http://${host}:${port}/`);
      expect(`${host} ${response.status} ${response.body.error?.code}`).toBe(`${host} 400 ${code}`);
      if (code === "InvalidUrl") {
        expect(response.body.errorMessage).toBe(
          "Oops! The URL you entered seems incorrect. Please check and try again.",
        );
      }
      expect(JSON.stringify(response.body)).not.toContain(SECRET);
    });
  }

  it("refuses a redirect from a public page to a private address", async () => {
    const response = await audit(`http://bikefix.crafter.test:${port}/to-private`);
    expect(`${response.status} ${response.body.error?.code}`).toBe("400 InvalidUrl");
    expect(JSON.stringify(response.body)).not.toContain(SECRET);
  });
});

describe("BusinessSetup's profile step on a project without keywords (issue 9, finding 4)", () => {
  async function atProfile(): Promise<Craft> {
    const craft = await create();
    const started = await complete(craft, "start", { businessName: "Crumb & Co", hasWebsite: "no" });
    expect(started.status).toBe(200);
    expect(started.body.result.craft.currentStep).toBe("profile");
    return started.body.result.craft;
  }

  it("completes the profile step with no values, keywords drafted from the business", async () => {
    const craft = await atProfile();
    const response = await complete(craft, "profile", {});
    expect(response.status).toBe(200);
    const profile = response.body.result.craft.steps.find((step) => step.name === "profile")!;
    expect(profile.results.at(-1)!.sections!.keywords!.length).toBeGreaterThan(0);
  });

  it("runs the step's TextGenerator on its own", async () => {
    const craft = await atProfile();
    const response = await session.post(`/api/workflowsV2/${craft.craftId}/profile/TextGenerator`, { params: {} });
    expect(response.status).toBe(200);
  });
});
