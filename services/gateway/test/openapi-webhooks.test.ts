import { WEBHOOK_EVENT_DATA, WEBHOOK_EVENT_TYPES, webhookPayloadSchema } from "@crafter/validation";
import { describe, expect, it } from "@jest/globals";
import { openApiDocument } from "../src/http/openapi";

type Operation = {
  summary: string;
  parameters: Array<{ in: string; name: string; required?: boolean }>;
  requestBody: { content: { "application/json": { schema: { $ref: string } } } };
};

describe("the OpenAPI document's webhooks section", () => {
  const document = openApiDocument([], "http://x.test") as unknown as {
    openapi: string;
    webhooks: Record<string, { post: Operation }>;
    components: { schemas: Record<string, { properties: Record<string, any>; required: string[] }> };
  };

  it("has one signed POST per event an endpoint can choose, and the test event", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES, "webhook.test"].sort());
    for (const [type, { post }] of Object.entries(document.webhooks)) {
      expect(post.summary).toBeTruthy();
      const headers = post.parameters.filter((p) => p.in === "header").map((p) => p.name);
      expect({ type, headers }).toEqual({ type, headers: ["webhook-id", "webhook-timestamp", "webhook-signature"] });
      const ref = post.requestBody.content["application/json"].schema.$ref;
      const payload = document.components.schemas[ref.replace("#/components/schemas/", "")]!;
      expect(payload.required).toEqual(["type", "timestamp", "data"]);
      expect(payload.properties.type).toMatchObject({ const: type });
    }
  });

  it("documents each event's data with its fields", () => {
    const lead = document.components.schemas.LeadCapturedWebhookData!;
    expect(Object.keys(lead.properties)).toEqual(["projectId", "contactId", "email", "source", "originId"]);
    const bounced = document.components.schemas.EmailBouncedWebhookData!;
    expect(bounced.properties.kind).toMatchObject({ enum: ["bounce", "complaint"] });
  });

  it("is the schema the payloads are built to", () => {
    const payload = {
      type: "campaign.sent",
      timestamp: "2026-11-28T05:00:00.000Z",
      data: { projectId: "p1", campaignId: "c1", name: "Autumn", sent: 10, failed: 1, skipped: 2 },
    };
    expect(webhookPayloadSchema("campaign.sent").parse(payload)).toEqual(payload);
    expect(() => webhookPayloadSchema("campaign.sent").parse({ ...payload, type: "lead.captured" })).toThrow();
    expect(Object.keys(WEBHOOK_EVENT_DATA)).toHaveLength(8);
  });
});
