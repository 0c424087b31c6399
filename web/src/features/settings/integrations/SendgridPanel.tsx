import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Flex, Form, Input, List, Popconfirm, Tag, Typography } from "antd";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import useSWR from "swr";
import { z } from "zod";
import { api, fetcher } from "../../../api/api";
import { isApiError } from "../../../api/errors";
import { FormField } from "../../../shared/FormField";
import { notify } from "../../../shared/notify";
import { ErrorState, LoadingBlock } from "../../../shared/states";
import { type Integration, integrationPaths, type VerifiedSenders } from "../../integrations/integrations-api";

const keySchema = z.object({
  apiKey: z
    .string()
    .trim()
    .min(1, "Paste your SendGrid API key")
    .max(200, "An API key has at most 200 characters")
    .regex(/^\S+$/, "An API key has no spaces"),
});
type KeyValues = z.infer<typeof keySchema>;

/**
 * Settings › Integrations › SendGrid: the business's own SendGrid account. The owner pastes an API
 * key (masked); Crafter checks it (it must may send mail), keeps it encrypted, sets up SendGrid's
 * signed event webhook, and from then on sends this business's campaigns and automations with it.
 * Shows the check's result, the account's sender identities, the webhook's state, and a key that
 * SendGrid refused (sending waits until a working key is connected); Disconnect after a confirmation.
 */
export function SendgridPanel({
  integration,
  canManage,
  onChanged,
}: {
  integration: Integration;
  canManage: boolean;
  onChanged: () => void;
}) {
  const { connection } = integration;
  const [replacing, setReplacing] = useState(false);
  const [disconnecting, setDisconnecting] = useState(false);
  const showForm = canManage && integration.configured && (connection?.state !== "connected" || replacing);

  const onDisconnect = async () => {
    setDisconnecting(true);
    try {
      await api.del(integrationPaths.disconnect("sendgrid"));
      notify.success(
        "SendGrid is disconnected",
        "Crafter forgot the key; campaigns go out through Crafter's own sending again.",
      );
      onChanged();
    } catch (failure) {
      notify.error(failure, "Could not disconnect SendGrid");
    } finally {
      setDisconnecting(false);
    }
  };

  return (
    <Flex vertical gap={12} style={{ paddingInlineStart: 30 }} data-testid="sendgrid-panel">
      {/* "Not configured on this server" is the row's state, beside its title. */}
      {integration.configured && !canManage && !connection ? (
        <Typography.Text type="secondary">The owner or a project admin connects it</Typography.Text>
      ) : null}
      {connection?.state === "needs_reconnecting" ? (
        <Alert
          type="warning"
          showIcon
          data-testid="sendgrid-needs-attention"
          title="SendGrid refused this business's key: sending is paused"
          description="Campaigns and automation emails wait, nothing is dropped; they go out as soon as you connect a working key below."
        />
      ) : null}
      {showForm ? (
        <KeyForm
          reconnecting={Boolean(connection)}
          onCancel={connection?.state === "connected" ? () => setReplacing(false) : undefined}
          onConnected={() => {
            setReplacing(false);
            onChanged();
          }}
        />
      ) : null}
      {connection ? <ConnectionDetails integration={integration} /> : null}
      {connection && canManage ? (
        <Flex gap={8} wrap>
          {connection.state === "connected" && !replacing ? (
            <Button onClick={() => setReplacing(true)} data-testid="sendgrid-replace">
              Replace key
            </Button>
          ) : null}
          <Popconfirm
            title="Disconnect SendGrid?"
            description="Crafter forgets the key and removes its event webhook from your SendGrid account. Campaigns then go out through Crafter's own sending."
            okText="Disconnect"
            okButtonProps={{ danger: true }}
            onConfirm={() => onDisconnect()}
          >
            <Button danger loading={disconnecting} data-testid="integration-disconnect-sendgrid">
              Disconnect
            </Button>
          </Popconfirm>
        </Flex>
      ) : null}
    </Flex>
  );
}

function KeyForm({
  reconnecting,
  onCancel,
  onConnected,
}: {
  reconnecting: boolean;
  onCancel?: () => void;
  onConnected: () => void;
}) {
  const {
    control,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<KeyValues>({ resolver: zodResolver(keySchema), defaultValues: { apiKey: "" } });

  const submit = handleSubmit(async (values) => {
    try {
      const integration = await api.post<Integration>(integrationPaths.apiKey("sendgrid"), { apiKey: values.apiKey });
      const webhook = integration.connection?.webhook;
      reset();
      notify.success(
        "SendGrid is connected",
        webhook?.state === "active"
          ? "The key may send mail, and bounces, complaints, opens and clicks come back signed."
          : "The key may send mail; its event webhook could not be set up (see below).",
      );
      onConnected();
    } catch (failure) {
      if (isApiError(failure) && failure.fields.apiKey) setError("apiKey", { message: failure.fields.apiKey });
      else notify.error(failure, "Could not connect SendGrid");
    }
  });

  return (
    <Form layout="vertical" onFinish={() => void submit()} style={{ maxWidth: 560 }} data-testid="sendgrid-key-form">
      <FormField
        id="sendgrid-api-key"
        label={reconnecting ? "A working API key" : "API key"}
        error={errors.apiKey}
        required
        extra="Create one in SendGrid › Settings › API Keys, with at least Mail Send (Full Access also lets Crafter set up the event webhook)."
      >
        <Controller
          name="apiKey"
          control={control}
          render={({ field }) => (
            <Input.Password
              {...field}
              id="sendgrid-api-key"
              placeholder="SG.…"
              autoComplete="off"
              spellCheck={false}
              aria-invalid={Boolean(errors.apiKey)}
              aria-describedby={errors.apiKey ? "sendgrid-api-key-error" : undefined}
              data-testid="sendgrid-api-key"
            />
          )}
        />
      </FormField>
      <Flex gap={8} wrap>
        <Button type="primary" htmlType="submit" loading={isSubmitting} data-testid="sendgrid-connect">
          Check and connect
        </Button>
        {onCancel ? <Button onClick={onCancel}>Cancel</Button> : null}
      </Flex>
    </Form>
  );
}

function ConnectionDetails({ integration }: { integration: Integration }) {
  const connection = integration.connection!;
  const webhook = connection.webhook;
  return (
    <Flex vertical gap={8} data-testid="sendgrid-details">
      {webhook ? (
        webhook.state === "active" ? (
          <Flex gap={4} wrap align="center" data-testid="sendgrid-webhook" data-state="active">
            <Tag color="green">Event webhook signed</Tag>
            <Typography.Text type="secondary">Bounces, complaints, opens and clicks come back to</Typography.Text>
            <Typography.Text code copyable style={{ wordBreak: "break-all" }}>
              {webhook.url}
            </Typography.Text>
          </Flex>
        ) : (
          <Alert
            type="warning"
            showIcon
            data-testid="sendgrid-webhook"
            data-state="failed"
            title="The event webhook is not set up: bounces, complaints, opens and clicks do not come back"
            description={webhook.error}
          />
        )
      ) : null}
      {connection.state === "connected" ? <SenderList /> : null}
    </Flex>
  );
}

/** The SendGrid account's sender identities, a page at a time. */
function SenderList() {
  const [pages, setPages] = useState<string[]>([""]);
  return (
    <Flex vertical gap={4} data-testid="sendgrid-senders">
      <Typography.Text strong>Sender identities in SendGrid</Typography.Text>
      {pages.map((after, index) => (
        <SenderPage
          key={after || "first"}
          after={after}
          last={index === pages.length - 1}
          onMore={(next) => setPages((list) => [...list, next])}
        />
      ))}
    </Flex>
  );
}

function SenderPage({ after, last, onMore }: { after: string; last: boolean; onMore: (next: string) => void }) {
  const { data, error, mutate } = useSWR<VerifiedSenders>(integrationPaths.senders("sendgrid", after), fetcher);
  if (error) return <ErrorState error={error} onRetry={() => void mutate()} />;
  if (!data) return <LoadingBlock rows={2} />;
  if (data.senders.length === 0 && !after)
    return (
      <Typography.Text type="secondary" data-testid="sendgrid-senders-empty">
        No sender identity yet: verify one in SendGrid › Settings › Sender Authentication, or campaigns are refused by
        SendGrid.
      </Typography.Text>
    );
  return (
    <>
      <List
        size="small"
        dataSource={data.senders}
        renderItem={(sender) => (
          <List.Item style={{ paddingInline: 0 }}>
            <Flex gap={8} wrap align="center" style={{ minWidth: 0 }}>
              <Typography.Text style={{ wordBreak: "break-all" }}>
                {sender.name ? `${sender.name} <${sender.email}>` : sender.email}
              </Typography.Text>
              {sender.verified ? <Tag color="green">Verified</Tag> : <Tag color="orange">Waiting for verification</Tag>}
            </Flex>
          </List.Item>
        )}
      />
      {last && data.next ? (
        <Button size="small" onClick={() => onMore(data.next)} style={{ alignSelf: "flex-start" }}>
          More senders
        </Button>
      ) : null}
    </>
  );
}
