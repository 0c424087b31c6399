import { Alert, Card, Descriptions, Flex, Typography } from "antd";
import { useAccount } from "../../api/hooks/app";
import { formatDateTime } from "../../shared/format";
import { LinkButton } from "../../shared/LinkButton";
import { ErrorState, LoadingBlock } from "../../shared/states";

/** /app/settings/wallet: the credit balance (userInfo.credits, from billing). Top-ups come later. */
export default function WalletPage() {
  const { data, error, mutate } = useAccount();
  return (
    <Flex vertical gap={24} style={{ maxWidth: 760 }} data-testid="wallet-page">
      <Typography.Title level={2} style={{ margin: 0 }}>
        Wallet
      </Typography.Title>
      <Card title="Credits">
        {!data ? (
          error ? (
            <ErrorState error={error} onRetry={() => void mutate()} />
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
                children: <span data-testid="wallet-credits">{data.credits} credits</span>,
              },
              {
                key: "expires",
                label: "Expires",
                children: formatDateTime(data.credits_expire_at) || "—",
              },
            ]}
          />
        )}
      </Card>
      <Alert
        type="info"
        showIcon
        title="Buying credits from the app comes later."
        action={
          <LinkButton to="/app/settings/subscription" size="small">
            See plans
          </LinkButton>
        }
      />
    </Flex>
  );
}
