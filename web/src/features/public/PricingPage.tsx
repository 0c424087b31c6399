import { CheckOutlined } from "@ant-design/icons";
import { type Billing, PLAN_CARDS } from "@crafter/plans";
import { Segmented, Tag, Typography } from "antd";
import { useState } from "react";
import { formatUsd } from "../../shared/format";
import { LinkButton } from "../../shared/LinkButton";
import { MarketingPage } from "./MarketingPage";

/** Dark green on pale green, 8:1 (antd's green tag is 3.6:1; WCAG AA wants 4.5:1); inline, above antd's own rules. */
const SAVINGS_TAG = { color: "#14532d", background: "#dcfce7", borderColor: "#86efac" } as const;

/** /pricing: the plan cards of @crafter/plans (billing's), monthly or yearly, with the yearly saving. */
export default function PricingPage() {
  const [billing, setBilling] = useState<Billing>("yearly");
  return (
    <MarketingPage
      path="/pricing"
      heading="Simple plans that grow with you"
      lead="Start free. Upgrade when you need more images, emails and customer profiles. Prices in US dollars."
    >
      <div className="crafter-pricing__toggle">
        <Segmented<Billing>
          aria-label="Billing period"
          value={billing}
          onChange={setBilling}
          data-testid="pricing-period"
          options={[
            { value: "monthly", label: "Monthly" },
            { value: "yearly", label: "Yearly (save about 17%)" },
          ]}
        />
      </div>
      <ul className="crafter-pricing" data-testid="pricing-cards">
        {PLAN_CARDS.map((plan) => {
          const price = billing === "yearly" ? plan.yearlyPrice : plan.monthlyPrice;
          return (
            <li
              key={plan.id}
              className="crafter-pricing__card"
              data-testid="plan-card"
              data-plan={plan.planKey[billing]}
            >
              <Typography.Title level={2}>{plan.name}</Typography.Title>
              <p className="crafter-pricing__price">
                <span data-testid="plan-price">{formatUsd(price)}</span>{" "}
                <span className="crafter-pricing__per">a month</span>
              </p>
              {billing === "yearly" ? (
                <p className="crafter-pricing__note">
                  Instead of <s>{formatUsd(plan.originalYearlyPrice)}</s>, billed{" "}
                  {formatUsd(Math.round(price * 12 * 100) / 100)} a year{" "}
                  <Tag style={SAVINGS_TAG} data-testid="plan-savings">
                    Save {plan.yearlySavings}%
                  </Tag>
                </p>
              ) : (
                <p className="crafter-pricing__note">Billed monthly, cancel any time.</p>
              )}
              <ul className="crafter-pricing__features">
                {plan.features.map((feature) => (
                  <li key={feature}>
                    <CheckOutlined aria-hidden /> {feature}
                  </li>
                ))}
              </ul>
              <LinkButton
                to={`/signup?plan=${encodeURIComponent(plan.planKey[billing])}`}
                type={plan.id === "pro" ? "primary" : "default"}
                size="large"
                block
              >
                Choose {plan.name}
              </LinkButton>
            </li>
          );
        })}
      </ul>
    </MarketingPage>
  );
}
