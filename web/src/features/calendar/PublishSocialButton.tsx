import { SendOutlined } from "@ant-design/icons";
import { formatIn, nextTimeOfDay } from "@crafter/time";
import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Checkbox, Flex, Form, Input, Modal, Radio, Typography } from "antd";
import { useMemo, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { Link } from "react-router-dom";
import useSWR, { useSWRConfig } from "swr";
import { z } from "zod";
import { fetcher } from "../../api/api";
import { isCalendarKey } from "../../api/calendar";
import { errorMessage, isApiError } from "../../api/errors";
import { useFeature } from "../../api/hooks/app";
import {
  CHANNEL_KIND_LABELS,
  type SocialChannel,
  type SocialProvider,
  socialApi,
  socialKeys,
  type TikTokCreatorRead,
} from "../../api/social";
import { notify } from "../../shared/notify";
import { LoadingBlock } from "../../shared/states";
import { useBusinessTimeZone } from "../../shared/time-zone";
import { TikTokPostOptions } from "../social/tiktok/TikTokPostOptions";
import {
  choiceProblem,
  EMPTY_CHOICE,
  privacyLabel,
  type TikTokChoice,
  toPostOptions,
} from "../social/tiktok/tiktok-options";
import { isoToLocalInput, localInputToIso } from "./calendar-logic";

const schemaIn = (zone: string) =>
  z
    .object({
      channelIds: z.array(z.string()).min(1, "Choose at least one channel"),
      when: z.enum(["now", "later"]),
      at: z.string(),
    })
    .superRefine((value, ctx) => {
      if (value.when !== "later") return;
      const iso = localInputToIso(value.at, zone);
      if (!iso) ctx.addIssue({ code: "custom", path: ["at"], message: "Choose a date and time" });
      else if (new Date(iso).getTime() < Date.now() - 60_000)
        ctx.addIssue({ code: "custom", path: ["at"], message: "Choose a time that has not passed" });
    });
type Values = z.infer<ReturnType<typeof schemaIn>>;

/**
 * "Publish" on a social post craft's page: to the project's chosen Facebook Pages, Instagram
 * accounts (and TikTok), now or at a time on the business's wall clock. The post goes on the
 * content calendar, where its state shows per channel. A summary is confirmed before anything is
 * published (a published post cannot be taken back from here).
 */
export function PublishSocialButton({ craftId, workflowName }: { craftId: string; workflowName: string }) {
  const enabled = useFeature("direct_publish_social_media");
  const isSocial = workflowName.toLowerCase().replace(/[^a-z]/g, "") === "socialmediapostwriter";
  const [open, setOpen] = useState(false);
  if (!enabled || !isSocial || !craftId) return null;
  return (
    <>
      <Button icon={<SendOutlined />} onClick={() => setOpen(true)} data-testid="publish-social">
        Publish
      </Button>
      {open ? <PublishModal craftId={craftId} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function PublishModal({ craftId, onClose }: { craftId: string; onClose: () => void }) {
  const { data, isLoading } = useSWR<{ channels: SocialChannel[]; providers: SocialProvider[] }>(
    socialKeys.channels(),
    fetcher,
  );
  const { mutate } = useSWRConfig();
  const { zone } = useBusinessTimeZone();
  const schema = useMemo(() => schemaIn(zone), [zone]);
  const [confirming, setConfirming] = useState<Values | null>(null);
  const nine = nextTimeOfDay(new Date(Date.now() + 12 * 3_600_000), "09:00", zone);
  const chosen = (data?.channels ?? []).filter((c) => c.chosen).map((c) => c.id);
  const { control, handleSubmit, formState, watch } = useForm<Values>({
    resolver: zodResolver(schema),
    values: { channelIds: chosen, when: "now", at: isoToLocalInput(nine, zone) },
    resetOptions: { keepDirtyValues: true },
  });
  const when = watch("when");
  const channels = data?.channels ?? [];
  const picked = watch("channelIds") ?? [];
  const toTikTok = channels.some((c) => c.kind === "tiktok" && picked.includes(c.id));
  // Read afresh each time the dialog offers TikTok: the creator may have changed its settings.
  const creatorRead = useSWR<TikTokCreatorRead>(toTikTok ? socialKeys.tiktokCreator() : null, fetcher, {
    revalidateOnFocus: false,
  });
  const creator = creatorRead.data?.creator;
  const [tiktok, setTiktok] = useState<TikTokChoice>(EMPTY_CHOICE);
  const [tiktokProblem, setTiktokProblem] = useState<string | null>(null);
  const names = (ids: string[]) => channels.filter((c) => ids.includes(c.id)).map((c) => c.name);
  const atOf = (values: Values) => (values.when === "now" ? new Date() : new Date(localInputToIso(values.at, zone)!));

  const publish = async (values: Values) => {
    try {
      const post = await socialApi.publish(
        craftId,
        values.channelIds,
        atOf(values).toISOString(),
        toTikTok && creator ? toPostOptions(tiktok, creator) : undefined,
      );
      await mutate(isCalendarKey);
      notify.success(
        values.when === "now" ? "Publishing" : "Scheduled",
        values.when === "now"
          ? "Its state on each channel shows on the content calendar."
          : `On ${formatIn(new Date(post.publishAt), zone)}: see it on the content calendar.`,
      );
      onClose();
    } catch (error) {
      setConfirming(null);
      const field = isApiError(error)
        ? Object.entries(error.fields).find(([name]) => name.startsWith("tiktok"))?.[1]
        : undefined;
      if (field) {
        setTiktokProblem(field);
        // The creator's settings changed since they were read: read them again.
        void creatorRead.mutate();
      } else notify.error(error, "Could not publish it");
    }
  };
  const review = (values: Values) => {
    const problem = toTikTok ? choiceProblem(tiktok, creator) : null;
    setTiktokProblem(problem);
    if (!problem) setConfirming(values);
  };

  const connected = (data?.providers ?? []).some((p) => p.state === "connected");
  return (
    <Modal
      open
      title={confirming ? "Publish this post?" : "Publish to social media"}
      okText={confirming ? (confirming.when === "now" ? "Publish now" : "Schedule") : "Review"}
      okButtonProps={{ disabled: channels.length === 0, ...{ "data-testid": "publish-social-ok" } }}
      onOk={() => (confirming ? void publish(confirming) : void handleSubmit(review)())}
      confirmLoading={formState.isSubmitting}
      onCancel={() => (confirming ? setConfirming(null) : onClose())}
      cancelText={confirming ? "Back" : "Cancel"}
      destroyOnHidden
    >
      {isLoading ? (
        <LoadingBlock />
      ) : channels.length === 0 ? (
        <Alert
          type="info"
          showIcon
          data-testid="publish-social-none"
          message={connected ? "No channel to publish to" : "Connect Meta or TikTok first"}
          description={
            <span>
              Connect an account and choose its Pages or profiles in{" "}
              <Link to="/app/settings/integrations">Settings › Integrations</Link>.
            </span>
          }
        />
      ) : confirming ? (
        <Flex vertical gap={8} data-testid="publish-social-summary">
          <Typography.Text>
            {confirming.when === "now" ? "Now" : `On ${formatIn(atOf(confirming), zone)}`}, to{" "}
            <strong>{names(confirming.channelIds).join(", ")}</strong>.
          </Typography.Text>
          {toTikTok && creator ? (
            <Typography.Text data-testid="publish-social-tiktok-summary">
              On TikTok: {privacyLabel(tiktok.privacyLevel)}
              {", "}
              {tiktok.allowComment && !creator.commentDisabled ? "comments allowed" : "comments off"}.
            </Typography.Text>
          ) : null}
          <Typography.Text type="secondary">
            Once a channel has published it, the post stays there: remove it at the channel if you change your mind.
          </Typography.Text>
        </Flex>
      ) : (
        <form onSubmit={(event) => event.preventDefault()} data-testid="publish-social-form">
          <Form.Item
            label="Channels"
            layout="vertical"
            validateStatus={formState.errors.channelIds ? "error" : undefined}
            help={formState.errors.channelIds?.message}
          >
            <Controller
              name="channelIds"
              control={control}
              render={({ field }) => (
                <Checkbox.Group value={field.value} onChange={(values) => field.onChange(values)}>
                  <Flex vertical gap={6}>
                    {channels.map((channel) => (
                      <Checkbox key={channel.id} value={channel.id} data-testid={`publish-channel-${channel.id}`}>
                        {channel.name}{" "}
                        <Typography.Text type="secondary">{CHANNEL_KIND_LABELS[channel.kind]}</Typography.Text>
                      </Checkbox>
                    ))}
                  </Flex>
                </Checkbox.Group>
              )}
            />
          </Form.Item>
          <Form.Item label="When" layout="vertical">
            <Controller
              name="when"
              control={control}
              render={({ field }) => (
                <Radio.Group {...field} data-testid="publish-when">
                  <Radio value="now">Now</Radio>
                  <Radio value="later">At a time</Radio>
                </Radio.Group>
              )}
            />
          </Form.Item>
          {toTikTok ? (
            <TikTokPostOptions
              creator={creator}
              loading={creatorRead.isLoading}
              error={
                creatorRead.error ? errorMessage(creatorRead.error) : creator ? undefined : creatorRead.data?.message
              }
              value={tiktok}
              onChange={(next) => {
                setTiktok(next);
                setTiktokProblem(null);
              }}
              isVideo={false}
              problem={tiktokProblem}
            />
          ) : null}
          {when === "later" ? (
            <Form.Item
              label="Date and time"
              layout="vertical"
              extra={`Business time: ${zone.replace(/_/g, " ")}`}
              validateStatus={formState.errors.at ? "error" : undefined}
              help={formState.errors.at?.message}
            >
              <Controller
                name="at"
                control={control}
                render={({ field }) => (
                  <Input {...field} type="datetime-local" aria-label="Date and time" data-testid="publish-at" />
                )}
              />
            </Form.Item>
          ) : null}
        </form>
      )}
    </Modal>
  );
}
