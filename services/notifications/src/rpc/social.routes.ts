import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import { SocialService } from "@crafter/proto/crafter/notifications/v1/calendar_pb";
import {
  chooseSocialChannels,
  getSocialPost,
  listSocialChannels,
  publishSocialPost,
  retrySocialChannel,
  type SocialDeps,
  type SocialPostView,
} from "../usecases/social-publishing";
import { getTikTokCreatorInfo } from "../usecases/tiktok-creator";

const toPost = (post: SocialPostView) => ({ post: { ...post, publishAt: timestampFromDate(post.publishAt) } });

/** crafter.notifications.v1.SocialService: thin handlers over the use cases. */
export function socialRoutes(deps: SocialDeps): (router: ConnectRouter) => void {
  return (router) => {
    router.service(SocialService, {
      listSocialChannels: (req, ctx) => listSocialChannels(deps, callerOf(ctx), req),
      chooseSocialChannels: (req, ctx) => chooseSocialChannels(deps, callerOf(ctx), req),
      async publishSocialPost(req, ctx) {
        return toPost(
          await publishSocialPost(deps, callerOf(ctx), {
            projectId: req.projectId,
            craftId: req.craftId,
            channelIds: req.channelIds,
            publishAt: req.publishAt ? timestampDate(req.publishAt) : undefined,
            tiktok: {
              privacyLevel: req.tiktokPrivacyLevel,
              disableComment: req.tiktokDisableComment,
              disableDuet: req.tiktokDisableDuet,
              disableStitch: req.tiktokDisableStitch,
            },
          }),
        );
      },
      getSocialPost: async (req, ctx) => toPost(await getSocialPost(deps, callerOf(ctx), req)),
      retrySocialChannel: async (req, ctx) => toPost(await retrySocialChannel(deps, callerOf(ctx), req)),
      getTikTokCreatorInfo: (req, ctx) => getTikTokCreatorInfo(deps, callerOf(ctx), req),
    });
  };
}
