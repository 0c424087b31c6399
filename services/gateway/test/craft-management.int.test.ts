import { GatewaySession, linkFrom, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";

// Craft management through the gateway and the real workflows service (offline engine for
// BlogWriter): results, clone, favorites, delete, standalone crafts, headers, image prompt
// writers and the assistant chat (offline path; ai-provider.int.test.ts covers a provider).
// Run against a stack without AI_* settings: every engine is the offline one.

// The offline engine streams with a pause between chunks, and the test servers are shared: allow time.
jest.setTimeout(120_000);

const session = new GatewaySession();
const other = new GatewaySession();
const base = "/api/workflowsV2";
const MISSING = "00000000-0000-4000-8000-000000000000";

async function signUp(client: GatewaySession, prefix: string) {
  const email = uniqueEmail(prefix);
  await client.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await client.post("/auth/verify", { token });
  expect((await client.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
}

let profileId: string;

beforeAll(async () => {
  await Promise.all([signUp(session, "crafts"), signUp(other, "crafts-other")]);
  const created = await session.post("/api/projects/createProject", {
    name: "Crumb & Co. Bakery",
    description: "A neighbourhood sourdough bakery baking naturally leavened bread every morning.",
    audience: "Local families who care about real bread",
    keywords: ["sourdough", "artisan bread"],
  });
  expect(created.status).toBe(201);
  profileId = created.body.result.profile.profileId;
});

const del = (client: GatewaySession, path: string) => client.request("DELETE", path, {});

/** A BlogWriter craft with its topic step completed (offline), so it has a list result. */
async function plannedCraft(name?: string) {
  const created = await session.post(base, { workflowName: "BlogWriter", ...(name ? { craftName: name } : {}) });
  expect(created.status).toBe(201);
  const craftId: string = created.body.result.craftId;
  const done = await session.put(`${base}/${craftId}/step/complete`, {
    stepName: "topic",
    values: { topic: "Keeping a sourdough starter alive", keywords: ["starter"] },
  });
  expect(done.status).toBe(200);
  return { craftId, craft: done.body.result.craft };
}

const topicResults = (craft: any) => craft.steps.find((s: any) => s.name === "topic").results;

describe("PUT /{id}/{stepName}/saveOrUpdateActionResult", () => {
  it("edits, selects and deletes a result, and adds a user-written one", async () => {
    const { craftId, craft } = await plannedCraft();
    const [result] = topicResults(craft);
    const path = `${base}/${craftId}/topic/saveOrUpdateActionResult`;

    const edited = await session.put(path, {
      resultId: result.id,
      content: "## Title ideas\n- My own title\n## Outline\n- Feed it daily",
    });
    expect(edited.status).toBe(200);
    expect(topicResults(edited.body.result)[0]).toMatchObject({
      id: result.id,
      sections: { titles: ["My own title"], outline: ["Feed it daily"] },
      engine: "offline",
    });

    const selected = await session.put(path, { resultId: result.id, selected: true, data: { rating: 5 } });
    expect(topicResults(selected.body.result)[0]).toMatchObject({ selected: true, data: { rating: 5 } });
    // Saved, not just echoed.
    expect(topicResults((await session.get(`${base}/${craftId}`)).body.result)[0].selected).toBe(true);

    // ReplaceResults: a user-written result replaces the generated one.
    const added = await session.put(path, { sections: { titles: ["Written by me"], outline: ["Step one"] } });
    expect(added.status).toBe(200);
    const [mine] = topicResults(added.body.result);
    expect(topicResults(added.body.result)).toHaveLength(1);
    expect(mine).toMatchObject({ engine: "user", format: "list", sections: { titles: ["Written by me"] } });

    const deleted = await session.put(path, { resultId: mine.id, delete: true });
    expect(deleted.status).toBe(200);
    expect(topicResults(deleted.body.result)).toEqual([]);
  });

  it("sanitises HTML of a user-written draft", async () => {
    const { craftId, craft } = await plannedCraft();
    const opened = await session.put(`${base}/${craftId}/step/complete`, {
      stepName: "outline",
      values: craft.steps[1].values,
    });
    expect(opened.status).toBe(200);
    const saved = await session.put(`${base}/${craftId}/outline/saveOrUpdateActionResult`, {
      content: '<h2 onclick="steal()">Mine</h2><script>alert(1)</script><p>Real <a href="javascript:x">bread</a></p>',
    });
    expect(saved.status).toBe(200);
    const outline = saved.body.result.steps.find((s: any) => s.name === "outline");
    // The one sanitize-html config drops the handler, the script and the javascript: link, and
    // marks every link it keeps noopener.
    expect(outline.results[0].content).toBe('<h2>Mine</h2><p>Real <a rel="noopener noreferrer">bread</a></p>');
  });

  it("answers 404, 400 and 409 paths", async () => {
    const { craftId } = await plannedCraft();
    const path = `${base}/${craftId}/topic/saveOrUpdateActionResult`;
    const unknownResult = await session.put(path, { resultId: "nope", selected: true });
    expect(unknownResult.status).toBe(404);
    expect(unknownResult.body.errorMessage).toBe("Result not found.");
    expect((await session.put(`${base}/${MISSING}/topic/saveOrUpdateActionResult`, { content: "x" })).status).toBe(404);
    // Another user's craft does not exist for them.
    expect((await other.put(path, { content: "- x" })).status).toBe(404);

    const badShape = await session.put(path, { selected: "yes" });
    expect(badShape.status).toBe(400);
    expect(badShape.body.error).toMatchObject({
      code: "CR_ERR_BAD_REQUEST",
      fields: { selected: "selected must be true or false" },
    });
    const nothing = await session.put(path, {});
    expect(nothing.status).toBe(400);
    expect((await session.put(`${base}/${craftId}/nosuchstep/saveOrUpdateActionResult`, { content: "x" })).status).toBe(
      400,
    );

    // The outline step is not open on a fresh craft.
    const fresh = (await session.post(base, { workflowName: "BlogWriter" })).body.result.craftId;
    const locked = await session.put(`${base}/${fresh}/outline/saveOrUpdateActionResult`, { content: "<p>x</p>" });
    expect(locked.status).toBe(409);
    expect(locked.body.error.code).toBe("CONFLICT");
  });
});

describe("POST /{id}/cloneWorkflow", () => {
  it("copies values, results and states into a new craft named '(copy)'", async () => {
    const { craftId, craft } = await plannedCraft("Starter guide");
    const cloned = await session.post(`${base}/${craftId}/cloneWorkflow`, {});
    expect(cloned.status).toBe(201);
    const copy = cloned.body.result;
    expect(copy.craftId).not.toBe(craftId);
    expect(copy.craftName).toBe("Starter guide (copy)");
    expect(copy.state).toBe(craft.state);
    expect(copy.currentStep).toBe(craft.currentStep);
    expect(copy.steps.map((s: any) => [s.state, s.values, s.results])).toEqual(
      craft.steps.map((s: any) => [s.state, s.values, s.results]),
    );
    const named = await session.post(`${base}/${craftId}/cloneWorkflow`, { craftName: "Second try" });
    expect(named.body.result.craftName).toBe("Second try");
    // The copy lives on its own: editing it leaves the original alone.
    await session.put(`${base}/${copy.craftId}/topic/saveOrUpdateActionResult`, { content: "- Changed" });
    expect(topicResults((await session.get(`${base}/${craftId}`)).body.result)).toEqual(topicResults(craft));
  });

  it("answers 404 for unknown or others' crafts and 400 for a long name", async () => {
    const { craftId } = await plannedCraft();
    expect((await session.post(`${base}/${MISSING}/cloneWorkflow`, {})).status).toBe(404);
    expect((await other.post(`${base}/${craftId}/cloneWorkflow`, {})).status).toBe(404);
    const long = await session.post(`${base}/${craftId}/cloneWorkflow`, { craftName: "x".repeat(121) });
    expect(long.status).toBe(400);
    expect(long.body.error.fields.craftName).toBe("Name must be 1 to 120 characters.");
  });
});

describe("favorites and delete", () => {
  it("stars crafts, lists only favorites, and deletes a craft from lists and reads", async () => {
    const a = (await session.post(base, { workflowName: "BlogWriter", craftName: "Fav A" })).body.result.craftId;
    const b = (await session.post(base, { workflowName: "BlogWriter", craftName: "Fav B" })).body.result.craftId;
    const starred = await session.put(`${base}/${a}/favorite`, { favorite: true });
    expect(starred.status).toBe(200);
    expect(starred.body.result).toMatchObject({ craftId: a, craftName: "Fav A", favorite: true });

    const favorites = await session.get(`${base}?favorites=true&pageSize=100`);
    const ids = favorites.body.result.crafts.map((c: any) => c.craftId);
    expect(ids).toContain(a);
    expect(ids).not.toContain(b);
    expect(favorites.body.result.crafts.every((c: any) => c.favorite === true)).toBe(true);
    const all = await session.get(`${base}?pageSize=100`);
    expect(all.body.result.crafts.find((c: any) => c.craftId === b).favorite).toBe(false);

    const unstarred = await session.put(`${base}/${a}/favorite`, { favorite: false });
    expect(unstarred.body.result.favorite).toBe(false);

    const deleted = await del(session, `${base}/${b}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.result).toEqual({ craftId: b });
    expect((await session.get(`${base}/${b}`)).status).toBe(404);
    const after = await session.get(`${base}?pageSize=100`);
    expect(after.body.result.crafts.map((c: any) => c.craftId)).not.toContain(b);
    expect(after.body.result.total).toBe(all.body.result.total - 1);
    expect((await del(session, `${base}/${b}`)).status).toBe(404);
    expect((await session.put(`${base}/${b}/favorite`, { favorite: true })).status).toBe(404);
    expect((await session.post(`${base}/${b}/cloneWorkflow`, {})).status).toBe(404);
  });

  it("answers 400 for a bad favorite body and 404 for others' crafts", async () => {
    const a = (await session.post(base, { workflowName: "BlogWriter" })).body.result.craftId;
    const bad = await session.put(`${base}/${a}/favorite`, { favorite: "yes" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields.favorite).toBe("favorite must be true or false");
    expect((await session.get(`${base}?favorites=maybe`)).status).toBe(400);
    expect((await other.put(`${base}/${a}/favorite`, { favorite: true })).status).toBe(404);
    expect((await del(other, `${base}/${a}`)).status).toBe(404);
    expect((await session.get(`${base}/${a}`)).status).toBe(200);
  });
});

describe("standalone crafts and headers", () => {
  it("creates a craft with no project and no profile prefills", async () => {
    const created = await session.post(`${base}/standalone`, { workflowName: "BlogWriter", craftName: "Loose notes" });
    expect(created.status).toBe(201);
    expect(created.body.result).toMatchObject({ craftName: "Loose notes", projectId: "", profileId: "" });
    const topic = created.body.result.steps[0];
    // With a project the audience is prefilled from its profile; standalone it is not.
    expect(topic.inputs.find((i: any) => i.name === "audience").defaultValue ?? "").toBe("");
    expect((await session.get(`${base}/${created.body.result.craftId}`)).status).toBe(200);
    const withProject = await session.post(base, { workflowName: "BlogWriter" });
    expect(withProject.body.result.profileId).toBe(profileId);
  });

  it("answers 404 for an unknown workflow and 400 for a missing one", async () => {
    expect((await session.post(`${base}/standalone`, { workflowName: "NoSuchFlow" })).status).toBe(404);
    const missing = await session.post(`${base}/standalone`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields.workflowName).toBe("workflowName is required");
  });

  it("marks standalone and new workflows in the headers; tools are the available standalone ones", async () => {
    const { result } = (await session.get(`${base}/headers`)).body;
    const byName = Object.fromEntries(result.headers.map((h: any) => [h.name, h]));
    expect(byName.SmartEditor).toMatchObject({ standalone: true, available: true });
    // "New" marks only the workflows released last, not every card.
    expect(byName.BlogWriter).toMatchObject({ standalone: false, new: false, available: true });
    expect(result.headers.filter((h: any) => h.new).length).toBeLessThan(result.headers.length / 2);
    for (const name of result.toolsList) expect(byName[name]).toMatchObject({ standalone: true, available: true });
    for (const name of result.newToolsList) expect(result.toolsList).toContain(name);
  });
});

describe("image prompt writers (offline)", () => {
  it("writes prompts from a profile and from a document, labelled offline", async () => {
    const fromProfile = await session.post("/api/profiles/profileImagePromptWriter", {
      profileId,
      isBusinessProfile: true,
      imageGenerationModel: "imagen",
    });
    expect(fromProfile.status).toBe(200);
    expect(fromProfile.body.result.prompts).toHaveLength(3);
    expect(fromProfile.body.result.prompts[0]).toContain("Crumb & Co. Bakery");
    expect(fromProfile.body.result).toMatchObject({ engine: "offline", note: expect.stringMatching(/offline/) });

    const fromDocument = await session.post("/api/smartDocument/smartDocumentImagePromptWriter", {
      content: "<h1>Rye week</h1><p>Our dark rye loaf is back for one week only.</p>",
      imageGenerationModel: "dalle",
    });
    expect(fromDocument.status).toBe(200);
    expect(fromDocument.body.result.prompts.join(" ")).toContain("dark rye loaf");
  });

  it("validates the model, the profile and the content", async () => {
    const badModel = await session.post("/api/smartDocument/smartDocumentImagePromptWriter", {
      content: "x",
      imageGenerationModel: "midjourney",
    });
    expect(badModel.status).toBe(400);
    expect(badModel.body.error.fields.imageGenerationModel).toBe("imageGenerationModel must be dalle or imagen");
    const noContent = await session.post("/api/smartDocument/smartDocumentImagePromptWriter", {
      content: "<p> </p>",
      imageGenerationModel: "dalle",
    });
    expect(noContent.status).toBe(400);
    expect(noContent.body.error.fields.content).toBe("Content is required");
    const noProfile = await session.post("/api/profiles/profileImagePromptWriter", { imageGenerationModel: "dalle" });
    expect(noProfile.status).toBe(400);
    expect(noProfile.body.error.fields.profileId).toBe("profileId is required");
    const othersProfile = await other.post("/api/profiles/profileImagePromptWriter", {
      profileId,
      imageGenerationModel: "dalle",
    });
    expect(othersProfile.status).toBe(404);
  });
});

describe("assistant chat (offline)", () => {
  it("answers honestly from the conversation", async () => {
    const reply = await session.post("/api/assistant/chat", {
      messages: [{ content: "Can you help me write a newsletter for my bakery?" }],
    });
    expect(reply.status).toBe(200);
    expect(reply.body.result.message.type).toBe("answer");
    expect(reply.body.result.message.content).toContain("offline");
    expect(reply.body.result.message.content).toContain("newsletter for my bakery");
    expect(reply.body.result).toMatchObject({ engine: "offline", note: expect.stringMatching(/offline/) });
  });

  it("rejects a conversation over 163840 characters, and empty ones", async () => {
    const long = await session.post("/api/assistant/chat", {
      messages: [
        { type: "message", content: "x".repeat(100_000) },
        { type: "answer", content: "y".repeat(63_841) },
      ],
    });
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe("CR_ERR_BAD_REQUEST");
    expect(long.body.error.fields.messages).toContain("too long (163841 of 163840 characters)");
    const atLimit = await session.post("/api/assistant/chat", {
      messages: [{ type: "message", content: "x".repeat(163_840) }],
    });
    expect(atLimit.status).toBe(200);
    expect((await session.post("/api/assistant/chat", { messages: [] })).status).toBe(400);
    expect((await session.post("/api/assistant/chat", { messages: [{ content: "  " }] })).status).toBe(400);
  });
});
