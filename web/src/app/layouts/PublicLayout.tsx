import { Flex, Layout, Typography } from "antd";
import { useEffect } from "react";
import { Link, Outlet, useMatches } from "react-router-dom";
import { useSession } from "../../api/hooks/session";
import type { RouteEntry } from "../../routing/route-types";
import { LinkButton } from "../../shared/LinkButton";
import { useThemeMode } from "../theme";

/** The marketing look of the public and auth pages. */
export function PublicLayout() {
  const { setMode } = useThemeMode();
  const session = useSession();
  useEffect(() => setMode("marketing"), [setMode]);
  const business = useMatches().some((match) => (match.handle as RouteEntry | undefined)?.frame === "business");

  if (business) {
    // A business's own page: the page shows the business; nothing of Crafter's frame.
    return (
      <Layout className="crafter-public crafter-public--business">
        <Layout.Content className="crafter-public__content">
          <Outlet />
        </Layout.Content>
      </Layout>
    );
  }

  return (
    <Layout className="crafter-public">
      <Layout.Header className="crafter-public__header">
        <Link to="/" className="crafter-logo">
          <span className="crafter-logo__mark" aria-hidden>
            C
          </span>
          Crafter
        </Link>
        <Flex gap={8} component="nav" aria-label="Account">
          {session.status === "verified" ? (
            <LinkButton to="/app" type="primary">
              Open dashboard
            </LinkButton>
          ) : (
            <>
              <LinkButton to="/signin" type="text" data-testid="header-signin">
                Sign in
              </LinkButton>
              <LinkButton to="/signup" type="primary" data-testid="header-signup">
                Get started
              </LinkButton>
            </>
          )}
        </Flex>
      </Layout.Header>
      <Layout.Content className="crafter-public__content">
        <Outlet />
      </Layout.Content>
      <Layout.Footer className="crafter-public__footer">
        <Typography.Text type="secondary">
          © {new Date().getFullYear()} Crafter · Marketing content, crafted with you.
        </Typography.Text>
      </Layout.Footer>
    </Layout>
  );
}
