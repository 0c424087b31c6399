// The media service of a running test stack (scripts/stack.mjs; addresses from .data/stack/*/stack.env).
import { createServiceClient, describeError } from "@crafter/kit";
import { stackEnv, stackServiceCredentials, verifiedRpcUser } from "@crafter/kit/testing";
import { MediaService } from "@crafter/proto/crafter/media/v1/media_pb";
import { describe, expect, it } from "@jest/globals";

const client = createServiceClient(MediaService, stackEnv().MEDIA_URL!, { timeoutMs: 30_000 });

describe("MediaService", () => {
  it("answers a verified user with their status, and refuses a call without a token", async () => {
    const { headers } = await verifiedRpcUser("media");

    expect(await client.getMediaStatus({}, { headers })).toMatchObject({ entries: 0, empty: true });
    const refused = await client.getMediaStatus({}).then(
      () => "resolved",
      (error) => describeError(error).status,
    );
    expect(refused).toBe(401);
  });
});

describe("ImportImage (a provider's image copied into the library)", () => {
  const projects = createServiceClient(MediaService, stackEnv().MEDIA_URL!, {
    timeoutMs: 30_000,
    as: "service",
    credentials: stackServiceCredentials("projects"),
  });
  const code = (call: Promise<unknown>) =>
    call.then(
      () => "copied",
      (error) => describeError(error).code,
    );
  const input = (url: string) => ({
    userId: "user-import-test",
    projectId: "project-import-test",
    url,
    key: url,
    name: "A product",
    profileType: "PRODUCT",
    profileIds: [],
  });

  it("fetches only public addresses (or pinned test hosts), and only http(s) URLs", async () => {
    expect(await code(projects.importImage(input("http://127.0.0.1:9/image.png")))).toBe("MEDIA_PROVIDER_FAILED");
    expect(await code(projects.importImage(input("http://169.254.169.254/latest/meta-data")))).toBe(
      "MEDIA_PROVIDER_FAILED",
    );
    expect(await code(projects.importImage(input("file:///etc/passwd")))).toBe("CR_ERR_BAD_REQUEST");
  });

  it("is for services: a user's call is refused", async () => {
    const { headers } = await verifiedRpcUser("media-import");
    const refused = await client.importImage(input("https://example.com/a.png"), { headers }).then(
      () => 0,
      (error) => describeError(error).status,
    );
    expect(refused).toBe(403);
  });
});
