import { ApiOutlined } from "@ant-design/icons";
import { canOnProject } from "@crafter/roles";
import { Alert, Button, Card, Flex, List, Popconfirm, Tag, Typography } from "antd";
import { type ComponentType, lazy, Suspense, useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import useSWR from "swr";
import { fetcher } from "../../api/api";
import { useInitial } from "../../api/hooks/app";
import { useActiveProjectRole } from "../../api/hooks/projects";
import { connectIntegration, disconnectIntegration, useCustomDomain } from "../../api/integrations";
import { formatDateTime } from "../../shared/format";
import { notify } from "../../shared/notify";
import { EmptyState, ErrorState, LoadingBlock } from "../../shared/states";
import {
  DOMAIN_STATUS,
  INTEGRATION_DESCRIPTIONS,
  INTEGRATIONS_PATH,
  type Integration,
  integrationPaths,
  integrationState,
  returnErrorMessage,
} from "../integrations/integrations-api";
import { SendgridPanel } from "./integrations/SendgridPanel";
import { ShopifyPanel } from "./integrations/ShopifyPanel";
import { MetaChannelsPanel } from "./integrations/SocialChannelsPanel";
import { WebhooksPanel } from "./integrations/WebhooksPanel";
import { type WebhookEndpoint, webhookKeys } from "./integrations/webhooks-api";
import { SettingsPageFrame } from "./SettingsPageFrame";

// Loaded only when its row shows: it judges domains with the Public Suffix List (about 130 kB).
const CustomDomainPanel = lazy(() =>
  import("./integrations/CustomDomainPanel").then((module) => ({ default: module.CustomDomainPanel })),
);

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
  custom_domain: CustomDomainPanel,
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
      await connectIntegration(integration.provider, INTEGRATIONS_PATH);
    } catch (failure) {
      notify.error(failure, `Could not connect ${integration.title}`);
      setBusy(null);
    }
  };

  const onDisconnect = async () => {
    setBusy("disconnect");
    try {
      const { revoked } = await disconnectIntegration(integration.provider);
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
  const status = integrationState(integration);
  const actions =
    Panel || status.state === "coming" || status.state === "not_configured" ? null : !canManage ? (
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
    <List.Item data-testid={`integration-${integration.provider}`} data-state={status.state}>
      <Flex vertical gap={8} style={{ width: "100%" }}>
        <Flex justify="space-between" align="flex-start" gap={12} wrap>
          <List.Item.Meta
            // A phone puts the actions under the description rather than squeezing it.
            style={{ flex: "1 1 240px", minWidth: 0 }}
            avatar={<ApiOutlined aria-hidden />}
            title={
              <Flex gap={8} wrap align="center">
                <span>{integration.title}</span>
                <StateTag provider={integration.provider} state={status.state} />
              </Flex>
            }
            description={
              integration.provider === "google" ? (
                <>
                  {INTEGRATION_DESCRIPTIONS.google}{" "}
                  <Link to="/app/settings/change-password" data-testid="integration-google-signin-link">
                    Your own Sign in with Google: Password and sign-in
                  </Link>
                </>
              ) : (
                INTEGRATION_DESCRIPTIONS[integration.provider]
              )
            }
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
        {Panel ? (
          <Suspense fallback={<LoadingBlock rows={2} />}>
            <Panel canManage={canManage} integration={integration} onChanged={onChanged} />
          </Suspense>
        ) : null}
        {ConnectedPanel ? <ConnectedPanel canManage={canManage} /> : null}
      </Flex>
    </List.Item>
  );
}

/** The row's state beside its title; a panel that sets itself up (webhooks, a domain) shows its own. */
function StateTag({ provider, state }: { provider: string; state: ReturnType<typeof integrationState>["state"] }) {
  const testId = `integration-state-${provider}`;
  switch (state) {
    case "connected":
      return (
        <Tag color="green" data-testid={testId}>
          Connected
        </Tag>
      );
    case "needs_reconnecting":
      return (
        <Tag color="orange" data-testid={testId}>
          Needs reconnecting
        </Tag>
      );
    case "not_connected":
      return <Tag data-testid={testId}>Not connected</Tag>;
    case "not_configured":
      return <Tag data-testid="integration-not-configured">Not configured on this server</Tag>;
    case "coming":
      return <Tag data-testid={testId}>Coming in the next release</Tag>;
    case "managed":
      return provider === "custom_domain" ? <CustomDomainState /> : provider === "zapier" ? <WebhooksState /> : null;
  }
}

/** A custom domain's state: connected once its DNS records are found (the panel reads the same). */
function CustomDomainState() {
  const projectId = useInitial().data?.activeProjectInfo?.projectId;
  const { data } = useCustomDomain(projectId);
  if (!data) return null;
  const status = data.customDomain?.status;
  return status ? (
    <Tag color={DOMAIN_STATUS[status].color} data-testid="integration-state-custom_domain">
      {DOMAIN_STATUS[status].label}
    </Tag>
  ) : (
    <Tag data-testid="integration-state-custom_domain">Not connected</Tag>
  );
}

/** Webhooks and Zapier: connected while an endpoint is on (the panel reads the same list). */
function WebhooksState() {
  const { data } = useSWR<WebhookEndpoint[]>(webhookKeys.endpoints(), fetcher);
  if (!data) return null;
  const on = data.filter((endpoint) => endpoint.enabled).length;
  return on > 0 ? (
    <Tag color="green" data-testid="integration-state-zapier">
      {on === 1 ? "Connected: 1 endpoint" : `Connected: ${on} endpoints`}
    </Tag>
  ) : (
    <Tag data-testid="integration-state-zapier">Not connected</Tag>
  );
}
