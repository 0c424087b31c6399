import { Alert, Avatar, Checkbox, Form, Select, Skeleton, Space, Typography } from "antd";
import { MUSIC_USAGE_URL, privacyLabel, type TikTokChoice, type TikTokCreator } from "./tiktok-options";

/**
 * TikTok's part of publishing a post: which creator it goes to, who can see it (required, no
 * default), and which interactions to allow (a video has Duet and Stitch; a photo post only
 * comments). Interactions the creator turned off in TikTok are shown off and locked.
 */
export function TikTokPostOptions({
  creator,
  loading,
  error,
  value,
  onChange,
  isVideo,
  problem,
}: {
  creator: TikTokCreator | undefined;
  loading: boolean;
  /** Why the options could not be read (TikTok refused, not connected…). */
  error?: string;
  value: TikTokChoice;
  onChange: (value: TikTokChoice) => void;
  isVideo: boolean;
  /** The choice's problem once the user tried to publish. */
  problem?: string | null;
}) {
  if (loading) return <Skeleton active paragraph={{ rows: 2 }} data-testid="tiktok-options-loading" />;
  if (error || !creator)
    return (
      <Alert
        type="warning"
        showIcon
        message="TikTok's posting options could not be read"
        description={error ?? "Reconnect TikTok in Settings › Integrations."}
        data-testid="tiktok-options-error"
      />
    );
  const set = (patch: Partial<TikTokChoice>) => onChange({ ...value, ...patch });
  const locked = (off: boolean) => (off ? " (turned off in TikTok)" : "");
  return (
    <div data-testid="tiktok-options">
      <Space align="center" style={{ marginBottom: 12 }} wrap>
        {creator.avatarUrl.startsWith("https://") ? <Avatar src={creator.avatarUrl} alt="" /> : null}
        <Typography.Text>
          Posting to TikTok as <strong>{creator.nickname || creator.username}</strong>
          {creator.username ? <Typography.Text type="secondary"> @{creator.username}</Typography.Text> : null}
        </Typography.Text>
      </Space>
      <Form.Item
        label="Who can see this post"
        required
        layout="vertical"
        validateStatus={problem ? "error" : undefined}
        help={problem ?? undefined}
      >
        <Select
          aria-label="Who can see this post on TikTok"
          placeholder="Choose who can see it"
          value={value.privacyLevel || undefined}
          onChange={(privacyLevel: string) => set({ privacyLevel })}
          options={creator.privacyLevelOptions.map((level) => ({ value: level, label: privacyLabel(level) }))}
          style={{ width: "100%", maxWidth: 360 }}
          data-testid="tiktok-privacy"
        />
      </Form.Item>
      <Form.Item label="Allow" layout="vertical">
        <Space wrap size={[16, 4]}>
          <Checkbox
            checked={!creator.commentDisabled && value.allowComment}
            disabled={creator.commentDisabled}
            onChange={(event) => set({ allowComment: event.target.checked })}
            data-testid="tiktok-allow-comment"
          >
            Comments{locked(creator.commentDisabled)}
          </Checkbox>
          {isVideo ? (
            <>
              <Checkbox
                checked={!creator.duetDisabled && value.allowDuet}
                disabled={creator.duetDisabled}
                onChange={(event) => set({ allowDuet: event.target.checked })}
                data-testid="tiktok-allow-duet"
              >
                Duet{locked(creator.duetDisabled)}
              </Checkbox>
              <Checkbox
                checked={!creator.stitchDisabled && value.allowStitch}
                disabled={creator.stitchDisabled}
                onChange={(event) => set({ allowStitch: event.target.checked })}
                data-testid="tiktok-allow-stitch"
              >
                Stitch{locked(creator.stitchDisabled)}
              </Checkbox>
            </>
          ) : null}
        </Space>
      </Form.Item>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        By posting, you agree to TikTok's{" "}
        <a href={MUSIC_USAGE_URL} target="_blank" rel="noreferrer">
          Music Usage Confirmation
        </a>
        . TikTok may take a few minutes to process the post before it appears on the profile.
      </Typography.Paragraph>
    </div>
  );
}
