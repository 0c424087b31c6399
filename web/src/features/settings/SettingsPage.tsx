import { Card, Descriptions, Flex, Switch, Tag, Typography } from "antd";
import { Link } from "react-router-dom";
import { useAccount, useSettings, useUpdateSettings } from "../../api/hooks/app";
import { useMenu } from "../../routing/viewer";
import { formatDateTime } from "../../shared/format";
import { notify } from "../../shared/notify";
import { ErrorState, LoadingBlock } from "../../shared/states";
import { ApiKeysCard } from "./ApiKeysCard";

/**
 * /app/settings: links to the sub-pages (the route table's "settings" entries), account info (`GET /api/user/account`), the theme switch
 * and personal API keys.
 */
export default function SettingsPage() {
  const { data: account, error, mutate } = useAccount();
  const settings = useSettings();
  const updateSettings = useUpdateSettings();
  // The route table's settings index, filtered by the same rule as the pages themselves.
  const links = useMenu("settings", { project: true });

  return (
    <Flex vertical gap={24} className="crafter-page crafter-page--narrow">
      <Typography.Title level={2} style={{ margin: 0 }}>
        Settings
      </Typography.Title>
      <nav aria-label="Settings pages">
        <ul className="crafter-settings-links">
          {links.map((link) => (
            <li key={link.key}>
              <Link to={link.to} data-testid={link.testId}>
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
