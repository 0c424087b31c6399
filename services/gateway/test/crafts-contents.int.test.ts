import { GatewaySession, linkFrom, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";

// Clean crafts through the gateway and the real workflows service, offline engine:
// opening a workflow stores nothing, a craft is named from its content until renamed, and
// Contents searches (token equality) and filters by type, status, profile and favourite, sorted by
// creation or last change.

jest.setTimeout(120_000);

const session = new GatewaySession();
const base = "/api/workflowsV2";

let profileId: string;

beforeAll(async () => {
  const email = uniqueEmail("contents");
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
  const created = await session.post("/api/projects/createProject", {
    name: "Spoke & Sprocket Bicycle Repair",
    description: "A family-run bicycle repair shop servicing road, gravel and cargo bikes since 2009.",
    audience: "Commuters and families who ride every day",
    keywords: ["bike repair", "wheel building"],
  });
  expect(created.status).toBe(201);
  profileId = created.body.result.profile.profileId;
});

async function total(query = ""): Promise<number> {
  const list = await session.get(`${base}?pageSize=1${query}`);
  expect(list.status).toBe(200);
  return list.body.result.total;
}

async function names(query: string): Promise<string[]> {
  const list = await session.get(`${base}?pageSize=100${query}`);
  expect(list.status).toBe(200);
  return list.body.result.crafts.map((craft: { craftName: string }) => craft.craftName);
}

/** A BlogWriter craft whose topic step is completed (offline): its titles name it. */
async function blog(topic: string) {
  const created = await session.post(base, { workflowName: "BlogWriter" });
  expect(created.status).toBe(201);
  const craftId: string = created.body.result.craftId;
  const done = await session.put(`${base}/${craftId}/step/complete`, {
    stepName: "topic",
    values: { topic, keywords: ["bike service"] },
  });
  expect(done.status).toBe(200);
  return { craftId, craft: done.body.result.craft };
}

describe("opening a workflow stores nothing", () => {
  it("GET /new answers the prefilled first step with no id, and the list does not grow", async () => {
    const before = await total();
    for (const workflowName of ["BlogWriter", "EmailWriter", "GoogleAdsWriter"]) {
      const draft = await session.get(`${base}/new?workflowName=${workflowName}`);
      expect(draft.status).toBe(200);
      expect(draft.body.result).toMatchObject({ craftId: "", workflowName, profileId, state: "NotStarted" });
      expect(draft.body.result.currentStep).toBe(draft.body.result.steps[0].name);
    }
    const tool = await session.get(`${base}/new?workflowName=SmartEditor&standalone=true`);
    expect(tool.status).toBe(200);
    expect(tool.body.result).toMatchObject({ craftId: "", projectId: "" });
    // Prefilled from the active profile, as a stored craft would be.
    const blogDraft = await session.get(`${base}/new?workflowName=BlogWriter`);
    expect(blogDraft.body.result.steps[0].values.audience).toBe("Commuters and families who ride every day");
    expect(await total()).toBe(before);
  });

  it("an unknown workflow is 404 and a missing one 400", async () => {
    expect((await session.get(`${base}/new?workflowName=NoSuchWorkflow`)).status).toBe(404);
    expect((await session.get(`${base}/new`)).status).toBe(400);
  });
});

describe("names from content", () => {
  it("takes the first title its content gives, until the user renames it", async () => {
    const { craftId, craft } = await blog("How often should you service your bike");
    const titles: string[] = craft.steps.find((s: { name: string }) => s.name === "topic").results[0].sections.titles;
    expect(craft.craftName).toBe(titles[0]);
    expect(craft.craftName).not.toMatch(/^Untitled/);

    const renamed = await session.put(`${base}/${craftId}/name`, { name: "My service guide" });
    expect(renamed.status).toBe(200);
    // Editing the content afterwards keeps the user's name.
    const saved = await session.put(`${base}/${craftId}`, {
      stepName: "outline",
      values: { title: "Another title entirely" },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.result.craftName).toBe("My service guide");
    expect(await names("&q=service+guide")).toContain("My service guide");
  });

  it("an email is named by its topic until it has a subject line", async () => {
    const created = await session.post(base, { workflowName: "EmailWriter" });
    const craftId = created.body.result.craftId;
    const saved = await session.put(`${base}/${craftId}`, {
      stepName: "brief",
      values: { topic: "Spring tune-up week" },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.result.craftName).toBe("Spring tune-up week");
  });
});

describe("Contents: search, filters and sort", () => {
  let wheels: string;
  let brakes: string;

  beforeAll(async () => {
    wheels = (await blog("Hand-built wheels for gravel riders")).craftId;
    brakes = (await blog("Hydraulic brake bleeding explained")).craftId;
  });

  const ids = async (query: string) => {
    const list = await session.get(`${base}?pageSize=100${query}`);
    expect(list.status).toBe(200);
    return list.body.result.crafts.map((craft: { craftId: string }) => craft.craftId) as string[];
  };

  it("finds crafts by whole words of their text and by name prefixes, every word required", async () => {
    expect(await ids("&q=hydraulic")).toEqual([brakes]);
    expect(await ids("&q=GRAVEL%20wheels")).toEqual([wheels]);
    expect(await ids("&q=gravel%20hydraulic")).toEqual([]);
    expect(await ids("&q=zeppelin")).toEqual([]);
    // A prefix of a word of the name (the name is the first generated title).
    const name: string = (await session.get(`${base}/${brakes}`)).body.result.craftName;
    const word = name
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .find((w) => w.length >= 6)!;
    expect(await ids(`&q=${word.slice(0, 4)}`)).toContain(brakes);
  });

  it("filters by type, status, profile and favourite", async () => {
    const all = await ids("");
    expect(all).toEqual(expect.arrayContaining([wheels, brakes]));
    expect(await ids("&workflowName=EmailWriter")).not.toContain(wheels);
    expect(await ids("&workflowName=BlogWriter")).toEqual(expect.arrayContaining([wheels, brakes]));
    expect(await ids("&state=InProgress")).toEqual(expect.arrayContaining([wheels, brakes]));
    expect(await ids("&state=Completed")).not.toContain(wheels);
    expect(await ids(`&profileId=${profileId}`)).toEqual(expect.arrayContaining([wheels, brakes]));
    expect(await ids("&profileId=someone-else")).toEqual([]);
    expect(await ids("&favorites=true")).toEqual([]);
    expect((await session.put(`${base}/${wheels}/favorite`, { favorite: true })).status).toBe(200);
    expect(await ids("&favorites=true&q=gravel")).toEqual([wheels]);
    const summary = (await session.get(`${base}?pageSize=100&favorites=true`)).body.result.crafts[0];
    expect(summary).toMatchObject({ craftId: wheels, profileId, favorite: true });
  });

  it("sorts by creation (newest first) or by last change", async () => {
    const created = await ids("&q=gravel&sort=created");
    expect(created).toEqual([wheels]);
    const newestFirst = (await ids("&workflowName=BlogWriter")).filter((id) => id === wheels || id === brakes);
    expect(newestFirst).toEqual([brakes, wheels]);
    // Touch the older one: it comes first by last change, still second by creation.
    expect((await session.put(`${base}/${wheels}`, { stepName: "outline", values: { length: "short" } })).status).toBe(
      200,
    );
    const byUpdate = (await ids("&workflowName=BlogWriter&sort=updated")).filter(
      (id) => id === wheels || id === brakes,
    );
    expect(byUpdate).toEqual([wheels, brakes]);
  });

  it("refuses unknown filters with the field named", async () => {
    const state = await session.get(`${base}?state=Lost`);
    expect(state.status).toBe(400);
    const sort = await session.get(`${base}?sort=name`);
    expect(sort.status).toBe(400);
    const tooMany = await session.get(`${base}?q=${encodeURIComponent("a b c d e f g h i j k")}`);
    expect(tooMany.status).toBe(400);
  });
});
