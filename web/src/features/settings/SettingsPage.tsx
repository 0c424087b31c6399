import { Card, Descriptions, Flex, Switch, Tag, Typography } from "antd";
import { Link } from "react-router-dom";
import { flagAllows } from "../../api/flags";
import { useAccount, useFlags, useSettings, useUpdateSettings } from "../../api/hooks/app";
import { useActiveProjectRole } from "../../api/hooks/projects";
import { formatDateTime } from "../../shared/format";
import { notify } from "../../shared/notify";
import { ErrorState, LoadingBlock } from "../../shared/states";
import { ApiKeysCard } from "./ApiKeysCard";
import { SETTINGS_LINKS, visibleSettingsLinks } from "./routes";

/**
 * /app/settings: links to the sub-pages, account info (`GET /api/user/account`), the theme switch
 * and personal API keys.
 */
export default function SettingsPage() {
  const { data: account, error, mutate } = useAccount();
  const settings = useSettings();
  const updateSettings = useUpdateSettings();
  const flags = useFlags();
  const projectRole = useActiveProjectRole();
  const links = visibleSettingsLinks(SETTINGS_LINKS, {
    flagAllows: (flag) => flagAllows(flag, flags),
    accountRole: account?.role,
    projectRole,
  });

  return (
    <Flex vertical gap={24} className="crafter-page crafter-page--narrow">
      <Typography.Title level={2} style={{ margin: 0 }}>
        Settings
      </Typography.Title>
      <nav aria-label="Settings pages">
        <ul className="crafter-settings-links">
          {links.map((link) => (
            <li key={link.to}>
              <Link to={link.to} data-testid={`settings-link-${link.to.split("/").pop()}`}>
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Card title="Account" data-testid="account-info">
        {!account ? (
          error ? (
            <ErrorState error={error} onRetry={() => void mutate()} />
          ) : (
            <LoadingBlock rows={4} />
          )
        ) : (
          <Descriptions
            column={1}
            bordered
            size="middle"
            items={[
              {
                key: "name",
                label: "Display name",
                children: <span data-testid="account-name">{account.display_name || "Crafter"}</span>,
              },
              { key: "email", label: "Email", children: <span data-testid="account-email">{account.email}</span> },
              { key: "role", label: "Role", children: <Tag data-testid="account-role">{account.role}</Tag> },
              {
                key: "credits",
                label: "Credits",
                children: (
                  <span data-testid="account-credits">
                    {account.credits ?? 0}
                    {account.credits_expire_at ? ` (expire ${formatDateTime(account.credits_expire_at)})` : ""}
                  </span>
                ),
              },
              {
                key: "plan",
                label: "Plan",
                children: account.isSubscribed ? <Tag color="purple">Subscribed</Tag> : <Tag>Free</Tag>,
              },
            ]}
          />
        )}
      </Card>
      <Card title="Appearance">
        <Flex align="center" gap={12}>
          <Switch
            id="settings-theme"
            checked={settings.theme === "dark"}
            data-testid="settings-theme-switch"
            aria-describedby="settings-theme-label"
            onChange={(checked) => {
              updateSettings({ theme: checked ? "dark" : "light" }).catch((failure) =>
                notify.error(failure, "Could not save your theme"),
              );
            }}
          />
          <label htmlFor="settings-theme" id="settings-theme-label">
            Dark theme
          </label>
        </Flex>
      </Card>
      <ApiKeysCard />
    </Flex>
  );
}
