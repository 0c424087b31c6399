import { API_KEY_SCOPE_NAMES, API_KEY_SCOPES, type ApiKeyScope } from "@crafter/validation";
import { Alert, Button, Card, Checkbox, Flex, Input, Modal, Popconfirm, Table, Tag, Typography } from "antd";
import { useState } from "react";
import useSWR from "swr";
import { api, fetcher } from "../../api/api";
import { keys } from "../../api/keys";
import { paths } from "../../api/paths";
import { formatDateTime } from "../../shared/format";
import { notify } from "../../shared/notify";
import { ErrorState, LoadingBlock } from "../../shared/states";
import { TABLE_ACTIONS } from "../../shared/table";

/** A key as `GET /api/settings/apiKeys` lists it (never the secret). */
export interface ApiKeyView {
  id: string;
  name: string;
  scopes: string[];
  prefix: string;
  createdAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/**
 * Settings › API keys: personal keys for scripts and third parties (`Authorization: Bearer <key>`).
 * Created with a name and scopes, shown once, revocable; the list never holds a secret.
 */
export function ApiKeysCard() {
  const { data, error, mutate } = useSWR<{ apiKeys: ApiKeyView[] }>(keys.apiKeys(), fetcher);
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<ApiKeyScope[]>(["read"]);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);

  const create = async () => {
    setCreating(true);
    try {
      const created = await api.post<{ apiKey: ApiKeyView; secret: string }>(paths.apiKeys, {
        name: name.trim(),
        scopes,
      });
      setSecret(created.secret);
      setName("");
      await mutate();
    } catch (failure) {
      notify.error(failure, "Could not create the key");
    } finally {
      setCreating(false);
    }
  };

  const revoke = async (id: string) => {
    try {
      await api.del(paths.apiKey(id));
      await mutate();
    } catch (failure) {
      notify.error(failure, "Could not revoke the key");
    }
  };

  return (
    <Card title="API keys" data-testid="api-keys">
      <Typography.Paragraph type="secondary">
        Personal keys let your scripts and other apps use Crafter's API as you. Send one as{" "}
        <Typography.Text code>Authorization: Bearer &lt;key&gt;</Typography.Text>. A key can do only what its scopes
        allow, and never signs in or manages keys.
      </Typography.Paragraph>
      <Flex vertical gap={12} style={{ marginBottom: 16 }}>
        <Input
          aria-label="Key name"
          placeholder="Key name, e.g. Reporting script"
          maxLength={80}
          value={name}
          onChange={(event) => setName(event.target.value)}
          data-testid="api-key-name"
        />
        <Checkbox.Group
          value={scopes}
          onChange={(values) => setScopes(values as ApiKeyScope[])}
          data-testid="api-key-scopes"
        >
          <Flex vertical gap={4}>
            {API_KEY_SCOPE_NAMES.map((scope) => (
              <Checkbox key={scope} value={scope}>
                <Typography.Text strong>{scope}</Typography.Text>{" "}
                <Typography.Text type="secondary">{API_KEY_SCOPES[scope]}</Typography.Text>
              </Checkbox>
            ))}
          </Flex>
        </Checkbox.Group>
        <div>
          <Button
            type="primary"
            onClick={() => void create()}
            loading={creating}
            disabled={name.trim() === "" || scopes.length === 0}
            data-testid="api-key-create"
          >
            Create key
          </Button>
        </div>
      </Flex>
      {!data ? (
        error ? (
          <ErrorState error={error} onRetry={() => void mutate()} />
        ) : (
          <LoadingBlock rows={2} />
        )
      ) : (
        <Table<ApiKeyView>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={data.apiKeys}
          locale={{ emptyText: "No API keys yet." }}
          columns={[
            { title: "Name", dataIndex: "name" },
            {
              title: "Key",
              dataIndex: "prefix",
              render: (prefix: string) => <Typography.Text code>{prefix}…</Typography.Text>,
            },
            {
              title: "Scopes",
              dataIndex: "scopes",
              render: (values: string[]) => values.map((scope) => <Tag key={scope}>{scope}</Tag>),
            },
            { title: "Created", dataIndex: "createdAt", render: (value: string | null) => formatDateTime(value) },
            {
              title: "Last used",
              dataIndex: "lastUsedAt",
              render: (value: string | null) => (value ? formatDateTime(value) : "Never"),
            },
            {
              title: "",
              key: "action",
              // Actions stay in view while a phone scrolls the table sideways.
              fixed: "right",
              className: TABLE_ACTIONS,
              render: (_: unknown, key) =>
                key.revokedAt ? (
                  <Tag color="red">Revoked</Tag>
                ) : (
                  <Popconfirm
                    title="Revoke this key?"
                    description="Apps using it stop working at once."
                    okText="Revoke"
                    okButtonProps={{ danger: true }}
                    onConfirm={() => revoke(key.id)}
                  >
                    <Button danger size="small" data-testid={`api-key-revoke-${key.id}`}>
                      Revoke
                    </Button>
                  </Popconfirm>
                ),
            },
          ]}
        />
      )}
      <Modal
        open={secret !== null}
        title="Your new API key"
        onOk={() => setSecret(null)}
        onCancel={() => setSecret(null)}
        cancelButtonProps={{ style: { display: "none" } }}
        okText="I have copied it"
        data-testid="api-key-secret-modal"
      >
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title="Copy it now: it is shown only this once and cannot be recovered."
        />
        <Typography.Paragraph copyable code data-testid="api-key-secret">
          {secret}
        </Typography.Paragraph>
      </Modal>
    </Card>
  );
}
