import { Alert, Button, Card, Descriptions, Flex, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { type LedgerItem, type PackId, startCheckout, useLedger, usePlans } from "../../api/billing";
import { useAccount } from "../../api/hooks/app";
import { creditsLabel, formatDateTime, formatUsd } from "../../shared/format";
import { LinkButton } from "../../shared/LinkButton";
import { notify } from "../../shared/notify";
import { ErrorState, LoadingBlock } from "../../shared/states";

const SOURCES: Record<string, string> = {
  "free-tier": "Free credits",
  plan: "Monthly plan credits",
  pack: "Credit pack",
  referral: "Referral reward",
  admin: "Granted by Crafter",
};

function describe(item: LedgerItem): string {
  if (item.kind === "grant") return SOURCES[item.source] ?? "Credits added";
  if (item.kind === "refund") return `Refund${item.reason ? `: ${item.reason}` : ""}`;
  return item.reason || "Credits used";
}

/**
 * /app/settings/wallet: the balance and its expiry (userInfo, from billing), credit packs bought
 * through Stripe Checkout (or the local test checkout), and the ledger's history, newest first.
 */
export default function WalletPage() {
  const [params] = useSearchParams();
  const checkout = params.get("checkout");
  const account = useAccount();
  const plans = usePlans();
  const [page, setPage] = useState(1);
  const ledger = useLedger(page);
  const [buying, setBuying] = useState<string | null>(null);
  const data = account.data;
  return (
    <Flex vertical gap={24} style={{ maxWidth: 960 }} data-testid="wallet-page">
      <Typography.Title level={2} style={{ margin: 0 }}>
        Wallet
      </Typography.Title>
      {checkout === "success" && (
        <Alert
          type="success"
          showIcon
          data-testid="pack-pending"
          title="Payment received. Your credits appear here as soon as Stripe confirms it."
        />
      )}
      {checkout === "cancelled" && (
        <Alert
          type="info"
          showIcon
          data-testid="checkout-cancelled"
          title="Checkout was cancelled; nothing was charged."
        />
      )}
      <Card title="Credits">
        {!data ? (
          account.error ? (
            <ErrorState error={account.error} onRetry={() => void account.mutate()} />
          ) : (
            <LoadingBlock rows={2} />
          )
        ) : (
          <Descriptions
            column={1}
            bordered
            items={[
              {
                key: "credits",
                label: "Balance",
                children: <span data-testid="wallet-credits">{creditsLabel(data.credits)}</span>,
              },
              {
                key: "expires",
                label: "Next expiry",
                children: <span data-testid="wallet-expiry">{formatDateTime(data.credits_expire_at) || "—"}</span>,
              },
              {
                key: "plan",
                label: "Plan",
                children: (
                  <Flex gap={8} wrap align="center">
                    <Tag>{data.isSubscribed ? "Subscribed" : "Free"}</Tag>
                    <LinkButton to="/app/settings/subscription" size="small">
                      {data.isSubscribed ? "Manage plan" : "See plans"}
                    </LinkButton>
                  </Flex>
                ),
              },
            ]}
          />
        )}
      </Card>
      <Card title="Buy credits">
        {!plans.data ? (
          plans.error ? (
            <ErrorState error={plans.error} onRetry={() => void plans.mutate()} />
          ) : (
            <LoadingBlock rows={2} />
          )
        ) : (
          <Flex gap={16} wrap>
            {plans.data.creditPacks.map((pack) => (
              <Card key={pack.id} size="small" style={{ flex: "1 1 200px" }} data-testid={`pack-${pack.id}`}>
                <Typography.Title level={4} style={{ marginTop: 0 }}>
                  {pack.name}
                </Typography.Title>
                <Typography.Paragraph type="secondary">
                  {formatUsd(pack.price)} USD, credits never expire
                </Typography.Paragraph>
                <Button
                  block
                  loading={buying === pack.id}
                  data-testid={`buy-${pack.id}`}
                  onClick={async () => {
                    setBuying(pack.id);
                    try {
                      await startCheckout({ kind: "credits", packId: pack.id as PackId });
                    } catch (error) {
                      notify.error(error, "Checkout");
                    } finally {
                      setBuying(null);
                    }
                  }}
                >
                  Buy
                </Button>
              </Card>
            ))}
          </Flex>
        )}
      </Card>
      <Card title="History">
        {ledger.error ? (
          <ErrorState error={ledger.error} onRetry={() => void ledger.mutate()} />
        ) : (
          <Table<LedgerItem>
            data-testid="wallet-history"
            rowKey="id"
            size="small"
            loading={!ledger.data}
            dataSource={ledger.data?.result ?? []}
            scroll={{ x: true }}
            locale={{ emptyText: "No credit movements yet." }}
            pagination={{
              current: page,
              pageSize: 10,
              total: ledger.data?.meta.count ?? 0,
              onChange: setPage,
              showSizeChanger: false,
            }}
            columns={[
              { key: "date", title: "Date", render: (_, item) => formatDateTime(item.createdAt) },
              { key: "what", title: "What", render: (_, item) => describe(item) },
              {
                key: "delta",
                title: "Credits",
                align: "right",
                render: (_, item) => (
                  <Typography.Text type={item.delta < 0 ? "danger" : "success"}>
                    {item.delta > 0 ? `+${item.delta}` : item.delta}
                  </Typography.Text>
                ),
              },
              { key: "balance", title: "Balance", align: "right", dataIndex: "balanceAfter" },
              {
                key: "expires",
                title: "Expires",
                render: (_, item) => (item.kind === "grant" ? formatDateTime(item.expiresAt) || "Never" : ""),
              },
            ]}
          />
        )}
      </Card>
    </Flex>
  );
}
