import { randomUUID } from "node:crypto";
import { type GatewaySession, gatewayUrl, verifiedSession, waitForEmail } from "@crafter/kit/testing";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";
import sharp from "sharp";

// A business logo at a lasting public URL, on the real test stack: the gateway, media (MinIO,
// MongoDB-compatible store), projects' public brand, and notifications' reviewer email in Mailpit.
jest.setTimeout(120_000);

let owner: GatewaySession;
let projectId: string;
let profileId: string;

async function upload(session: GatewaySession, bytes: Buffer, name: string) {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(bytes)]), name);
  const cookie = [...session.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const response = await fetch(`${gatewayUrl()}/api/media/assets`, {
    method: "POST",
    body: form,
    headers: { cookie, origin: gatewayUrl() },
  });
  return { status: response.status, body: (await response.json()) as { result: { id: string; url: string } } };
}

const logoPng = () =>
  sharp({ create: { width: 120, height: 48, channels: 3, background: { r: 200, g: 90, b: 30 } } })
    .png()
    .toBuffer();

beforeAll(async () => {
  ({ session: owner } = await verifiedSession("logo"));
  const created = await owner.post("/api/projects/createProject", {
    name: "Crumb & Co. Bakery",
    description: "A neighbourhood sourdough bakery, for the public logo test.",
  });
  expect(created.status).toBe(201);
  projectId = created.body.result.project.projectId;
  profileId = created.body.result.profile.profileId;
});

describe("a published logo", () => {
  it("is served to anyone at a URL that does not expire, cacheable and loadable cross-origin; nothing unpublished is", async () => {
    const bytes = await logoPng();
    const uploaded = await upload(owner, bytes, "logo.png");
    expect(uploaded.status).toBe(201);
    const assetId = uploaded.body.result.id;

    const published = await owner.post(`/api/media/assets/${assetId}/public`, {});
    expect(published.status).toBe(200);
    const publicUrl = published.body.result.publicUrl as string;
    expect(publicUrl).toMatch(/^\/media\/public\/[A-Za-z0-9_-]{22}$/);
    // The same URL each time.
    expect((await owner.post(`/api/media/assets/${assetId}/public`, {})).body.result.publicUrl).toBe(publicUrl);

    // No session, no signature, another origin's page.
    const response = await fetch(`${gatewayUrl()}${publicUrl}`, { headers: { origin: "https://mail.example" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("image/");
    expect(response.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(response.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    const served = Buffer.from(await response.arrayBuffer());
    const meta = await sharp(served).metadata();
    expect([meta.width, meta.height]).toEqual([120, 48]);

    // The asset's signed URL stays private and expiring: a signature is still needed.
    const signed = new URL(uploaded.body.result.url, gatewayUrl());
    expect((await fetch(`${gatewayUrl()}${signed.pathname}`)).status).toBe(403);
    // Another user cannot publish it; unknown and malformed ids are 404.
    const { session: other } = await verifiedSession("logo-other");
    expect((await other.post(`/api/media/assets/${assetId}/public`, {})).status).toBe(404);
    for (const bad of [randomUUID().replace(/-/g, "").slice(0, 22), "x", "..%2F..%2Fetc", "a".repeat(90)])
      expect((await fetch(`${gatewayUrl()}/media/public/${bad}`)).status).toBe(404);

    // Deleting the asset ends its public URL.
    expect((await owner.request("DELETE", `/api/media/assets/${assetId}`, {})).status).toBe(200);
    expect((await fetch(`${gatewayUrl()}${publicUrl}`)).status).toBe(404);
  });

  it("is the business's logo in the reviewer's email, as an absolute URL that loads", async () => {
    const uploaded = await upload(owner, await logoPng(), "brand.png");
    const publicUrl = (await owner.post(`/api/media/assets/${uploaded.body.result.id}/public`, {})).body.result
      .publicUrl as string;
    const saved = await owner.request("PATCH", `/api/profiles/${profileId}`, { values: { logoImage: publicUrl } });
    expect(saved.status).toBe(200);
    const campaign = await owner.post(`/api/email/campaigns?projectId=${projectId}`, {
      name: "Logo check",
      subject: "Hi",
      html: "<p>Hi</p>",
    });
    expect(campaign.status).toBe(201);
    const reviewerEmail = `logo-reviewer-${randomUUID().slice(0, 8)}@review.test`;
    const shared = await owner.post("/api/approvals", {
      projectId,
      subjectKind: "campaign",
      subjectId: campaign.body.result.id,
      reviewerEmail,
    });
    expect(shared.status).toBe(201);
    const email = await waitForEmail(reviewerEmail, "asks for your review");
    const absolute = `${gatewayUrl()}${publicUrl}`;
    expect(email.HTML).toContain(`src="${absolute}"`);
    expect((await fetch(absolute)).status).toBe(200);
  });
});
