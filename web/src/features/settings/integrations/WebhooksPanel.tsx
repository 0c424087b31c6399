import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@crafter/validation";
import { zodResolver } from "@hookform/resolvers/zod";
import {
  Alert,
  Button,
  Checkbox,
  Flex,
  Form,
  Input,
  List,
  Modal,
  Pagination,
  Popconfirm,
  Switch,
  Tag,
  Typography,
} from "antd";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import useSWR from "swr";
import { z } from "zod";
import { fetcher } from "../../../api/api";
import { isApiError } from "../../../api/errors";
import { FormField } from "../../../shared/FormField";
import { formatDateTime } from "../../../shared/format";
import { EmptyState, ErrorState, LoadingBlock } from "../../../shared/states";
import { useAction } from "../../../shared/use-action";
import { applyFieldErrors } from "../../auth/AuthCard";
import { type WebhookDelivery, type WebhookEndpoint, webhookKeys, webhooksApi } from "./webhooks-api";

const endpointSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, "Enter the URL that receives the events")
    .max(2000, "A URL has at most 2000 characters")
    .refine((text) => /^https?:\/\//i.test(text), "Enter an http:// or https:// URL"),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES as [WebhookEventType, ...WebhookEventType[]]))
    .min(1, "Choose at least one event"),
});
type EndpointValues = z.infer<typeof endpointSchema>;

const STATUS_COLOR: Record<WebhookDelivery["status"], string> = {
  pending: "blue",
  succeeded: "green",
  failed: "red",
};

/**
 * Settings › Integrations › Webhooks and Zapier: the project's endpoints (Zapier's subscriptions
 * among them), each with its events, on/off, a test event, its delivery log with Resend, and
 * delete; a new endpoint's signing secret is shown once.
 */
export function WebhooksPanel({ canManage }: { canManage: boolean }) {
  const { data, error, mutate } = useSWR<WebhookEndpoint[]>(webhookKeys.endpoints(), fetcher);
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [logOf, setLogOf] = useState<WebhookEndpoint | null>(null);

  return (
    <Flex vertical gap={12} style={{ paddingInlineStart: 30 }} data-testid="webhooks-panel">
      <Typography.Text type="secondary">
        Crafter POSTs your project's events to these URLs, signed by the{" "}
        <Typography.Link href="https://www.standardwebhooks.com/" target="_blank" rel="noreferrer">
          Standard Webhooks
        </Typography.Link>{" "}
        specification, and retries a failed delivery for a day. Zapier's triggers appear here once a Zap is on.
      </Typography.Text>
      {secret ? (
        <Alert
          type="success"
          showIcon
          closable
          onClose={() => setSecret(null)}
          data-testid="webhook-secret"
          message={`Signing secret for ${secret.url}`}
          description={
            <Flex vertical gap={4}>
              <Typography.Text>
                Copy it now: it is not shown again. Verify each delivery's signature with it.
              </Typography.Text>
              <Typography.Text code copyable style={{ wordBreak: "break-all" }} data-testid="webhook-secret-value">
                {secret.secret}
              </Typography.Text>
            </Flex>
          }
        />
      ) : null}
      {data ? (
        data.length === 0 ? (
          <EmptyState description="No webhook endpoint yet." testId="webhooks-empty" />
        ) : (
          <List
            size="small"
            bordered
            dataSource={data}
            renderItem={(endpoint) => (
              <EndpointRow
                key={endpoint.endpointId}
                endpoint={endpoint}
                canManage={canManage}
                onLog={() => setLogOf(endpoint)}
              />
            )}
          />
        )
      ) : error ? (
        <ErrorState error={error} onRetry={() => void mutate()} />
      ) : (
        <LoadingBlock rows={2} testId="webhooks-loading" />
      )}
      {canManage ? (
        <div>
          <Button onClick={() => setAdding(true)} data-testid="webhook-add">
            Add endpoint
          </Button>
        </div>
      ) : null}
      {adding ? (
        <AddEndpointModal
          onClose={() => setAdding(false)}
          onCreated={(url, created) => {
            setAdding(false);
            setSecret({ url, secret: created });
          }}
        />
      ) : null}
      {logOf ? <DeliveryLog endpoint={logOf} canManage={canManage} onClose={() => setLogOf(null)} /> : null}
    </Flex>
  );
}

function EndpointRow({
  endpoint,
  canManage,
  onLog,
}: {
  endpoint: WebhookEndpoint;
  canManage: boolean;
  onLog: () => void;
}) {
  const endpoints = webhookKeys.endpoints();
  const toggle = useAction((enabled: boolean) => webhooksApi.setEnabled(endpoint.endpointId, enabled), {
    error: "Could not change the endpoint",
    revalidate: [endpoints],
    success: (result) => (result.enabled ? "Endpoint turned on" : "Endpoint turned off"),
  });
  const remove = useAction(() => webhooksApi.remove(endpoint.endpointId), {
    error: "Could not delete the endpoint",
    revalidate: [endpoints],
    success: "Endpoint deleted",
  });
  const test = useAction(() => webhooksApi.test(endpoint.endpointId), {
    error: "Could not send a test event",
    revalidate: [webhookKeys.anyDeliveries(endpoint.endpointId)],
    success: "Test event sent: see the delivery log",
  });
  return (
    <List.Item data-testid="webhook-endpoint" data-enabled={endpoint.enabled}>
      <Flex vertical gap={6} style={{ width: "100%", minWidth: 0 }}>
        <Flex gap={8} wrap align="center">
          <Typography.Text strong style={{ wordBreak: "break-all" }} data-testid="webhook-endpoint-url">
            {endpoint.url}
          </Typography.Text>
          {endpoint.source === "zapier" ? <Tag color="orange">Zapier</Tag> : null}
          {endpoint.enabled ? (
            <Tag color="green">On</Tag>
          ) : endpoint.disabledReason === "failing" ? (
            <Tag color="red" data-testid="webhook-endpoint-failing">
              Turned off: kept failing
            </Tag>
          ) : (
            <Tag>Off</Tag>
          )}
        </Flex>
        <Flex gap={4} wrap aria-label="Events">
          {endpoint.events.map((event) => (
            <Tag key={event} bordered={false}>
              {event}
            </Tag>
          ))}
        </Flex>
        <Typography.Text type="secondary">
          Secret {endpoint.secretHint} · added {formatDateTime(endpoint.createdAt)}
          {endpoint.disabledAt ? ` · off since ${formatDateTime(endpoint.disabledAt)}` : ""}
        </Typography.Text>
        <Flex gap={8} wrap align="center">
          <Button size="small" onClick={onLog} data-testid="webhook-log">
            Delivery log
          </Button>
          {canManage ? (
            <>
              <Button
                size="small"
                disabled={!endpoint.enabled}
                loading={test.pending}
                onClick={() => void test.run()}
                data-testid="webhook-test"
              >
                Send test event
              </Button>
              <Flex gap={6} align="center">
                <Switch
                  size="small"
                  checked={endpoint.enabled}
                  loading={toggle.pending}
                  onChange={(on) => void toggle.run(on)}
                  aria-label={endpoint.enabled ? "Turn the endpoint off" : "Turn the endpoint on"}
                  data-testid="webhook-toggle"
                />
                <Typography.Text type="secondary">{endpoint.enabled ? "On" : "Off"}</Typography.Text>
              </Flex>
              <Popconfirm
                title="Delete this endpoint?"
                description={
                  endpoint.source === "zapier"
                    ? "The Zap that made it stops receiving events until it is turned on again in Zapier."
                    : "Nothing more is sent to it, retries included. Its secret cannot be recovered."
                }
                okText="Delete"
                okButtonProps={{ danger: true, "data-testid": "webhook-delete-confirm" } as never}
                onConfirm={() => remove.run()}
              >
                <Button size="small" danger loading={remove.pending} data-testid="webhook-delete">
                  Delete
                </Button>
              </Popconfirm>
            </>
          ) : null}
        </Flex>
      </Flex>
    </List.Item>
  );
}

function AddEndpointModal({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (url: string, secret: string) => void;
}) {
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<EndpointValues>({
    resolver: zodResolver(endpointSchema),
    defaultValues: { url: "", events: ["lead.captured"] },
  });
  const create = useAction((values: EndpointValues) => webhooksApi.create(values.url, values.events), {
    error: "Could not add the endpoint",
    revalidate: [webhookKeys.endpoints()],
    onError: (failure) => isApiError(failure) && applyFieldErrors(failure.fields, setError, ["url", "events"] as const),
  });
  const onSubmit = handleSubmit(async (values) => {
    const created = await create.run(values);
    if (created) onCreated(created.endpoint.url, created.secret);
  });
  return (
    <Modal
      open
      title="Add a webhook endpoint"
      onCancel={onClose}
      okText="Add endpoint"
      okButtonProps={
        {
          loading: isSubmitting,
          htmlType: "submit",
          form: "webhook-add-form",
          "data-testid": "webhook-add-submit",
        } as never
      }
      destroyOnHidden
    >
      <Form layout="vertical" component={false}>
        <form id="webhook-add-form" onSubmit={onSubmit} noValidate aria-label="Add a webhook endpoint">
          <FormField id="webhook-url" label="URL" error={errors.url} required>
            <Controller
              name="url"
              control={control}
              render={({ field }) => (
                <Input
                  {...field}
                  id="webhook-url"
                  type="url"
                  inputMode="url"
                  autoComplete="off"
                  placeholder="https://hooks.example.com/crafter"
                  data-testid="webhook-url"
                />
              )}
            />
          </FormField>
          <FormField id="webhook-events" label="Events" error={errors.events as { message?: string }} required>
            <Controller
              name="events"
              control={control}
              render={({ field }) => (
                <Checkbox.Group
                  value={field.value}
                  onChange={(values) => field.onChange(values as WebhookEventType[])}
                  data-testid="webhook-events"
                  style={{ width: "100%" }}
                >
                  <Flex vertical gap={6} id="webhook-events">
                    {WEBHOOK_EVENT_TYPES.map((event: WebhookEventType) => (
                      <Checkbox key={event} value={event}>
                        <Typography.Text code>{event}</Typography.Text>{" "}
                        <Typography.Text type="secondary">{WEBHOOK_EVENT_LABELS[event]}</Typography.Text>
                      </Checkbox>
                    ))}
                  </Flex>
                </Checkbox.Group>
              )}
            />
          </FormField>
        </form>
      </Form>
    </Modal>
  );
}

function DeliveryLog({
  endpoint,
  canManage,
  onClose,
}: {
  endpoint: WebhookEndpoint;
  canManage: boolean;
  onClose: () => void;
}) {
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const { data, error, mutate, isLoading } = useSWR<{
    result: WebhookDelivery[];
    meta: { count: number; currentPage: number; totalPages: number };
  }>(webhookKeys.deliveries(endpoint.endpointId, page), fetcher, { keepPreviousData: true });
  const resend = useAction((deliveryId: string) => webhooksApi.resend(endpoint.endpointId, deliveryId), {
    error: "Could not resend the delivery",
    revalidate: [webhookKeys.anyDeliveries(endpoint.endpointId)],
    success: "Sent again",
  });
  return (
    <Modal
      open
      title="Delivery log"
      onCancel={onClose}
      footer={
        <Flex justify="space-between" gap={8} wrap>
          <Button onClick={() => void mutate()} loading={isLoading} data-testid="webhook-log-refresh">
            Refresh
          </Button>
          <Button type="primary" onClick={onClose} data-testid="webhook-log-close">
            Close
          </Button>
        </Flex>
      }
      width={760}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary" style={{ wordBreak: "break-all" }}>
        {endpoint.url}
      </Typography.Paragraph>
      {data ? (
        data.result.length === 0 ? (
          <EmptyState description="Nothing was sent to this endpoint yet." testId="webhook-log-empty" />
        ) : (
          <>
            <List
              size="small"
              dataSource={data.result}
              data-testid="webhook-log-list"
              renderItem={(delivery) => (
                <List.Item key={delivery.deliveryId} data-testid="webhook-delivery" data-status={delivery.status}>
                  <Flex vertical gap={4} style={{ width: "100%", minWidth: 0 }}>
                    <Flex gap={8} wrap align="center" justify="space-between">
                      <Flex gap={8} wrap align="center">
                        <Tag color={STATUS_COLOR[delivery.status]}>{delivery.status}</Tag>
                        <Typography.Text code>{delivery.eventType}</Typography.Text>
                      </Flex>
                      {canManage ? (
                        <Button
                          size="small"
                          disabled={!endpoint.enabled}
                          loading={resend.pending}
                          onClick={() => void resend.run(delivery.deliveryId)}
                          data-testid="webhook-resend"
                        >
                          Resend
                        </Button>
                      ) : null}
                    </Flex>
                    <Typography.Text type="secondary">
                      {formatDateTime(delivery.lastAttemptAt || delivery.createdAt)} ·{" "}
                      {delivery.responseCode ? `HTTP ${delivery.responseCode}` : "no answer"} ·{" "}
                      {delivery.attempts === 1 ? "1 attempt" : `${delivery.attempts} attempts`}
                    </Typography.Text>
                    {delivery.error ? <Typography.Text type="danger">{delivery.error}</Typography.Text> : null}
                    <Typography.Link
                      onClick={() => setOpen(open === delivery.deliveryId ? null : delivery.deliveryId)}
                      aria-expanded={open === delivery.deliveryId}
                    >
                      {open === delivery.deliveryId ? "Hide the payload" : "Show the payload"} ({delivery.messageId})
                    </Typography.Link>
                    {open === delivery.deliveryId ? (
                      <pre
                        style={{ margin: 0, whiteSpace: "pre-wrap", wordBreak: "break-all", fontSize: 12 }}
                        data-testid="webhook-payload"
                      >
                        {prettyJson(delivery.payload)}
                      </pre>
                    ) : null}
                  </Flex>
                </List.Item>
              )}
            />
            {data.meta.totalPages > 1 ? (
              <Flex justify="center" style={{ marginTop: 12 }}>
                <Pagination
                  size="small"
                  current={page}
                  total={data.meta.count}
                  pageSize={10}
                  showSizeChanger={false}
                  onChange={setPage}
                />
              </Flex>
            ) : null}
          </>
        )
      ) : error ? (
        <ErrorState error={error} onRetry={() => void mutate()} />
      ) : (
        <LoadingBlock rows={3} testId="webhook-log-loading" />
      )}
    </Modal>
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
