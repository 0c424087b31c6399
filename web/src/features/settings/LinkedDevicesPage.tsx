import { ChromeOutlined, DesktopOutlined, MobileOutlined } from "@ant-design/icons";
import { Button, Card, List, Popconfirm, Tag, Typography } from "antd";
import useSWR from "swr";
import { api, fetcher } from "../../api/api";
import { formatDateTime } from "../../shared/format";
import { notify } from "../../shared/notify";
import { EmptyState, ErrorState, LoadingBlock } from "../../shared/states";
import { SettingsPageFrame } from "./SettingsPageFrame";
import { type DeviceSession, settingsPaths } from "./settings-api";

const KIND = {
  web: { icon: <DesktopOutlined />, label: "Web" },
  mobile: { icon: <MobileOutlined />, label: "Mobile" },
  chrome: { icon: <ChromeOutlined />, label: "Chrome extension" },
} as const;

/** /app/settings/linked-devices: where the user is signed in; any device can be signed out. */
export default function LinkedDevicesPage() {
  const { data, error, mutate } = useSWR<{ sessions: DeviceSession[] }>(settingsPaths.sessions, fetcher);

  const revoke = async (session: DeviceSession) => {
    try {
      await api.del(settingsPaths.session(session.id));
      notify.success("The device is signed out");
      await mutate();
    } catch (failure) {
      notify.error(failure, "Could not sign the device out");
    }
  };

  return (
    <SettingsPageFrame title="Linked devices">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        Where you are signed in. Signing a device out ends its session at once.
      </Typography.Paragraph>
      <Card>
        {!data ? (
          error ? (
            <ErrorState error={error} onRetry={() => void mutate()} />
          ) : (
            <LoadingBlock rows={3} />
          )
        ) : data.sessions.length === 0 ? (
          <EmptyState description="No signed-in devices" />
        ) : (
          <List
            itemLayout="horizontal"
            dataSource={data.sessions}
            data-testid="devices"
            renderItem={(session) => (
              <List.Item
                data-testid="device"
                data-kind={session.deviceKind}
                actions={[
                  <Popconfirm
                    key="revoke"
                    title={session.current ? "Sign this device out?" : "Sign this device out?"}
                    description={session.current ? "This is the device you are using now." : undefined}
                    okText="Sign out"
                    onConfirm={() => revoke(session)}
                  >
                    <Button danger size="small" data-testid="device-revoke">
                      Sign out
                    </Button>
                  </Popconfirm>,
                ]}
              >
                <List.Item.Meta
                  avatar={<span aria-hidden>{KIND[session.deviceKind].icon}</span>}
                  title={
                    <span>
                      {[session.browser || "Unknown browser", session.os].filter(Boolean).join(" on ")}{" "}
                      <Tag>{KIND[session.deviceKind].label}</Tag>
                      {session.current && <Tag color="green">This device</Tag>}
                    </span>
                  }
                  description={
                    <span className="crafter-wrap">
                      Last used {formatDateTime(session.lastUsedAt)}
                      {session.place ? ` · from ${session.place}` : ""}
                    </span>
                  }
                />
              </List.Item>
            )}
          />
        )}
      </Card>
    </SettingsPageFrame>
  );
}
