import { ApiOutlined } from "@ant-design/icons";
import { Card, List, Tag, Typography } from "antd";
import { flagAllows } from "../../api/flags";
import { useInitial } from "../../api/hooks/app";
import { ErrorState, LoadingBlock } from "../../shared/states";
import { SettingsPageFrame } from "./SettingsPageFrame";
import { INTEGRATIONS } from "./settings-api";

/**
 * /app/settings/integrations: every integration of the spec with its flag and whether it is
 * connected. Connecting comes in a later issue, so none is connected yet.
 */
export default function IntegrationsPage() {
  const { data, error, mutate } = useInitial();
  const flags = data?.featureFlag;
  const on = (flag: string) => flagAllows(flag, flags);
  return (
    <SettingsPageFrame title="Integrations">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        Connecting an integration comes soon. Those not available on your account yet are marked.
      </Typography.Paragraph>
      <Card>
        {!data ? (
          error ? (
            <ErrorState error={error} onRetry={() => void mutate()} />
          ) : (
            <LoadingBlock rows={4} />
          )
        ) : (
          <List
            dataSource={INTEGRATIONS}
            renderItem={(integration) => (
              <List.Item data-testid={`integration-${integration.key}`} data-enabled={on(integration.flag)}>
                <List.Item.Meta
                  avatar={<ApiOutlined aria-hidden />}
                  title={integration.name}
                  description={integration.description}
                />
                <span className="crafter-tags">
                  <Tag>Not connected</Tag>
                  {on(integration.flag) ? <Tag color="blue">Available</Tag> : <Tag>Not available yet</Tag>}
                </span>
              </List.Item>
            )}
          />
        )}
      </Card>
    </SettingsPageFrame>
  );
}
