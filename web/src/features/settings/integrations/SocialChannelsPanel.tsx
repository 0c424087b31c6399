import { FacebookOutlined, InstagramOutlined, TikTokOutlined } from "@ant-design/icons";
import { Alert, Button, Checkbox, Flex, Typography } from "antd";
import { useEffect, useMemo, useState } from "react";
import useSWR from "swr";
import { fetcher } from "../../../api/api";
import {
  CHANNEL_KIND_LABELS,
  type SocialChannel,
  type SocialProvider,
  socialApi,
  socialKeys,
} from "../../../api/social";
import { EmptyState, ErrorState, LoadingBlock } from "../../../shared/states";
import { useAction } from "../../../shared/use-action";

type Channels = { channels: SocialChannel[]; providers: SocialProvider[] };

const ICONS: Record<SocialChannel["kind"], typeof FacebookOutlined> = {
  facebook_page: FacebookOutlined,
  instagram: InstagramOutlined,
  tiktok: TikTokOutlined,
};

/**
 * Where a provider's posts go (under its row in Settings › Integrations): the Pages and Instagram
 * professional accounts (or the TikTok account) its connection offers, each ticked when posts are
 * published to it. Shown once the provider is connected.
 */
export function SocialChannelsPanel({
  provider,
  canManage,
}: {
  provider: SocialChannel["provider"];
  canManage: boolean;
}) {
  const { data, error, isLoading, mutate } = useSWR<Channels>(socialKeys.channels(), fetcher);
  const mine = useMemo(() => (data?.channels ?? []).filter((c) => c.provider === provider), [data, provider]);
  const state = data?.providers.find((p) => p.provider === provider);
  const [picked, setPicked] = useState<string[]>([]);
  useEffect(() => setPicked(mine.filter((c) => c.chosen).map((c) => c.id)), [mine]);
  const save = useAction(
    // The other providers' choices stay as they are.
    () =>
      socialApi.choose([
        ...(data?.channels ?? []).filter((c) => c.provider !== provider && c.chosen).map((c) => c.id),
        ...picked,
      ]),
    { error: "Could not save where posts go", success: "Saved where posts go", revalidate: [socialKeys.channels()] },
  );

  if (isLoading) return <LoadingBlock />;
  if (error) return <ErrorState error={error} onRetry={() => mutate()} />;
  if (!state || state.state === "not_connected") return null;
  const changed =
    picked.length !== mine.filter((c) => c.chosen).length || mine.some((c) => c.chosen !== picked.includes(c.id));

  return (
    <Flex vertical gap={8} style={{ paddingInlineStart: 30 }} data-testid={`social-channels-${provider}`}>
      <Typography.Text strong>Publish posts to</Typography.Text>
      {state.state !== "connected" ? <Alert type="warning" showIcon message={state.message} /> : null}
      {mine.length === 0 ? (
        <EmptyState
          testId="social-channels-empty"
          description="No channel to publish to yet: the connected account manages no Facebook Page or Instagram professional account. Add one at Meta, then reload this page."
        />
      ) : (
        <Checkbox.Group value={picked} onChange={(values) => setPicked(values as string[])} disabled={!canManage}>
          <Flex vertical gap={6}>
            {mine.map((channel) => {
              const Icon = ICONS[channel.kind];
              return (
                <Checkbox key={channel.id} value={channel.id} data-testid={`social-channel-${channel.id}`}>
                  <Flex gap={6} align="center" wrap>
                    <Icon aria-hidden />
                    <span>{channel.name}</span>
                    <Typography.Text type="secondary">{CHANNEL_KIND_LABELS[channel.kind]}</Typography.Text>
                  </Flex>
                </Checkbox>
              );
            })}
          </Flex>
        </Checkbox.Group>
      )}
      {canManage && mine.length > 0 ? (
        <div>
          <Button
            type="primary"
            disabled={!changed}
            loading={save.pending}
            onClick={() => void save.run()}
            data-testid={`social-channels-save-${provider}`}
          >
            Save
          </Button>
        </div>
      ) : null}
    </Flex>
  );
}

/** Meta's panel: its Pages and Instagram accounts. */
export function MetaChannelsPanel({ canManage }: { canManage: boolean }) {
  return <SocialChannelsPanel provider="meta" canManage={canManage} />;
}
