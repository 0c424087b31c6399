import { ApiOutlined } from "@ant-design/icons";
import { canOnProject } from "@crafter/roles";
import { Alert, Button, Card, Flex, List, Popconfirm, Tag, Typography } from "antd";
import { type ComponentType, useState } from "react";
import { useSearchParams } from "react-router-dom";
import useSWR from "swr";
import { api, fetcher } from "../../api/api";
import { useActiveProjectRole } from "../../api/hooks/projects";
import { formatDateTime } from "../../shared/format";
import { notify } from "../../shared/notify";
import { EmptyState, ErrorState, LoadingBlock } from "../../shared/states";
import {
  INTEGRATION_DESCRIPTIONS,
  INTEGRATIONS_PATH,
  type Integration,
  integrationPaths,
  returnErrorMessage,
} from "../integrations/integrations-api";
import { SendgridPanel } from "./integrations/SendgridPanel";
import { ShopifyPanel } from "./integrations/ShopifyPanel";
import { MetaChannelsPanel } from "./integrations/SocialChannelsPanel";
import { WebhooksPanel } from "./integrations/WebhooksPanel";
import { SettingsPageFrame } from "./SettingsPageFrame";

/** A provider's own panel (its file under ./integrations/), shown under its row: one line each. */
const PANELS: Partial<
  Record<
    Integration["provider"],
    ComponentType<{ canManage: boolean; integration: Integration; onChanged: () => void }>
  >
> = {
  zapier: WebhooksPanel,
  sendgrid: SendgridPanel,
  shopify: ShopifyPanel,
};

/** What a connected OAuth integration offers to set up (where posts go), under its connection: one line each. */
const CONNECTED_PANELS: Partial<Record<Integration["provider"], ComponentType<{ canManage: boolean }>>> = {
  meta: MetaChannelsPanel,
};

/**
 * /app/settings/integrations: the active project's integrations whose flag is on. An OAuth
 * integration connects through its provider's consent screen and comes back here with
 * `?connected=<provider>` or `?error=<code>`; a connection shows who it is connected as, its
 * scopes, when it last worked and its last error, and can be disconnected (its grant revoked).
 */
export default function IntegrationsPage() {
  const { data, error, mutate } = useSWR<Integration[]>(integrationPaths.list, fetcher);
  const role = useActiveProjectRole();
  // A manager sees the connections; only the owner or a project admin connects (the server checks too).
  const canManage = role === undefined || role === null || canOnProject(role, "project.settings");
  const [params, setParams] = useSearchParams();
  const connected = params.get("connected");
  const failed = params.get("error");
  const titleOf = (provider: string | null) =>
    data?.find((item) => item.provider === provider)?.title ??
    (provider ? provider.replace(/_/g, " ") : "The provider");
  const dismiss = () => setParams({}, { replace: true });

  return (
    <SettingsPageFrame title="Integrations">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        Connect the services your business uses. Crafter keeps their access encrypted and never shows it.
      </Typography.Paragraph>
      {/* The outcome names the integration by its title, so it waits for the list. */}
      {!data ? null : connected ? (
        <Alert
          type="success"
          showIcon
          closable
          onClose={dismiss}
          data-testid="integration-return"
          message={`${titleOf(connected)} is connected`}
        />
      ) : failed ? (
        <Alert
          type="error"
          showIcon
          closable
          onClose={dismiss}
          data-testid="integration-return"
          message={`${titleOf(params.get("provider"))} was not connected`}
          description={returnErrorMessage(failed, titleOf(params.get("provider")))}
        />
      ) : null}
      <Card>
        {data ? (
          data.length === 0 ? (
            <EmptyState description="No integration is available on your account yet." testId="integrations-empty" />
          ) : (
            <List
              dataSource={data}
              renderItem={(integration) => (
                <IntegrationRow
                  key={integration.provider}
                  integration={integration}
                  canManage={canManage}
                  onChanged={() => void mutate()}
                />
              )}
            />
          )
        ) : error ? (
          <ErrorState error={error} onRetry={() => void mutate()} />
        ) : (
          <LoadingBlock rows={4} testId="integrations-loading" />
        )}
      </Card>
    </SettingsPageFrame>
  );
}

function IntegrationRow({
  integration,
  canManage,
  onChanged,
}: {
  integration: Integration;
  canManage: boolean;
  onChanged: () => void;
}) {
  const [busy, setBusy] = useState<"connect" | "disconnect" | null>(null);
  const { connection } = integration;

  const onConnect = async () => {
    setBusy("connect");
    try {
      const { authorizeUrl } = await api.post<{ authorizeUrl: string }>(
        integrationPaths.connect(integration.provider),
        {
          returnPath: INTEGRATIONS_PATH,
        },
      );
      window.location.assign(authorizeUrl);
    } catch (failure) {
      notify.error(failure, `Could not connect ${integration.title}`);
      setBusy(null);
    }
  };

  const onDisconnect = async () => {
    setBusy("disconnect");
    try {
      const { revoked } = await api.del<{ revoked: boolean }>(integrationPaths.disconnect(integration.provider));
      notify.success(
        `${integration.title} is disconnected`,
        revoked ? `Its access was revoked at ${integration.title}.` : "Crafter forgot its access.",
      );
      onChanged();
    } catch (failure) {
      notify.error(failure, `Could not disconnect ${integration.title}`);
    } finally {
      setBusy(null);
    }
  };

  const Panel = PANELS[integration.provider];
  const ConnectedPanel = connection?.state === "connected" ? CONNECTED_PANELS[integration.provider] : undefined;
  const actions = Panel ? null : integration.kind !== "oauth2" ? (
    <Tag>Coming in the next release</Tag>
  ) : !integration.configured ? (
    <Tag data-testid="integration-not-configured">Not configured on this server</Tag>
  ) : !canManage ? (
    <Typography.Text type="secondary">The owner or a project admin connects it</Typography.Text>
  ) : (
    <Flex gap={8} wrap>
      {!connection || connection.state === "needs_reconnecting" ? (
        <Button
          type="primary"
          loading={busy === "connect"}
          disabled={busy !== null}
          onClick={() => void onConnect()}
          data-testid={`integration-connect-${integration.provider}`}
        >
          {connection ? "Reconnect" : "Connect"}
        </Button>
      ) : null}
      {connection ? (
        <Popconfirm
          title={`Disconnect ${integration.title}?`}
          description={`Crafter revokes its access at ${integration.title} and forgets it. What uses it stops until you connect again.`}
          okText="Disconnect"
          okButtonProps={{ danger: true }}
          onConfirm={() => onDisconnect()}
        >
          <Button
            danger
            loading={busy === "disconnect"}
            disabled={busy !== null}
            data-testid={`integration-disconnect-${integration.provider}`}
          >
            Disconnect
          </Button>
        </Popconfirm>
      ) : null}
    </Flex>
  );

  return (
    <List.Item data-testid={`integration-${integration.provider}`} data-state={connection?.state ?? "not_connected"}>
      <Flex vertical gap={8} style={{ width: "100%" }}>
        <Flex justify="space-between" align="flex-start" gap={12} wrap>
          <List.Item.Meta
            // A phone puts the actions under the description rather than squeezing it.
            style={{ flex: "1 1 240px", minWidth: 0 }}
            avatar={<ApiOutlined aria-hidden />}
            title={
              <Flex gap={8} wrap align="center">
                <span>{integration.title}</span>
                {connection ? (
                  connection.state === "connected" ? (
                    <Tag color="green">Connected</Tag>
                  ) : (
                    <Tag color="orange">Needs reconnecting</Tag>
                  )
                ) : Panel ? null : (
                  <Tag>Not connected</Tag>
                )}
              </Flex>
            }
            description={INTEGRATION_DESCRIPTIONS[integration.provider]}
          />
          {actions}
        </Flex>
        {connection ? (
          <Flex
            vertical
            gap={4}
            style={{ paddingInlineStart: 30 }}
            data-testid={`integration-details-${integration.provider}`}
          >
            <Typography.Text>
              Connected as{" "}
              <strong>{connection.remoteAccountName || connection.remoteAccountId || "your account"}</strong>
            </Typography.Text>
            {connection.scopes.length > 0 ? (
              <Flex gap={4} wrap aria-label="What it may do">
                {connection.scopes.map((scope) => (
                  <Tag key={scope} bordered={false}>
                    {scope}
                  </Tag>
                ))}
              </Flex>
            ) : null}
            <Typography.Text type="secondary">
              {connection.lastWorkedAt ? `Last worked ${formatDateTime(connection.lastWorkedAt)}` : "Not used yet"}
            </Typography.Text>
            {connection.lastError ? (
              <Typography.Text type="danger" data-testid={`integration-error-${integration.provider}`}>
                Last error: {connection.lastError}
              </Typography.Text>
            ) : null}
          </Flex>
        ) : null}
        {Panel ? <Panel canManage={canManage} integration={integration} onChanged={onChanged} /> : null}
        {ConnectedPanel ? <ConnectedPanel canManage={canManage} /> : null}
      </Flex>
    </List.Item>
  );
}
