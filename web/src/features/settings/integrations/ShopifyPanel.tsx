import { CheckCircleFilled, LoadingOutlined } from "@ant-design/icons";
import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Flex, Form, Input, Popconfirm, Typography } from "antd";
import { useEffect, useMemo, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { Link } from "react-router-dom";
import { z } from "zod";
import {
  disconnectShopify,
  type Integration,
  installShopify,
  SYNC_PARTS,
  shopDomainProblem,
  syncProgress,
  syncShopify,
  useIntegrations,
} from "../../../api/integrations";
import { FormField } from "../../../shared/FormField";
import { formatDateTime, formatNumber } from "../../../shared/format";
import { notify } from "../../../shared/notify";
import { useAction } from "../../../shared/use-action";
import { INTEGRATIONS_PATH } from "../../integrations/integrations-api";

/**
 * Settings › Integrations › Shopify store: the owner types the store's domain (checked as they
 * type), installs Crafter through Shopify's consent screen, then sees the connected shop, each
 * part's last import (products as offerings, customers as contacts: when, how many, why it
 * stopped), Sync now with its progress part by part, and Disconnect after a confirmation (the app
 * is uninstalled from the store; the offerings and contacts already imported stay).
 */
export function ShopifyPanel({
  integration,
  canManage,
  onChanged,
}: {
  integration: Integration;
  canManage: boolean;
  onChanged: () => void;
}) {
  const { connection } = integration;
  const [requestedAt, setRequestedAt] = useState<string | null>(null);
  const syncs = connection?.syncs ?? [];
  const progress = syncProgress(syncs, requestedAt);
  const running = requestedAt !== null && !progress.complete;
  // The first import after the install (an hour at most), or a Sync now: the list (the page's
  // own, one SWR key) is read again every 1.5 s until both parts have reported.
  const firstImport =
    connection?.state === "connected" &&
    syncs.length < SYNC_PARTS.length &&
    Date.now() - Date.parse(connection.connectedAt ?? "") < 3_600_000;
  useIntegrations(running || firstImport);
  useEffect(() => {
    if (requestedAt !== null && progress.complete) setRequestedAt(null);
  }, [requestedAt, progress.complete]);

  const sync = useAction(syncShopify, {
    error: "Could not start the import",
    success: "The import started",
  });
  const disconnect = useAction(disconnectShopify, {
    error: "Could not disconnect the Shopify store",
    success: "The Shopify store is disconnected",
  });

  const onSync = async () => {
    const answer = await sync.run();
    if (answer?.requestedAt) setRequestedAt(answer.requestedAt);
  };

  return (
    <Flex vertical gap={12} style={{ paddingInlineStart: 30, minWidth: 0 }} data-testid="shopify-panel">
      {/* "Not configured on this server" is the row's state, beside its title. */}
      {integration.configured && !canManage && !connection ? (
        <Typography.Text type="secondary">The owner or a project admin installs it</Typography.Text>
      ) : null}
      {connection?.state === "needs_reconnecting" ? (
        <Alert
          type="warning"
          showIcon
          data-testid="shopify-needs-attention"
          title="Shopify no longer accepts Crafter's access to this store"
          description="Nothing is imported until you install again below. The offerings and contacts already imported stay."
        />
      ) : null}
      {integration.configured && canManage && connection?.state !== "connected" ? (
        <InstallForm suffix={integration.shopSuffix} defaultShop={connection?.remoteAccountId ?? ""} />
      ) : null}
      {connection?.state === "connected" ? (
        <Flex vertical gap={8} data-testid="shopify-details">
          <Typography.Text>
            Store <Typography.Text code>{connection.remoteAccountId}</Typography.Text>
          </Typography.Text>
          <Flex vertical gap={4} aria-live="polite" data-testid="shopify-syncs">
            {SYNC_PARTS.map(({ part, label, unit }) => {
              const last = syncs.find((item) => item.part === part);
              const done = progress.done.some((item) => item.part === part);
              return (
                <Flex
                  key={part}
                  gap={8}
                  wrap
                  align="baseline"
                  data-testid={`shopify-sync-${part}`}
                  data-state={running ? (done ? "done" : "running") : last ? (last.error ? "failed" : "done") : "never"}
                >
                  <Typography.Text strong style={{ minWidth: 84 }}>
                    {label}
                  </Typography.Text>
                  {running && !done ? (
                    <Typography.Text type="secondary">
                      <LoadingOutlined aria-hidden /> Importing…
                    </Typography.Text>
                  ) : last ? (
                    <>
                      {running && done ? <CheckCircleFilled aria-hidden style={{ color: "#389e0d" }} /> : null}
                      <Typography.Text>
                        {formatNumber(last.imported)} {unit}
                      </Typography.Text>
                      <Typography.Text type="secondary">{formatDateTime(last.finishedAt)}</Typography.Text>
                      {last.error ? (
                        <Typography.Text type="danger" data-testid={`shopify-sync-error-${part}`}>
                          {last.error}
                        </Typography.Text>
                      ) : null}
                    </>
                  ) : (
                    <Typography.Text type="secondary">
                      <LoadingOutlined aria-hidden /> First import running…
                    </Typography.Text>
                  )}
                </Flex>
              );
            })}
          </Flex>
          <Typography.Text type="secondary">
            See them in <Link to="/app/offerings">Offerings</Link> and <Link to="/app/contacts">Contacts</Link>. Changes
            in the store come here within seconds.
          </Typography.Text>
          {canManage ? (
            <Flex gap={8} wrap>
              <Button
                onClick={() => void onSync()}
                loading={sync.pending || running}
                disabled={disconnect.pending}
                data-testid="shopify-sync"
              >
                {running ? "Importing…" : "Sync now"}
              </Button>
              <Popconfirm
                title="Disconnect the Shopify store?"
                description="Crafter is uninstalled from your store and stops importing. Offerings and contacts already imported stay here."
                okText="Disconnect"
                okButtonProps={{ danger: true }}
                onConfirm={async () => {
                  if (await disconnect.run()) onChanged();
                }}
              >
                <Button danger loading={disconnect.pending} data-testid="integration-disconnect-shopify">
                  Disconnect
                </Button>
              </Popconfirm>
            </Flex>
          ) : null}
        </Flex>
      ) : null}
    </Flex>
  );
}

function InstallForm({ suffix, defaultShop }: { suffix: string; defaultShop: string }) {
  const schema = useMemo(
    () =>
      z.object({
        shop: z.string().superRefine((value, ctx) => {
          const problem = shopDomainProblem(value, suffix);
          if (problem) ctx.addIssue({ code: "custom", message: problem });
        }),
      }),
    [suffix],
  );
  const {
    control,
    handleSubmit,
    formState: { errors, isSubmitting, dirtyFields },
  } = useForm<{ shop: string }>({
    resolver: zodResolver(schema),
    defaultValues: { shop: defaultShop },
    mode: "onChange",
  });
  const placeholder = `your-store.${suffix || "myshopify.com"}`;
  const submit = handleSubmit(async ({ shop }) => {
    try {
      await installShopify(shop, INTEGRATIONS_PATH);
    } catch (failure) {
      notify.error(failure, "Could not start the install");
    }
  });
  // Typed but not yet a store domain: say so as they type; an untouched empty field says nothing.
  const error = dirtyFields.shop || errors.shop?.type !== "custom" ? errors.shop : undefined;

  return (
    <Form layout="vertical" onFinish={() => void submit()} style={{ maxWidth: 560 }} data-testid="shopify-install-form">
      <FormField
        id="shopify-shop"
        label="Your store's Shopify domain"
        error={error}
        required
        extra={`Find it in Shopify admin › Settings › Domains: it ends in .${suffix || "myshopify.com"}.`}
      >
        <Controller
          name="shop"
          control={control}
          render={({ field }) => (
            <Input
              {...field}
              id="shopify-shop"
              placeholder={placeholder}
              autoComplete="off"
              spellCheck={false}
              inputMode="url"
              aria-invalid={Boolean(error)}
              aria-describedby={error ? "shopify-shop-error" : undefined}
              data-testid="shopify-shop"
            />
          )}
        />
      </FormField>
      <Button type="primary" htmlType="submit" loading={isSubmitting} data-testid="shopify-install">
        Install on Shopify
      </Button>
    </Form>
  );
}
