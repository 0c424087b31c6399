import { HistoryOutlined } from "@ant-design/icons";
import { lazy } from "react";
import type { RouteEntry } from "../../routing/route-types";

const PaymentHistoryPage = lazy(() => import("./PaymentHistoryPage"));

/**
 * Billing's pages besides subscription and wallet (which the main table lists): the payment
 * history. Referrals (flag first_promoter) join here when built.
 */
export const BILLING_ROUTES: RouteEntry[] = [
  {
    path: "/app/settings/payment-history",
    title: "Payment history",
    access: "app",
    Component: PaymentHistoryPage,
    menu: [
      {
        placement: "user",
        order: 40,
        label: "Payment history",
        icon: <HistoryOutlined />,
        testId: "nav-payment-history",
      },
    ],
  },
];
