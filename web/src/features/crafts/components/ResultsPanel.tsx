import {
  CheckOutlined,
  DeleteOutlined,
  EditOutlined,
  PictureOutlined,
  PlusOutlined,
  ReloadOutlined,
} from "@ant-design/icons";
import { isViewerKind } from "@crafter/workflow-language";
import { App, Button, Checkbox, Flex, Input, Radio, Tag, Typography } from "antd";
import { type ReactNode, useState } from "react";
import { useSaveActionResult } from "../../../api/hooks/crafts";
import { stockIdOf } from "../../../api/media";
import type { CraftStep, StepResult } from "../../../api/types";
import { creditsLabel } from "../../../shared/format";
import { RichTextField } from "../../../shared/rich-text/RichTextField";
import { ImageSelectModal } from "../../media/ImageSelectModal";
import { canGenerateMore, generateMoreLabel, keepsAssets, resultCountLabel } from "../actions";
import { useCraftErrorHandler } from "../craft-errors";
import { stateTag } from "../links";
import { contentText, ResultMeta, SELECT_VIEWERS, viewerFor } from "./viewers";

export interface ResultsPanelProps {
  craftId: string;
  step: CraftStep;
  /** A generation of this craft is running (one at a time: TooManyRunningActions otherwise). */
  busy: boolean;
  /** Runs the step's action again; `params` (e.g. `{ assetId }`, an image the user picked) go with it. */
  onGenerateMore?: (step: CraftStep, params?: Record<string, unknown>) => void;
}

/**
 * "Use my own image" on an ImageAppender step: an uploaded, crafted or stock image, chosen in the
 * image selection modal, becomes the step's result like a generated one (RunAction with `{ assetId }`
 * or `{ stockId }`, the stock photo kept in the user's assets; nothing generated or debited).
 */
function PickImage({
  step,
  busy,
  onPick,
}: {
  step: CraftStep;
  busy: boolean;
  onPick: (params: { assetId: string } | { stockId: string }) => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        icon={<PictureOutlined />}
        disabled={busy}
        onClick={() => setOpen(true)}
        data-testid={`pick-image-${step.name}`}
      >
        Use my own image
      </Button>
      <ImageSelectModal
        open={open}
        title="Choose your image"
        okText="Use this image"
        onCancel={() => setOpen(false)}
        onSelect={(asset) => {
          setOpen(false);
          const stockId = stockIdOf(asset);
          onPick(stockId ? { stockId } : { assetId: asset.id });
        }}
      />
    </>
  );
}

/** Groups an IteratorStep's results by item (`items[].resultIds`, else `result.itemIndex`). */
export function groupByItem(step: CraftStep): { label: string; state?: string; results: StepResult[] }[] {
  const results = step.results ?? [];
  if (step.kind !== "IteratorStep" || !step.items?.length) return [{ label: "", results }];
  return step.items.map((item) => ({
    label: `${item.index + 1}. ${contentText(item.item)}`,
    state: item.state,
    results: results.filter((result) =>
      item.resultIds?.length ? item.resultIds.includes(result.id) : result.itemIndex === item.index,
    ),
  }));
}

/** One result with its edit / select / delete controls (saveOrUpdateActionResult). */
function ResultItem({
  craftId,
  step,
  result,
  busy,
  selectMode,
}: {
  craftId: string;
  step: CraftStep;
  result: StepResult;
  busy: boolean;
  selectMode?: "single" | "multi";
}) {
  const save = useSaveActionResult(craftId);
  const handleError = useCraftErrorHandler();
  const { modal } = App.useApp();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState("");
  const Viewer = viewerFor(step.viewer, result);

  const write = async (body: { content?: string; selected?: boolean; delete?: boolean }) => {
    try {
      await save.trigger({ stepName: step.name, resultId: result.id, ...body });
      return true;
    } catch (error) {
      handleError(error, "Could not update the result");
      return false;
    }
  };

  const select = async (selected: boolean) => {
    // One selected result in a single-select list: unselect the others first.
    if (selected && selectMode === "single") {
      for (const other of step.results ?? []) {
        if (other.id !== result.id && other.selected) {
          await save.trigger({ stepName: step.name, resultId: other.id, selected: false }).catch(() => undefined);
        }
      }
    }
    await write({ selected });
  };

  const confirmDelete = () =>
    modal.confirm({
      title: "Delete this result?",
      content: "It is removed from the craft for good.",
      okText: "Delete",
      okButtonProps: { danger: true },
      onOk: () => write({ delete: true }),
    });

  let selector: ReactNode = null;
  if (selectMode === "single") {
    selector = (
      <Radio
        checked={!!result.selected}
        disabled={busy || save.isMutating}
        onChange={() => void select(true)}
        aria-label="Choose this result"
      />
    );
  } else if (selectMode === "multi") {
    selector = (
      <Checkbox
        checked={!!result.selected}
        disabled={busy || save.isMutating}
        onChange={(event) => void select(event.target.checked)}
        aria-label="Choose this result"
      />
    );
  }

  return (
    <div
      className={result.selected ? "crafter-result crafter-result--selected" : "crafter-result"}
      data-testid="result-item"
      data-result-id={result.id}
      data-selected={result.selected ? "true" : "false"}
    >
      <Flex gap={12} align="flex-start">
        {selector}
        <Flex vertical gap={8} style={{ flex: 1, minWidth: 0 }}>
          {editing ? (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                void write({ content: draft }).then((ok) => ok && setEditing(false));
              }}
            >
              {result.format === "html" ? (
                <RichTextField value={draft} onChange={setDraft} label="Result text" testId="result-edit-rich" />
              ) : (
                <Input.TextArea
                  value={draft}
                  autoSize={{ minRows: 3, maxRows: 16 }}
                  aria-label="Result text"
                  data-testid="result-edit-text"
                  onChange={(event) => setDraft(event.target.value)}
                  onKeyDown={(event) => event.key === "Escape" && setEditing(false)}
                />
              )}
              <Flex gap={8} style={{ marginTop: 8 }}>
                <Button type="primary" htmlType="submit" loading={save.isMutating} data-testid="result-edit-save">
                  Save
                </Button>
                <Button onClick={() => setEditing(false)}>Cancel</Button>
              </Flex>
            </form>
          ) : (
            <Viewer result={result} />
          )}
          <ResultMeta result={result} />
        </Flex>
        {!editing && (
          <Flex gap={4}>
            {selectMode === undefined && result.selected && <Tag color="green">Selected</Tag>}
            {selectMode === undefined && !result.selected && (step.results?.length ?? 0) > 1 && (
              <Button
                type="text"
                icon={<CheckOutlined />}
                aria-label="Use this result"
                disabled={busy}
                onClick={() => void select(true)}
              />
            )}
            {result.format !== "data" && (
              <Button
                type="text"
                icon={<EditOutlined />}
                aria-label="Edit this result"
                data-testid="result-edit"
                disabled={busy}
                onClick={() => {
                  setDraft(contentText(result.content));
                  setEditing(true);
                }}
              />
            )}
            <Button
              type="text"
              danger
              icon={<DeleteOutlined />}
              aria-label="Delete this result"
              data-testid="result-delete"
              disabled={busy}
              onClick={confirmDelete}
            />
          </Flex>
        )}
      </Flex>
    </div>
  );
}

/** A user-written result (saveOrUpdateActionResult without resultId). */
function AddResult({ craftId, step, busy }: { craftId: string; step: CraftStep; busy: boolean }) {
  const save = useSaveActionResult(craftId);
  const handleError = useCraftErrorHandler();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  if (!open) {
    return (
      <Button icon={<PlusOutlined />} disabled={busy} onClick={() => setOpen(true)} data-testid="result-add">
        Write your own
      </Button>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!text.trim()) return;
        save.trigger({ stepName: step.name, content: text.trim() }).then(
          () => {
            setText("");
            setOpen(false);
          },
          (error) => handleError(error, "Could not add the result"),
        );
      }}
    >
      <Input.TextArea
        value={text}
        autoFocus
        autoSize={{ minRows: 3 }}
        aria-label="Your result"
        onChange={(event) => setText(event.target.value)}
      />
      <Flex gap={8} style={{ marginTop: 8 }}>
        <Button type="primary" htmlType="submit" loading={save.isMutating} disabled={!text.trim()}>
          Add
        </Button>
        <Button onClick={() => setOpen(false)}>Cancel</Button>
      </Flex>
    </form>
  );
}

/**
 * A step's results, editable: edit, select, delete, add one's own, and "generate more" (the
 * server answers ReachedMaxResults past the action's maxResults). IteratorStep results are
 * grouped by item.
 */
export function ResultsPanel({ craftId, step, busy, onGenerateMore }: ResultsPanelProps) {
  const results = step.results ?? [];
  const selectMode = isViewerKind(step.viewer) ? SELECT_VIEWERS[step.viewer] : undefined;
  const groups = groupByItem(step);
  return (
    <Flex vertical gap={16} data-testid={`results-${step.name}`}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Text type="secondary" data-testid="result-count">
          {resultCountLabel(results.length, step.action?.maxResults)}
        </Typography.Text>
        <Flex gap={8} wrap>
          {/* A media or design step's results are assets, not text to write. */}
          {!keepsAssets(step) && <AddResult craftId={craftId} step={step} busy={busy} />}
          {onGenerateMore && step.action?.kind === "ImageAppender" && (
            <PickImage step={step} busy={busy} onPick={(params) => onGenerateMore(step, params)} />
          )}
          {onGenerateMore && canGenerateMore(step) && (
            <Button
              icon={<ReloadOutlined />}
              onClick={() => onGenerateMore(step)}
              disabled={busy}
              data-testid={`generate-more-${step.name}`}
            >
              {generateMoreLabel(step)}
              {step.action?.credits ? ` (${creditsLabel(step.action.credits)})` : ""}
            </Button>
          )}
        </Flex>
      </Flex>
      {groups.map((group, at) => (
        <Flex key={at} vertical gap={12} data-testid={group.label ? "iterator-item" : undefined}>
          {group.label && (
            <Flex gap={8} align="center">
              <Typography.Text strong>{group.label}</Typography.Text>
              {group.state && <Tag color={stateTag(group.state).color}>{stateTag(group.state).label}</Tag>}
            </Flex>
          )}
          {group.results.length === 0 ? (
            <Typography.Text type="secondary">No results yet.</Typography.Text>
          ) : (
            group.results.map((result) => (
              <ResultItem
                key={result.id}
                craftId={craftId}
                step={step}
                result={result}
                busy={busy}
                selectMode={selectMode}
              />
            ))
          )}
        </Flex>
      ))}
    </Flex>
  );
}
