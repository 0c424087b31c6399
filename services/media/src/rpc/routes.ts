import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import { MediaService } from "@crafter/proto/crafter/media/v1/media_pb";
import type { MediaDeps } from "../deps";
import { getMediaStatus } from "../usecases/get-media-status";

/** crafter.media.v1.MediaService: thin handlers; the use cases hold the logic. */
export function routes(deps: MediaDeps): (router: ConnectRouter) => void {
  return (router) =>
    router.service(MediaService, {
      async getMediaStatus(req, ctx) {
        return getMediaStatus(deps, callerOf(ctx), req);
      },
    });
}
