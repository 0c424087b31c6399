import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { Alert, App, Button, Card, Flex, Input, Select, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { saveSettingsList, useSettingsList } from "../../../api/contacts";
import { CUSTOM_FIELD_TYPES, type CustomField, type CustomFieldType } from "../../../api/contacts/types";
import { ChipInput } from "../../../shared/ChipInput";
import { LinkButton } from "../../../shared/LinkButton";
import { notify } from "../../../shared/notify";
import { ErrorState, LoadingBlock } from "../../../shared/states";
import { useAction } from "../../../shared/use-action";
import { CONTACT_PAGES } from "../paths";
import { cleanOptions, keyFromLabel, labelProblem } from "./keys";

type Item = { key: string; label: string; type?: CustomFieldType; options?: string[] };

export interface SettingsListProps {
  /** The gateway path read with GET and written whole with PUT. */
  path: string;
  title: string;
  description: string;
  /** Singular noun for buttons ("custom field"). */
  noun: string;
  testId: string;
  /** Custom fields: a type per entry and options for select fields. */
  typed?: boolean;
}

/**
 * One settings list of the contacts service (custom fields, interaction types, contact types): add,
 * rename, remove, saved whole. Keys never change once made (contacts and segments refer to them).
 */
export function SettingsList({ path, title, description, noun, testId, typed }: SettingsListProps) {
  const { modal } = App.useApp();
  const { data, error, mutate } = useSettingsList<Item>(path);
  const [label, setLabel] = useState("");
  const [type, setType] = useState<CustomFieldType>("text");
  const [options, setOptions] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const saving = useAction((next: Item[]) => saveSettingsList<Item>(path, next), { error: "Could not save" });
  const busy = saving.pending;

  if (error && !data) return <ErrorState error={error} onRetry={() => void mutate()} />;
  if (!data) return <LoadingBlock rows={5} testId={`${testId}-loading`} />;
  const items = data;

  const save = async (next: Item[], success: string) => {
    const saved = await saving.run(next);
    if (saved === undefined) return false;
    await mutate(Array.isArray(saved) ? saved : next, { revalidate: !Array.isArray(saved) });
    notify.success(success);
    return true;
  };

  const add = async () => {
    const found = labelProblem(
      label,
      items.map((item) => item.label),
    );
    const cleaned = cleanOptions(options);
    const optionProblem = typed && type === "select" && cleaned.length === 0 ? "Add at least one option" : null;
    setProblem(found ?? optionProblem);
    if (found || optionProblem) return;
    const item: Item = {
      key: keyFromLabel(
        label,
        items.map((i) => i.key),
      ),
      label: label.trim(),
    };
    if (typed) {
      item.type = type;
      if (type === "select") item.options = cleaned;
    }
    if (await save([...items, item], `${label.trim()} added`)) {
      setLabel("");
      setOptions([]);
    }
  };

  const rename = (item: Item, next: string) => {
    const found = labelProblem(
      next,
      items.filter((i) => i.key !== item.key).map((i) => i.label),
    );
    if (found) return notify.errorMessage("Not renamed", found);
    if (next.trim() === item.label) return;
    void save(
      items.map((i) => (i.key === item.key ? { ...i, label: next.trim() } : i)),
      "Renamed",
    );
  };

  const remove = (item: Item) =>
    modal.confirm({
      title: `Remove ${item.label}?`,
      content: typed
        ? "Contacts keep their stored values, but the field leaves the table, the form, segments and imports."
        : "Contacts that use it keep it, but it can no longer be chosen.",
      okText: "Remove",
      okButtonProps: { danger: true, "data-testid": "confirm-delete" },
      onOk: () =>
        save(
          items.filter((i) => i.key !== item.key),
          `${item.label} removed`,
        ),
    });

  return (
    <Flex vertical gap={16} style={{ maxWidth: 880 }} data-testid={testId}>
      <div>
        <LinkButton to={CONTACT_PAGES.contacts} type="link" style={{ padding: 0 }}>
          ‹ Contacts
        </LinkButton>
        <Typography.Title level={2} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        <Typography.Text type="secondary">{description}</Typography.Text>
      </div>
      <Card title={`Add a ${noun}`}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void add();
          }}
        >
          <Flex wrap gap={8} align="start">
            <Input
              aria-label="Name"
              placeholder="Name"
              value={label}
              maxLength={60}
              status={problem ? "error" : undefined}
              onChange={(event) => setLabel(event.target.value)}
              style={{ width: 240, maxWidth: "100%" }}
              data-testid={`${testId}-label`}
            />
            {typed && (
              <Select
                aria-label="Type"
                value={type}
                onChange={setType}
                style={{ width: 140 }}
                options={CUSTOM_FIELD_TYPES.map((value) => ({ value, label: value }))}
                data-testid={`${testId}-type`}
              />
            )}
            {typed && type === "select" && (
              <div style={{ minWidth: 240, flex: 1 }}>
                <ChipInput
                  aria-label="Options"
                  placeholder="Options: type and press Enter"
                  value={options}
                  onChange={setOptions}
                  maxLength={100}
                  data-testid={`${testId}-options`}
                />
              </div>
            )}
            <Button
              type="primary"
              htmlType="submit"
              icon={<PlusOutlined />}
              loading={busy}
              data-testid={`${testId}-add`}
            >
              Add
            </Button>
          </Flex>
          {problem && <Alert type="error" showIcon title={problem} style={{ marginTop: 8 }} />}
        </form>
      </Card>
      <Card>
        <Table<Item>
          rowKey="key"
          dataSource={items}
          pagination={false}
          scroll={{ x: "max-content" }}
          locale={{ emptyText: `No ${noun}s yet.` }}
          columns={[
            {
              title: "Name",
              key: "label",
              render: (_, item) => (
                <Typography.Text editable={{ onChange: (next) => rename(item, next), maxLength: 60 }}>
                  {item.label}
                </Typography.Text>
              ),
            },
            { title: "Key", dataIndex: "key", render: (key: string) => <Typography.Text code>{key}</Typography.Text> },
            ...(typed
              ? [
                  { title: "Type", dataIndex: "type" },
                  {
                    title: "Options",
                    key: "options",
                    render: (_: unknown, item: Item) => (
                      <Flex wrap gap={4}>
                        {(item.options ?? []).map((option) => (
                          <Tag key={option}>{option}</Tag>
                        ))}
                      </Flex>
                    ),
                  },
                ]
              : []),
            {
              title: "",
              key: "remove",
              width: 60,
              render: (_, item) => (
                <Button
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={`Remove ${item.label}`}
                  onClick={() => remove(item)}
                />
              ),
            },
          ]}
        />
      </Card>
    </Flex>
  );
}

export type { CustomField };
