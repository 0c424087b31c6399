import { badRequest, type Caller, OutboundError } from "@crafter/kit";
import { type CreatorInfo, type TikTokAdapter, TikTokApiError } from "../clients/social/tiktok";
import type { NotificationsDeps } from "../deps";
import { TokenUnavailable } from "../domain/social-ports";

/** The creator's posting options, or why they cannot be read. */
export interface TikTokCreatorView {
  creator?: CreatorInfo;
  state: "connected" | "not_connected" | "needs_reconnecting" | "unavailable";
  message: string;
}

/**
 * The project's TikTok creator's posting options (creator_info), read when a TikTok post is made.
 * TikTok refusing (a revoked grant, its daily cap) or being unreachable is answered as a state.
 * The gateway checks the caller's place in the project (the route acts in the project).
 * @throws CR_ERR_BAD_REQUEST (no project id).
 */
export async function getTikTokCreatorInfo(
  deps: Pick<NotificationsDeps, "social">,
  _caller: Caller,
  input: { projectId: string },
): Promise<TikTokCreatorView> {
  if (!input.projectId || input.projectId.length > 64) throw badRequest({ projectId: "projectId is required" });
  const adapter = deps.social.adapters.get("tiktok") as TikTokAdapter | undefined;
  if (!adapter || typeof adapter.creatorInfo !== "function")
    return { state: "unavailable", message: "Publishing to TikTok is not available on this server." };
  let token: string;
  try {
    token = await deps.social.tokens.accessToken(input.projectId, "tiktok");
  } catch (error) {
    if (error instanceof TokenUnavailable) return { state: error.state, message: error.message };
    throw error;
  }
  try {
    return { creator: await adapter.creatorInfo(token), state: "connected", message: "" };
  } catch (error) {
    if (error instanceof TikTokApiError) {
      const reconnect = error.code === "access_token_invalid" || error.code.startsWith("scope_");
      return {
        state: reconnect ? "needs_reconnecting" : "unavailable",
        message: reconnect
          ? "TikTok no longer accepts this connection: reconnect TikTok in Settings › Integrations."
          : `TikTok did not answer with the posting options: ${error.message}`,
      };
    }
    if (error instanceof OutboundError) return { state: "unavailable", message: "TikTok could not be reached." };
    throw error;
  }
}
