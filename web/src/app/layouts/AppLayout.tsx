import {
  LogoutOutlined,
  MessageOutlined,
  MoonOutlined,
  PlusOutlined,
  SunOutlined,
  UserOutlined,
} from "@ant-design/icons";
import { Avatar, Button, Dropdown, Flex, Layout, Menu, type MenuProps, Switch, Tag, Tooltip, Typography } from "antd";
import { Suspense, useEffect, useMemo, useState } from "react";
import { Link, Navigate, Outlet, useLocation, useNavigate } from "react-router-dom";
import { useInitial, useSettings, useUpdateSettings } from "../../api/hooks/app";
import { useAuthActions } from "../../api/hooks/session";
import { AssistantPanel } from "../../features/assistant/AssistantPanel";
import { creditsLabel } from "../../shared/format";
import { notify } from "../../shared/notify";
import { ErrorState, FullPageSpin, LoadingBlock } from "../../shared/states";
import { APP_HOME, menuEntries, selectedMenuKey, WELCOME_PATH } from "../routes";
import { useThemeMode } from "../theme";

/** Header switch between the light and dark admin themes, saved in the user's settings. */

/** Menu items of route-table entries: each a link with its test id. */
function toMenuItems(entries: ReturnType<typeof menuEntries>): NonNullable<MenuProps["items"]> {
  return entries.map((entry) => ({
    key: entry.key,
    icon: entry.icon,
    label: (
      <Link to={entry.to} data-testid={entry.testId}>
        {entry.label}
      </Link>
    ),
  }));
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

  useEffect(() => setMode(settings.theme === "dark" ? "dark" : "light"), [settings.theme, setMode]);
  useEffect(() => () => setMode("marketing"), [setMode]);

  const role = data?.userInfo?.role ?? null;
  const createEntries = useMemo(() => menuEntries("create", role), [role]);
  const mainEntries = useMemo(() => menuEntries("main", role), [role]);
  const userEntries = useMemo(() => menuEntries("user", role), [role]);

  if (!data) {
    return error ? (
      <ErrorState error={error} onRetry={() => void mutate()} />
    ) : (
      <FullPageSpin label="Loading your workspace" />
    );
  }

  const hasProject = !!data.activeProjectInfo?.projectId;
  if (!hasProject && pathname !== WELCOME_PATH) return <Navigate to={WELCOME_PATH} replace />;
  if (hasProject && pathname === WELCOME_PATH) return <Navigate to={APP_HOME} replace />;

  const onSignOut = async () => {
    await signOut();
    navigate("/signin", { replace: true });
  };

  const createMenu = toMenuItems(createEntries);

  const mainMenu = toMenuItems(mainEntries);

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

  const displayName = data.userInfo?.display_name || "Crafter";
  const inWelcome = pathname === WELCOME_PATH;

  return (
    <Layout className="crafter-shell" hasSider>
      {!inWelcome && (
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
          <Link to={APP_HOME} className="crafter-logo crafter-logo--sider" aria-label="Crafter dashboard">
            <span className="crafter-logo__mark" aria-hidden>
              C
            </span>
            {!collapsed && "Crafter"}
          </Link>
          <div className="crafter-shell__create">
            <Dropdown menu={{ items: createMenu }} trigger={["click"]} placement="bottomLeft">
              <Button type="primary" block icon={<PlusOutlined />} data-testid="nav-create" aria-label="Create">
                {!collapsed && "Create"}
              </Button>
            </Dropdown>
          </div>
          <Menu
            mode="inline"
            selectedKeys={[selectedMenuKey(pathname, mainEntries) ?? ""]}
            items={mainMenu}
            aria-label="Main navigation"
          />
        </Layout.Sider>
      )}
      <Layout>
        <Layout.Header className="crafter-shell__header">
          <Typography.Text strong className="crafter-shell__project" data-testid="project-title">
            {data.activeProjectInfo?.projectTitle ?? "Welcome to Crafter"}
          </Typography.Text>
          <Flex align="center" gap={16}>
            <Tooltip title="Your credits (refreshed after every generation)">
              <Link to="/app/settings/wallet" aria-label="Credits: open the wallet">
                <Tag color="purple" data-testid="credits" data-credits={data.userInfo?.credits ?? 0}>
                  {creditsLabel(data.userInfo?.credits ?? 0)}
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
                Assistant
              </Button>
            )}
            <ThemeSwitch />
            <Dropdown menu={{ items: userMenu }} trigger={["click"]} placement="bottomRight">
              <Button type="text" data-testid="user-menu" aria-label="User menu">
                <Avatar size="small" icon={<UserOutlined />} src={data.userInfo?.image || undefined} />
                <span className="crafter-shell__username">{displayName}</span>
              </Button>
            </Dropdown>
          </Flex>
        </Layout.Header>
        <Layout.Content className="crafter-shell__content">
          <Suspense fallback={<LoadingBlock rows={6} />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
        <AssistantPanel open={assistantOpen} onClose={() => setAssistantOpen(false)} />
      </Layout>
    </Layout>
  );
}
