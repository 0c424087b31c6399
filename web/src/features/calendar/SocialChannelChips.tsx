import {
  CheckCircleFilled,
  ClockCircleOutlined,
  ExclamationCircleFilled,
  ExportOutlined,
  FacebookFilled,
  InstagramOutlined,
  LoadingOutlined,
  ReloadOutlined,
  TikTokOutlined,
} from "@ant-design/icons";
import { Button, Flex, Tag, Typography } from "antd";
import type { ReactNode } from "react";
import type { CalendarChannelState, CalendarEntry } from "../../api/calendar";
import { useCalendarWrites } from "../../api/calendar";
import { CHANNEL_KIND_LABELS } from "../../api/social";
import { useAction } from "../../shared/use-action";
import { CHANNEL_STATE_STYLE, type ChannelState } from "./calendar-logic";

export const KIND_ICON: Record<CalendarChannelState["kind"], ReactNode> = {
  facebook_page: <FacebookFilled />,
  instagram: <InstagramOutlined />,
  tiktok: <TikTokOutlined />,
};

export const STATE_ICON: Record<ChannelState, ReactNode> = {
  scheduled: <ClockCircleOutlined />,
  publishing: <LoadingOutlined />,
  published: <CheckCircleFilled />,
  failed: <ExclamationCircleFilled />,
};

/** "Town Bikes (Facebook Page): Published", what a chip says to a screen reader and on hover. */
export function channelLabel(channel: CalendarChannelState): string {
  return `${channel.name} (${CHANNEL_KIND_LABELS[channel.kind]}): ${CHANNEL_STATE_STYLE[channel.state].label}`;
}

/**
 * A social post's state on each channel, one chip each (kind icon, name, state icon and word):
 * published ones link to the post, failed ones give the provider's reason and Retry.
 * `compact`: the chips alone, for a calendar cell (details on hover and in the post's panel).
 */
export function SocialChannelChips({ entry, compact = false }: { entry: CalendarEntry; compact?: boolean }) {
  const channels = entry.channels ?? [];
  if (channels.length === 0) return null;
  if (compact)
    return (
      <span className="crafter-channel-chips" data-testid="calendar-channel-chips">
        {channels.map((channel) => (
          <span
            key={channel.channelId}
            className={`crafter-channel-chip crafter-channel-chip-${channel.state}`}
            title={channelLabel(channel)}
            aria-label={channelLabel(channel)}
            role="img"
            data-testid="calendar-channel-chip"
            data-channel={channel.channelId}
            data-state={channel.state}
          >
            {KIND_ICON[channel.kind]}
            {STATE_ICON[channel.state]}
          </span>
        ))}
      </span>
    );
  return (
    <Flex vertical gap={8} data-testid="social-channel-states">
      {channels.map((channel) => (
        <ChannelRow key={channel.channelId} postId={entry.socialPostId ?? entry.id} channel={channel} />
      ))}
    </Flex>
  );
}

function ChannelRow({ postId, channel }: { postId: string; channel: CalendarChannelState }) {
  const writes = useCalendarWrites();
  const retry = useAction(() => writes.retry(postId, channel.channelId), {
    error: `Could not retry ${channel.name}`,
    success: `Trying ${channel.name} again`,
  });
  const style = CHANNEL_STATE_STYLE[channel.state];
  return (
    <Flex
      vertical
      gap={4}
      className={`crafter-channel-row crafter-channel-row-${channel.state}`}
      data-testid="social-channel-state"
      data-channel={channel.channelId}
      data-state={channel.state}
    >
      <Flex gap={8} align="center" wrap>
        <Tag icon={KIND_ICON[channel.kind]} style={{ marginInlineEnd: 0 }}>
          {channel.name}
          <Typography.Text type="secondary" style={{ marginInlineStart: 6, fontSize: 12 }}>
            {CHANNEL_KIND_LABELS[channel.kind]}
          </Typography.Text>
        </Tag>
        <Tag color={style.color} icon={STATE_ICON[channel.state]} style={{ marginInlineEnd: 0 }}>
          {style.label}
        </Tag>
        {channel.state === "published" && channel.permalink ? (
          <Typography.Link
            href={channel.permalink}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="social-channel-link"
          >
            View post <ExportOutlined />
          </Typography.Link>
        ) : null}
        {channel.state === "failed" ? (
          <Button
            size="small"
            icon={<ReloadOutlined />}
            loading={retry.pending}
            onClick={() => void retry.run()}
            data-testid="social-channel-retry"
          >
            Retry
          </Button>
        ) : null}
      </Flex>
      {channel.state === "failed" && channel.reason ? (
        <Typography.Text type="danger" data-testid="social-channel-reason" style={{ overflowWrap: "anywhere" }}>
          {channel.reason}
        </Typography.Text>
      ) : null}
    </Flex>
  );
}
