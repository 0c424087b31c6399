import { Alert, Button, Card, Descriptions, Flex, Popconfirm, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { useSWRConfig } from "swr";
import {
  billingKeys,
  cancelSubscription,
  changePlan,
  openPortal,
  type PlanKey,
  type Subscription,
  startCheckout,
  usePlans,
  useSubscription,
} from "../../api/billing";
import { keys } from "../../api/keys";
import { formatDateTime } from "../../shared/format";
import { notify } from "../../shared/notify";
import { ErrorState, LoadingBlock } from "../../shared/states";
import { type BillingPeriod, PlanCards } from "./PlanCards";

const TIER_NAMES = { free: "Free", core: "Core", pro: "Pro" } as const;
const count = new Intl.NumberFormat("en-US");
const isYearly = (planKey: string) => /Yearly/.test(planKey);

/**
 * /app/settings/subscription[?source=upgrade_modal&plan=core|pro][&checkout=success|cancelled]:
 * the user's plan and the plan cards from billing. A free user subscribes through Stripe Checkout;
 * a subscriber switches plans (prorated), cancels at the period's end, or opens Stripe's portal.
 * Back from Checkout the page waits for Stripe's webhook to activate the plan.
 */
export default function SubscriptionPage() {
  const [params] = useSearchParams();
  const source = params.get("source") ?? "";
  const suggested = params.get("plan");
  const checkout = params.get("checkout");
  const plans = usePlans();
  const [awaiting, setAwaiting] = useState<string | null>(checkout === "success" ? "subscribe" : null);
  const subscription = useSubscription(awaiting !== null);
  const { mutate } = useSWRConfig();
  const sub = subscription.data;
  const [period, setPeriod] = useState<BillingPeriod | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const shownPeriod: BillingPeriod = period ?? (sub && isYearly(sub.planKey) ? "yearly" : "monthly");

  if (awaiting === "subscribe" && sub && sub.tier !== "free") setAwaiting(null);
  if (awaiting?.startsWith("change:") && sub?.planKey === awaiting.slice(7)) setAwaiting(null);

  const refresh = () => {
    void mutate(billingKeys.subscription());
    void mutate(keys.account());
    void mutate(keys.initial());
  };

  const run = async (what: string, task: () => Promise<void>) => {
    setBusy(what);
    try {
      await task();
    } catch (error) {
      notify.error(error, "Billing");
    } finally {
      setBusy(null);
    }
  };

  const live = sub && sub.tier !== "free";
  const action = (plan: { id: string; name: string }, planKey: PlanKey) => {
    if (!sub) return null;
    if (!live)
      return (
        <Button
          type={suggested === plan.id || (!suggested && plan.id === "core") ? "primary" : "default"}
          block
          loading={busy === planKey}
          data-testid={`subscribe-${plan.id}`}
          onClick={() =>
            void run(planKey, () => startCheckout({ kind: "subscription", planKey, ...(source ? { source } : {}) }))
          }
        >
          Subscribe to {plan.name}
        </Button>
      );
    if (sub.planKey === planKey)
      return (
        <Button block disabled data-testid={`current-${plan.id}`}>
          Your current plan
        </Button>
      );
    return (
      <Popconfirm
        title={`Switch to ${plan.name}?`}
        description="The price difference is prorated on your invoice."
        okText="Switch"
        onConfirm={() =>
          run(planKey, async () => {
            const changed = await changePlan(planKey);
            notify.success(
              changed.direction === "downgrade" ? "Downgrade requested" : "Upgrade requested",
              "Your plan changes as soon as Stripe confirms it.",
            );
            setAwaiting(`change:${planKey}`);
          })
        }
      >
        <Button
          block
          type={suggested === plan.id ? "primary" : "default"}
          loading={busy === planKey}
          data-testid={`switch-${plan.id}`}
        >
          Switch to {plan.name}
        </Button>
      </Popconfirm>
    );
  };

  return (
    <Flex vertical gap={24} style={{ maxWidth: 960 }} data-testid="subscription-page" data-source={source}>
      <Typography.Title level={2} style={{ margin: 0 }}>
        Subscription
      </Typography.Title>
      {source === "upgrade_modal" && !live && (
        <Alert
          type="warning"
          showIcon
          data-testid="upgrade-source"
          title="You have reached the limit of your plan. Choose a plan to keep crafting."
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
      {awaiting && (
        <Alert
          type="info"
          showIcon
          data-testid="checkout-pending"
          title={
            awaiting === "subscribe"
              ? "Payment received. Activating your plan…"
              : "Waiting for Stripe to confirm the change…"
          }
        />
      )}
      <Card title="Your plan">
        {!sub ? (
          subscription.error ? (
            <ErrorState error={subscription.error} onRetry={() => void subscription.mutate()} />
          ) : (
            <LoadingBlock rows={2} />
          )
        ) : (
          <CurrentPlan
            sub={sub}
            busy={busy}
            onCancel={(resume) =>
              run(resume ? "resume" : "cancel", async () => {
                await cancelSubscription(resume);
                notify.success(resume ? "Your subscription continues" : "Your subscription ends at the period's end");
                setAwaiting(`change:${sub.planKey}`);
                refresh();
              })
            }
            onPortal={() =>
              run("portal", async () => {
                await openPortal();
              })
            }
          />
        )}
      </Card>
      {!plans.data ? (
        plans.error ? (
          <ErrorState error={plans.error} onRetry={() => void plans.mutate()} />
        ) : (
          <LoadingBlock rows={6} />
        )
      ) : (
        <PlanCards
          plans={plans.data.plans}
          period={shownPeriod}
          onPeriodChange={setPeriod}
          suggested={suggested}
          action={action}
        />
      )}
      <Typography.Text type="secondary">
        Prices are in US dollars. Payments are handled by Stripe; you can cancel at any time and keep your plan until
        the end of the paid period.
      </Typography.Text>
    </Flex>
  );
}

function CurrentPlan({
  sub,
  busy,
  onCancel,
  onPortal,
}: {
  sub: Subscription;
  busy: string | null;
  onCancel(resume: boolean): Promise<void>;
  onPortal(): Promise<void>;
}) {
  const live = sub.tier !== "free";
  return (
    <Flex vertical gap={16}>
      <Descriptions
        column={1}
        bordered
        size="small"
        items={[
          {
            key: "plan",
            label: "Plan",
            children: (
              <Space wrap>
                <Tag color={live ? "gold" : undefined} data-testid="current-tier" data-tier={sub.tier}>
                  {TIER_NAMES[sub.tier]}
                </Tag>
                {live && <span data-testid="current-plan-key">{sub.planKey}</span>}
              </Space>
            ),
          },
          {
            key: "limits",
            label: "Limits",
            children: (
              <ul data-testid="plan-limits" style={{ margin: 0, paddingInlineStart: 18 }}>
                <li data-testid="limit-profiles">{count.format(sub.limits.profiles)} customer profiles</li>
                <li data-testid="limit-emails">{count.format(sub.limits.emails)} emails a month</li>
                <li data-testid="limit-ai-images">{count.format(sub.limits.aiImages)} AI images a month</li>
                <li data-testid="limit-voice">{count.format(sub.limits.voiceMinutes)} minutes of AI voice a month</li>
              </ul>
            ),
          },
          ...(live
            ? [
                { key: "status", label: "Status", children: <span data-testid="current-status">{sub.status}</span> },
                {
                  key: "period",
                  label: sub.cancelAtPeriodEnd ? "Ends on" : "Renews on",
                  children: formatDateTime(sub.currentPeriodEnd) || "—",
                },
              ]
            : []),
        ]}
      />
      {sub.cancelAtPeriodEnd && (
        <Alert
          type="warning"
          showIcon
          data-testid="cancel-pending"
          title="Your subscription is cancelled and ends at the end of the paid period."
        />
      )}
      <Space wrap>
        {sub.hasCustomer && (
          <Button loading={busy === "portal"} onClick={() => void onPortal()} data-testid="open-portal">
            Manage billing
          </Button>
        )}
        {live && !sub.cancelAtPeriodEnd && (
          <Popconfirm
            title="Cancel your subscription?"
            description="You keep your plan until the end of the paid period."
            okText="Cancel subscription"
            okButtonProps={{ danger: true }}
            cancelText="Keep it"
            onConfirm={() => onCancel(false)}
          >
            <Button danger loading={busy === "cancel"} data-testid="cancel-subscription">
              Cancel subscription
            </Button>
          </Popconfirm>
        )}
        {live && sub.cancelAtPeriodEnd && (
          <Button loading={busy === "resume"} onClick={() => void onCancel(true)} data-testid="resume-subscription">
            Keep my subscription
          </Button>
        )}
      </Space>
    </Flex>
  );
}
