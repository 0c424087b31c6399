import { type GatewaySession, gatewayUrl, verifiedSession } from "@crafter/kit/testing";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";

// Pages published from a Web Page Writer craft at /<slug>, through the gateway, the real
// workflows service (offline engine) and projects. Run against a stack without AI_* settings.
jest.setTimeout(120_000);

const base = "/api/workflowsV2";
let owner: GatewaySession;
let other: GatewaySession;
let craftId = "";
const slug = `bakery-${Date.now().toString(36)}`;

/** The public page as a browser (or a link preview) fetches it: no cookie. */
async function fetchPage(path: string) {
  const response = await fetch(`${gatewayUrl()}${path}`, { redirect: "manual" });
  return { status: response.status, type: response.headers.get("content-type") ?? "", html: await response.text() };
}

/** A WebPageWriter craft completed with the offline engine: two written sections. */
async function writtenCraft(session: GatewaySession): Promise<string> {
  const created = await session.post(base, { workflowName: "WebPageWriter", craftName: "Kit page" });
  expect(created.status).toBe(201);
  const id: string = created.body.result.craftId;
  const values: Record<string, Record<string, unknown>> = {
    brief: {
      pageType: "landing",
      offering: "Sourdough starter kit",
      description: "A live rye starter and a proofing basket to bake your first loaf this week.",
      audience: "home bakers",
      benefits: ["Bake your first loaf in a week"],
      features: ["Live rye starter", "Proofing basket"],
      painPoints: ["flat, dense loaves"],
      offer: "15% off your first kit",
      cta: "shopNow",
      url: "https://crumb.example.com/kit",
      keywords: ["sourdough starter"],
    },
    outline: { headline: "Bake real bread this week", sections: ["Hero: the kit", "What you get"] },
  };
  let craft = created.body.result;
  for (let guard = 0; craft.state !== "Completed" && guard < 10; guard++) {
    const stepName: string = craft.currentStep;
    const done = await session.put(`${base}/${id}/step/complete`, { stepName, values: values[stepName] ?? {} });
    expect(`${stepName} ${done.status}`).toBe(`${stepName} 200`);
    craft = done.body.result.craft;
  }
  expect(craft.state).toBe("Completed");
  return id;
}

beforeAll(async () => {
  [{ session: owner }, { session: other }] = await Promise.all([
    verifiedSession("pages"),
    verifiedSession("pages-other"),
  ]);
  const project = await owner.post("/api/projects/createProject", {
    name: "Crumb & Co <Bakery>",
    description: "We bake slow-fermented sourdough in small batches in Leeds.",
    audience: "home bakers",
    keywords: ["sourdough"],
  });
  expect(project.status).toBe(201);
  craftId = await writtenCraft(owner);
});

describe("publishing a web page craft at /<slug>", () => {
  it("publishes, serves server-rendered HTML with its head, the business and the link back", async () => {
    expect((await owner.get(`${base}/${craftId}/page`)).body.result).toEqual({ page: null });
    const published = await owner.put(`${base}/${craftId}/page`, { slug });
    expect(published.status).toBe(200);
    expect(published.body.result).toMatchObject({
      slug,
      craftId,
      title: "Bake real bread this week",
      description: "A live rye starter and a proofing basket to bake your first loaf this week.",
      businessName: "Crumb & Co <Bakery>",
    });
    expect(published.body.result.url).toMatch(new RegExp(`/${slug}$`));
    expect((await owner.get(`${base}/${craftId}/page`)).body.result.page.slug).toBe(slug);

    const page = await fetchPage(`/${slug}`);
    expect(page.status).toBe(200);
    expect(page.type).toContain("text/html");
    expect(page.html).toContain("<title>Bake real bread this week · Crumb &amp; Co &lt;Bakery&gt;</title>");
    expect(page.html).toContain(
      '<meta name="description" content="A live rye starter and a proofing basket to bake your first loaf this week." />',
    );
    expect(page.html).toContain(
      '<meta property="og:title" content="Bake real bread this week · Crumb &amp; Co &lt;Bakery&gt;" />',
    );
    expect(page.html).toMatch(new RegExp(`<meta property="og:url" content="[^"]*/${slug}" />`));
    expect(page.html).toContain("<h1>Bake real bread this week</h1>");
    expect(page.html).toContain("<span data-business>Crumb &amp; Co &lt;Bakery&gt;</span>");
    expect(page.html).toMatch(/<a href="[^"]*\/" data-made-with>Made with Crafter<\/a>/);
    // Server-rendered: no app bundle, nothing to run.
    expect(page.html).not.toContain("<script");
  });

  it("refuses a taken slug (another user's) with the clear message, and reserved or malformed ones", async () => {
    const theirs = await writtenCraft(other);
    const taken = await other.put(`${base}/${theirs}/page`, { slug });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({
      errorMessage: "This address is taken. Choose another one.",
      error: { code: "PAGE_SLUG_TAKEN" },
    });

    for (const reserved of ["pricing", "app", "api", "signup", "why-us", "faq", "integrations"]) {
      const refused = await other.put(`${base}/${theirs}/page`, { slug: reserved });
      expect(`${reserved} ${refused.status}`).toBe(`${reserved} 400`);
      expect(refused.body.error.fields.slug).toBe("This address is reserved by Crafter. Choose another one");
    }
    for (const bad of ["My-Page", "my_page", "-page", "page-", "a b", "ab", "FAQ"]) {
      const refused = await other.put(`${base}/${theirs}/page`, { slug: bad });
      expect(`${bad} ${refused.status}`).toBe(`${bad} 400`);
      expect(refused.body.error.fields.slug).toBeTruthy();
    }
    // Someone else's craft cannot be published (or looked at) by them.
    expect((await other.put(`${base}/${craftId}/page`, { slug: `${slug}-x` })).status).toBe(404);
    // Two users claiming one new address at once: exactly one gets it (the unique _id decides).
    const race = await Promise.all([
      owner.put(`${base}/${craftId}/page`, { slug: `${slug}-race` }),
      other.put(`${base}/${theirs}/page`, { slug: `${slug}-race` }),
    ]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
    await other.request("DELETE", `${base}/${theirs}/page`, {});
    // The reserved public pages still serve the site, not a published page.
    expect((await fetchPage("/pricing")).status).toBe(200);
  });

  it("strips script and event handlers from the craft's HTML", async () => {
    const saved = await owner.put(`${base}/${craftId}/write/saveOrUpdateActionResult`, {
      content:
        '<h2>Our kit</h2><p onclick="alert(1)">Fresh</p><script>alert("x")</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">go</a><iframe src="https://evil.example"></iframe>',
    });
    expect(saved.status).toBe(200);
    const republished = await owner.put(`${base}/${craftId}/page`, { slug });
    expect(republished.status).toBe(200);
    const page = await fetchPage(`/${slug}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain("<h2>Our kit</h2>");
    expect(page.html).toContain("Fresh");
    expect(page.html).not.toMatch(/<script|onerror|onclick|javascript:|<iframe|alert/i);
  });

  it("moves to a new slug, freeing the old one, and unpublishes to the site's 404", async () => {
    const moved = await owner.put(`${base}/${craftId}/page`, { slug: `${slug}-v2` });
    expect(moved.status).toBe(200);
    expect((await fetchPage(`/${slug}`)).status).toBe(404);
    expect((await fetchPage(`/${slug}-v2`)).status).toBe(200);

    const gone = await owner.request("DELETE", `${base}/${craftId}/page`, {});
    expect(gone.body.result).toEqual({ unpublished: true });
    const after = await fetchPage(`/${slug}-v2`);
    expect(after.status).toBe(404);
    // The site's 404: the app's page (index.html), where it shows "Page not found".
    expect(after.html).toContain('<div id="root">');
    expect((await owner.get(`${base}/${craftId}/page`)).body.result).toEqual({ page: null });
    expect((await owner.request("DELETE", `${base}/${craftId}/page`, {})).body.result).toEqual({ unpublished: false });
  });
});
