import { rpcAccess } from "@crafter/kit";
import { MediaService } from "@crafter/proto/crafter/media/v1/media_pb";

/** Who may call each MediaService RPC: a method without an entry is refused. */
export const access = rpcAccess(MediaService, {
  getMediaStatus: ["user"],
});
