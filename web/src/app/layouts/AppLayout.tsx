import {
  LogoutOutlined,
  MenuOutlined,
  MessageOutlined,
  MoonOutlined,
  PlusOutlined,
  QuestionCircleOutlined,
  SunOutlined,
  UserOutlined,
  WalletOutlined,
} from "@ant-design/icons";
import { Avatar, Button, Drawer, Dropdown, Flex, Grid, Layout, Menu, type MenuProps, Switch, Tag, Tooltip } from "antd";
import { Suspense, useEffect, useState } from "react";
import { Link, Navigate, Outlet, useLocation, useMatches, useNavigate } from "react-router-dom";
import { useInitial, useSettings, useUpdateSettings } from "../../api/hooks/app";
import { useAuthActions } from "../../api/hooks/session";
import { AssistantPanel } from "../../features/assistant/AssistantPanel";
import { helpHrefFor } from "../../features/help/help-docs";
import { Bell } from "../../features/inbox/Bell";
import { ContextSelector } from "../../features/projects/components/ContextSelector";
import { ProjectSwitcher } from "../../features/projects/components/ProjectSwitcher";
import { arrangeMenu, type ResolvedMenuEntry, selectedMenuKey } from "../../routing/access";
import { APP_HOME, PAGES, WELCOME_PATH } from "../../routing/paths";
import type { RouteEntry } from "../../routing/route-types";
import { useMenu } from "../../routing/viewer";
import { creditsLabel, formatNumber } from "../../shared/format";
import { notify } from "../../shared/notify";
import { ErrorState, FullPageSpin, LoadingBlock } from "../../shared/states";

import { useThemeMode } from "../theme";

/** Header switch between the light and dark admin themes, saved in the user's settings. */

function menuLink(entry: ResolvedMenuEntry, onNavigate?: () => void) {
  return (
    <Link to={entry.to} data-testid={entry.testId} onClick={onNavigate}>
      {entry.label}
    </Link>
  );
}

/**
 * Menu items of a placement in the route table's order, each a link with its test id; an entry
 * with children (Contacts → Segments, Lead form, Lead assistant) is a sub-menu whose first item is
 * the parent's own page.
 */
function toMenuItems(entries: ResolvedMenuEntry[], onNavigate?: () => void): NonNullable<MenuProps["items"]> {
  return arrangeMenu(entries).map(({ entry, children }) =>
    children.length === 0
      ? { key: entry.key, icon: entry.icon, label: menuLink(entry, onNavigate) }
      : {
          key: `group:${entry.key}`,
          icon: entry.icon,
          label: <span data-testid={`${entry.testId}-group`}>{entry.label}</span>,
          children: [entry, ...children].map((child) => ({
            key: child.key,
            icon: child === entry ? undefined : child.icon,
            label: menuLink(child, onNavigate),
          })),
        },
  );
}

/** The route-table entry of the page shown (undefined on an unknown /app path). */
function useMatchedRoute(): RouteEntry | undefined {
  const matches = useMatches();
  return [...matches].reverse().find((match) => (match.handle as RouteEntry | undefined)?.path)?.handle as
    | RouteEntry
    | undefined;
}

export function ThemeSwitch({ testId = "theme-toggle" }: { testId?: string }) {
  const settings = useSettings();
  const updateSettings = useUpdateSettings();
  return (
    <Switch
      checked={settings.theme === "dark"}
      checkedChildren={<MoonOutlined />}
      unCheckedChildren={<SunOutlined />}
      aria-label="Dark theme"
      data-testid={testId}
      onChange={(checked) => {
        updateSettings({ theme: checked ? "dark" : "light" }).catch((error) =>
          notify.error(error, "Could not save your theme"),
        );
      }}
    />
  );
}

/** The /app shell: sider (Create menu, then the main entries), header (theme, user menu). */
export function AppLayout() {
  const { data, error, mutate } = useInitial();
  const settings = useSettings();
  const updateSettings = useUpdateSettings();
  const { setMode } = useThemeMode();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { signOut } = useAuthActions();
  const [collapsed, setCollapsed] = useState(!settings.leftSidebarOpen);
  const [assistantOpen, setAssistantOpen] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const screens = Grid.useBreakpoint();
  const route = useMatchedRoute();
  // Phones (below md, e.g. 390 px): the sider becomes a drawer opened from the header.
  const mobile = screens.md === false;

  useEffect(() => setMode(settings.theme === "dark" ? "dark" : "light"), [settings.theme, setMode]);
  useEffect(() => () => setMode("marketing"), [setMode]);

  const createEntries = useMenu("create");
  const mainEntries = useMenu("main");
  const userEntries = useMenu("user");
  useEffect(() => setDrawerOpen(false), [pathname]);

  if (!data) {
    return error ? (
      <ErrorState error={error} onRetry={() => void mutate()} />
    ) : (
      <FullPageSpin label="Loading your workspace" />
    );
  }

  const hasProject = !!data.activeProjectInfo?.projectId;
  // Only the table's `withoutProject` pages (welcome, a team invitation) open before a project exists.
  if (!hasProject && !route?.withoutProject) return <Navigate to={WELCOME_PATH} replace />;
  if (hasProject && pathname === WELCOME_PATH) return <Navigate to={APP_HOME} replace />;

  const onSignOut = async () => {
    await signOut();
    navigate("/signin", { replace: true });
  };

  const closeDrawer = () => setDrawerOpen(false);
  const createMenu = toMenuItems(createEntries, closeDrawer);
  const mainMenu = toMenuItems(mainEntries, closeDrawer);
  const openGroups = mainMenu.flatMap((item) =>
    item && "children" in item && item.children ? [String(item.key)] : [],
  );

  const userMenu: MenuProps["items"] = [
    ...toMenuItems(userEntries),
    { type: "divider" as const },
    {
      key: "signout",
      icon: <LogoutOutlined />,
      label: <span data-testid="nav-signout">Sign out</span>,
      onClick: () => void onSignOut(),
    },
  ];

  const navigation = (inDrawer: boolean) => (
    <>
      <Link to={APP_HOME} className="crafter-logo crafter-logo--sider" aria-label="Crafter dashboard">
        <span className="crafter-logo__mark" aria-hidden>
          C
        </span>
        {(inDrawer || !collapsed) && "Crafter"}
      </Link>
      <div className="crafter-shell__create">
        <Dropdown menu={{ items: createMenu }} trigger={["click"]} placement="bottomLeft">
          <Button type="primary" block icon={<PlusOutlined />} data-testid="nav-create" aria-label="Create">
            {(inDrawer || !collapsed) && "Create"}
          </Button>
        </Dropdown>
      </div>
      <Menu
        mode="inline"
        selectedKeys={[selectedMenuKey(pathname, mainEntries) ?? ""]}
        defaultOpenKeys={openGroups}
        items={mainMenu}
        aria-label="Main navigation"
        data-testid="main-navigation"
      />
    </>
  );
  const displayName = data.userInfo?.display_name || "Crafter";
  const inWelcome = pathname === WELCOME_PATH;

  return (
    <Layout className="crafter-shell" hasSider>
      {!inWelcome && !mobile && (
        <Layout.Sider
          // The dark admin theme comes from antd's dark algorithm; the "dark" sider/menu variants
          // would paint their own navy instead.
          theme="light"
          collapsible
          collapsed={collapsed}
          breakpoint="lg"
          onCollapse={(value, type) => {
            setCollapsed(value);
            if (type === "clickTrigger") void updateSettings({ leftSidebarOpen: !value }).catch(() => {});
          }}
          width={232}
          className="crafter-shell__sider"
        >
          {navigation(false)}
        </Layout.Sider>
      )}
      {!inWelcome && mobile && (
        <Drawer
          placement="left"
          open={drawerOpen}
          onClose={closeDrawer}
          width={272}
          styles={{ body: { padding: 0 } }}
          title="Menu"
          data-testid="nav-drawer"
        >
          {navigation(true)}
        </Drawer>
      )}
      <Layout>
        <Layout.Header className="crafter-shell__header">
          <Flex align="center" gap={8} style={{ minWidth: 0 }}>
            {!inWelcome && mobile && (
              <Button
                type="text"
                icon={<MenuOutlined />}
                aria-label="Open the menu"
                data-testid="nav-drawer-open"
                onClick={() => setDrawerOpen(true)}
              />
            )}
            <ProjectSwitcher />
            {!inWelcome && !mobile && <ContextSelector />}
          </Flex>
          <Flex align="center" gap={mobile ? 8 : 16} wrap={false}>
            <Tooltip title="Your credits (refreshed after every generation)">
              <Link to={PAGES.wallet} aria-label="Credits: open the wallet">
                <Tag
                  color="purple"
                  data-testid="credits"
                  data-credits={data.userInfo?.credits ?? 0}
                  icon={mobile ? <WalletOutlined aria-hidden /> : undefined}
                >
                  {mobile ? formatNumber(data.userInfo?.credits ?? 0) : creditsLabel(data.userInfo?.credits ?? 0)}
                </Tag>
              </Link>
            </Tooltip>
            {!inWelcome && (
              <Button
                icon={<MessageOutlined />}
                onClick={() => setAssistantOpen(true)}
                data-testid="assistant-open"
                aria-label="Open the assistant"
              >
                {!mobile && "Assistant"}
              </Button>
            )}
            <Tooltip title="Help for this page">
              <Link to={helpHrefFor(pathname)} aria-label="Help for this page" data-testid="page-help">
                <QuestionCircleOutlined />
              </Link>
            </Tooltip>
            {!mobile && <ThemeSwitch />}
            {!inWelcome && <Bell />}
            <Dropdown menu={{ items: userMenu }} trigger={["click"]} placement="bottomRight">
              <Button type="text" data-testid="user-menu" aria-label="User menu">
                <Avatar size="small" icon={<UserOutlined />} src={data.userInfo?.image || undefined} />
                {!mobile && <span className="crafter-shell__username">{displayName}</span>}
              </Button>
            </Dropdown>
          </Flex>
        </Layout.Header>
        <Layout.Content className="crafter-shell__content">
          {!inWelcome && mobile && (
            <div style={{ marginBottom: 12 }}>
              <ContextSelector compact />
            </div>
          )}
          <Suspense fallback={<LoadingBlock rows={6} />}>
            {/* Each page stands behind its route's access rule (routing/RouteGate.tsx). */}
            <Outlet />
          </Suspense>
        </Layout.Content>
        <AssistantPanel open={assistantOpen} onClose={() => setAssistantOpen(false)} />
      </Layout>
    </Layout>
  );
}
