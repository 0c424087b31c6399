import { EditOutlined } from "@ant-design/icons";
import { Button, Flex, Input, Tag, Typography } from "antd";
import { useState } from "react";
import { useRenameCraft } from "../../../api/hooks/crafts";
import type { Craft } from "../../../api/types";
import { humanize } from "../../../shared/format";
import { useCraftErrorHandler } from "../craft-errors";
import { stateTag } from "../links";

/** The craft's name, renamed in place (`PUT /api/workflowsV2/{id}/name`). */
export function CraftTitle({ craft }: { craft: Craft }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(craft.craftName);
  const rename = useRenameCraft(craft.craftId);
  const handleError = useCraftErrorHandler();
  const tag = stateTag(craft.state);

  const submit = async () => {
    const next = name.trim();
    if (!next || next === craft.craftName) {
      setEditing(false);
      setName(craft.craftName);
      return;
    }
    try {
      await rename.trigger(next);
      setEditing(false);
    } catch (error) {
      handleError(error, "Could not rename the craft");
    }
  };

  if (editing) {
    return (
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
        aria-label="Rename craft"
      >
        <Flex gap={8} align="center" wrap>
          <Input
            value={name}
            autoFocus
            maxLength={200}
            aria-label="Craft name"
            data-testid="craft-name-input"
            style={{ maxWidth: 420 }}
            onChange={(event) => setName(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Escape") {
                setEditing(false);
                setName(craft.craftName);
              }
            }}
          />
          <Button type="primary" htmlType="submit" loading={rename.isMutating} data-testid="craft-name-save">
            Save
          </Button>
          <Button
            onClick={() => {
              setEditing(false);
              setName(craft.craftName);
            }}
          >
            Cancel
          </Button>
        </Flex>
      </form>
    );
  }

  return (
    <Flex align="center" gap={8} wrap>
      <Typography.Title level={3} style={{ margin: 0 }} data-testid="craft-name">
        {craft.craftName || "Untitled craft"}
      </Typography.Title>
      <Button
        type="text"
        icon={<EditOutlined />}
        aria-label="Rename craft"
        data-testid="craft-rename"
        onClick={() => {
          setName(craft.craftName);
          setEditing(true);
        }}
      />
      <Tag>{humanize(craft.workflowName)}</Tag>
      <Tag color={tag.color} data-testid="craft-state">
        {tag.label}
      </Tag>
    </Flex>
  );
}
