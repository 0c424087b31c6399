import { createCache, extractStyle, StyleProvider } from "@ant-design/cssinjs";
import { ConfigProvider, Layout, Typography } from "antd";
import type { ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { Link, StaticRouter } from "react-router-dom";
import { THEMES } from "./app/theme";
import FaqPage from "./features/public/FaqPage";
import FeaturesPage from "./features/public/FeaturesPage";
import PricingPage from "./features/public/PricingPage";
import { PUBLIC_PAGES, prerenderedFile, SITE_NAME } from "./features/public/pages";
import ShopifyPage from "./features/public/ShopifyPage";
import UseCasesPage from "./features/public/UseCasesPage";
import WhyUsPage from "./features/public/WhyUsPage";

/**
 * The build-time renderer of the public marketing pages (web/scripts/prerender.mjs runs it after
 * `vite build`): each page's HTML in the public layout's markup, and the antd styles it uses, so
 * search engines and link previews read the page without running the app. The app then renders
 * over it in the browser.
 */
const PAGES: Record<string, ComponentType> = {
  "/features": FeaturesPage,
  "/usecases": UseCasesPage,
  "/why-us": WhyUsPage,
  "/pricing": PricingPage,
  "/integrations/shopify": ShopifyPage,
  "/FAQ": FaqPage,
};

export { PUBLIC_PAGES, prerenderedFile, SITE_NAME };

/** The page at `path` as HTML (the inside of #root) and the CSS of the antd components it uses. */
export function renderPage(path: string): { html: string; css: string } {
  const Page = PAGES[path];
  if (!Page) throw new Error(`no public page at ${path}`);
  const cache = createCache();
  const html = renderToString(
    <StyleProvider cache={cache}>
      <ConfigProvider theme={THEMES.marketing}>
        <StaticRouter location={path}>
          <Layout className="crafter-public">
            <Layout.Header className="crafter-public__header">
              <Link to="/" className="crafter-logo">
                <span className="crafter-logo__mark" aria-hidden>
                  C
                </span>
                Crafter
              </Link>
              <nav aria-label="Account" className="crafter-public__account">
                <Link to="/signin">Sign in</Link> <Link to="/signup">Get started</Link>
              </nav>
            </Layout.Header>
            <Layout.Content className="crafter-public__content">
              <Page />
            </Layout.Content>
            <Layout.Footer className="crafter-public__footer">
              <Typography.Text type="secondary">Crafter · Marketing content, crafted with you.</Typography.Text>
            </Layout.Footer>
          </Layout>
        </StaticRouter>
      </ConfigProvider>
    </StyleProvider>,
  );
  return { html, css: extractStyle(cache, { plain: true }) };
}
