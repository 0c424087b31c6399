import { CheckOutlined } from "@ant-design/icons";
import { Alert, Card, Flex, List, Tag, Typography } from "antd";
import { useSearchParams } from "react-router-dom";
import { useAccount } from "../../api/hooks/app";
import { PLANS, yearlySavingPercent } from "./plans";

/**
 * /app/settings/subscription[?source=upgrade_modal]: the plans of spec section 9. Checkout is not
 * built yet, so the page says so instead of offering a button that does nothing.
 */
export default function SubscriptionPage() {
  const [params] = useSearchParams();
  const { data: account } = useAccount();
  const fromModal = params.get("source") === "upgrade_modal";
  return (
    <Flex
      vertical
      gap={24}
      style={{ maxWidth: 960 }}
      data-testid="subscription-page"
      data-source={params.get("source") ?? ""}
    >
      <Typography.Title level={2} style={{ margin: 0 }}>
        Subscription
      </Typography.Title>
      {fromModal && (
        <Alert type="warning" showIcon title="Your free credits have run out. Choose a plan to keep crafting." />
      )}
      <Alert
        type="info"
        showIcon
        data-testid="plans-later"
        title="Subscribing from the app comes later."
        description={
          account?.isSubscribed
            ? "You are subscribed."
            : "You are on the free tier. Plans and prices are below; checkout is on its way."
        }
      />
      <Flex gap={16} wrap>
        {PLANS.map((plan) => (
          <Card
            key={plan.id}
            title={plan.name}
            style={{ flex: "1 1 320px" }}
            data-testid={`plan-${plan.id}`}
            extra={<Tag color="green">Save about {yearlySavingPercent(plan)}% yearly</Tag>}
          >
            <Typography.Title level={3} style={{ marginTop: 0 }}>
              {plan.monthlyPrice} <Typography.Text type="secondary">/ month</Typography.Text>
            </Typography.Title>
            <Typography.Text type="secondary">or {plan.yearlyPrice} a month, billed yearly</Typography.Text>
            <List
              size="small"
              style={{ marginTop: 16 }}
              dataSource={plan.features}
              renderItem={(feature) => (
                <List.Item>
                  <Flex gap={8}>
                    <CheckOutlined aria-hidden />
                    {feature}
                  </Flex>
                </List.Item>
              )}
            />
          </Card>
        ))}
      </Flex>
    </Flex>
  );
}
