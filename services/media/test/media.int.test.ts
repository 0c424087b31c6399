// The media service of a running test stack (scripts/stack.mjs; addresses from .data/stack/*/stack.env).
import { createServiceClient, describeError } from "@crafter/kit";
import { stackEnv, verifiedRpcUser } from "@crafter/kit/testing";
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
