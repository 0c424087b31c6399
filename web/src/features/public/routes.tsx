import { lazy } from "react";
import type { RouteEntry } from "../../routing/route-types";
import { PUBLIC_PAGES } from "./pages";

const FeaturesPage = lazy(() => import("./FeaturesPage"));
const UseCasesPage = lazy(() => import("./UseCasesPage"));
const WhyUsPage = lazy(() => import("./WhyUsPage"));
const PricingPage = lazy(() => import("./PricingPage"));
const ShopifyPage = lazy(() => import("./ShopifyPage"));
const FaqPage = lazy(() => import("./FaqPage"));

const COMPONENTS = {
  "/features": FeaturesPage,
  "/usecases": UseCasesPage,
  "/why-us": WhyUsPage,
  "/pricing": PricingPage,
  "/integrations/shopify": ShopifyPage,
  "/FAQ": FaqPage,
} as const;

/**
 * The public site (marketing theme). `/[bucket]`, a page published from a Web Page Writer craft, is
 * rendered by the gateway (services/gateway/src/http/published-pages.ts), not by the app.
 */
export const PUBLIC_ROUTES: RouteEntry[] = [
  ...PUBLIC_PAGES.map((page) => ({
    path: page.path,
    title: page.title,
    access: "public" as const,
    Component: COMPONENTS[page.path as keyof typeof COMPONENTS],
  })),
];
