import { CheckOutlined } from "@ant-design/icons";
import { Card, Flex, List, Segmented, Tag, Typography } from "antd";
import type { ReactNode } from "react";
import type { PlanCard, PlanKey } from "../../api/billing";
import { formatUsd } from "../../shared/format";

export type BillingPeriod = "monthly" | "yearly";

export interface PlanCardsProps {
  plans: PlanCard[];
  period: BillingPeriod;
  onPeriodChange(period: BillingPeriod): void;
  /** The plan the upgrade modal suggested: outlined and tagged. */
  suggested?: string | null;
  /** The card's call to action (a subscribe, change or sign-up button). */
  action?(plan: PlanCard, planKey: PlanKey): ReactNode;
}

/**
 * The plan cards with the monthly/yearly toggle and the yearly savings. The cards come from
 * billing (`GET /api/billing/plans`); the app's subscription page and the public /pricing page
 * both render this component.
 */
export function PlanCards({ plans, period, onPeriodChange, suggested, action }: PlanCardsProps) {
  const savings = Math.max(0, ...plans.map((plan) => plan.yearlySavings));
  return (
    <Flex vertical gap={16}>
      <Segmented<BillingPeriod>
        data-testid="billing-period"
        value={period}
        onChange={onPeriodChange}
        options={[
          { label: "Monthly", value: "monthly" },
          { label: savings > 0 ? `Yearly (save about ${savings}%)` : "Yearly", value: "yearly" },
        ]}
        style={{ alignSelf: "flex-start" }}
      />
      <Flex gap={16} wrap>
        {plans.map((plan) => {
          const planKey = period === "monthly" ? plan.planKey.monthly : plan.planKey.yearly;
          const price = period === "monthly" ? plan.monthlyPrice : plan.yearlyPrice;
          const original = period === "monthly" ? plan.originalMonthlyPrice : plan.originalYearlyPrice;
          const isSuggested = suggested === plan.id;
          return (
            <Card
              key={plan.id}
              title={plan.name}
              style={{
                flex: "1 1 280px",
                minWidth: 0,
                ...(isSuggested ? { borderColor: "#1677ff", borderWidth: 2 } : {}),
              }}
              data-testid={`plan-${plan.id}`}
              data-plan-key={planKey}
              extra={
                isSuggested ? (
                  <Tag color="blue" data-testid="plan-suggested">
                    Suggested
                  </Tag>
                ) : period === "yearly" ? (
                  <Tag color="green">Save about {plan.yearlySavings}%</Tag>
                ) : null
              }
            >
              <Typography.Title level={3} style={{ marginTop: 0 }}>
                <span data-testid={`plan-${plan.id}-price`}>{formatUsd(price)}</span>{" "}
                {period === "yearly" && original > price && (
                  <Typography.Text delete type="secondary" style={{ fontSize: 16 }}>
                    {formatUsd(original)}
                  </Typography.Text>
                )}{" "}
                <Typography.Text type="secondary" style={{ fontSize: 14 }}>
                  USD / month
                </Typography.Text>
              </Typography.Title>
              <Typography.Text type="secondary">
                {period === "yearly"
                  ? `Billed yearly: ${formatUsd(Math.round(price * 12 * 100) / 100)} a year`
                  : "Billed monthly"}
              </Typography.Text>
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
              {action && <div style={{ marginTop: 16 }}>{action(plan, planKey)}</div>}
            </Card>
          );
        })}
      </Flex>
    </Flex>
  );
}
