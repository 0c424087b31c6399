import { CopyOutlined, DeleteOutlined, MoreOutlined, StarFilled, StarOutlined } from "@ant-design/icons";
import { App, Button, Dropdown, Flex, Tooltip } from "antd";
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { useCraftActions } from "../../../api/hooks/crafts";
import type { CraftSummary } from "../../../api/types";
import { notify } from "../../../shared/notify";
import { useCraftErrorHandler } from "../craft-errors";
import { craftHref } from "../links";

/**
 * Favorite, clone and delete (with confirmation) for one craft, on its page and in lists.
 * `onDeleted` runs after a delete (the craft page leaves for the list).
 */
export function CraftActions({
  craft,
  compact = false,
  onDeleted,
}: {
  craft: Pick<CraftSummary, "craftId" | "craftName" | "workflowName" | "favorite">;
  compact?: boolean;
  onDeleted?: () => void;
}) {
  const { favorite, clone, remove } = useCraftActions();
  const handleError = useCraftErrorHandler();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<"favorite" | "clone" | null>(null);
  const isFavorite = !!craft.favorite;
  const name = craft.craftName || "Untitled craft";

  const toggleFavorite = async () => {
    setBusy("favorite");
    try {
      await favorite(craft.craftId, !isFavorite);
    } catch (error) {
      handleError(error, "Could not update favorites");
    } finally {
      setBusy(null);
    }
  };

  const doClone = async () => {
    setBusy("clone");
    try {
      const copy = await clone(craft.craftId);
      notify.success("Cloned", `“${copy.craftName}” is ready.`);
      navigate(craftHref(copy));
    } catch (error) {
      handleError(error, "Could not clone the craft");
    } finally {
      setBusy(null);
    }
  };

  const confirmDelete = () =>
    modal.confirm({
      title: `Delete “${name}”?`,
      content: "The craft and all its results are deleted for good.",
      okText: "Delete",
      okButtonProps: { danger: true, "data-testid": "confirm-delete" },
      cancelText: "Keep it",
      onOk: async () => {
        try {
          await remove(craft.craftId);
          notify.success("Deleted", `“${name}” is gone.`);
          onDeleted?.();
        } catch (error) {
          handleError(error, "Could not delete the craft");
        }
      },
    });

  return (
    <Flex gap={4} align="center" data-testid="craft-actions">
      <Tooltip title={isFavorite ? "Remove from favorites" : "Add to favorites"}>
        <Button
          type="text"
          icon={isFavorite ? <StarFilled style={{ color: "#faad14" }} /> : <StarOutlined />}
          aria-label={isFavorite ? `Remove ${name} from favorites` : `Add ${name} to favorites`}
          aria-pressed={isFavorite}
          loading={busy === "favorite"}
          onClick={() => void toggleFavorite()}
          data-testid="craft-favorite"
        />
      </Tooltip>
      <Dropdown
        trigger={["click"]}
        menu={{
          items: [
            { key: "clone", icon: <CopyOutlined />, label: <span data-testid="craft-clone">Clone</span> },
            {
              key: "delete",
              danger: true,
              icon: <DeleteOutlined />,
              label: <span data-testid="craft-delete">Delete</span>,
            },
          ],
          onClick: ({ key }) => (key === "clone" ? void doClone() : confirmDelete()),
        }}
      >
        <Button
          type={compact ? "text" : "default"}
          icon={<MoreOutlined />}
          loading={busy === "clone"}
          aria-label={`More actions for ${name}`}
          data-testid="craft-more"
        />
      </Dropdown>
    </Flex>
  );
}
