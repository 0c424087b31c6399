import { CopyOutlined, UnorderedListOutlined } from "@ant-design/icons";
import { htmlToText } from "@crafter/html/text";
import { Alert, Button, Card, Flex, Tag } from "antd";
import { useState } from "react";
import type { Craft, StepResult } from "../../../api/types";
import { notify } from "../../../shared/notify";
import { finalDraft } from "../final-draft";
import { contentText, viewerFor } from "./viewers";

/** Copies the draft as rich HTML (with a plain-text twin), falling back to plain text. */
async function copyDraft(result: StepResult): Promise<void> {
  const raw = contentText(result.content);
  const isHtml = result.format === "html" || /<\/?[a-z][^>]*>/i.test(raw);
  const text = isHtml ? htmlToText(raw) : raw;
  if (isHtml && typeof ClipboardItem !== "undefined" && navigator.clipboard?.write) {
    try {
      await navigator.clipboard.write([
        new ClipboardItem({
          "text/html": new Blob([raw], { type: "text/html" }),
          "text/plain": new Blob([text], { type: "text/plain" }),
        }),
      ]);
      return;
    } catch {
      // Some browsers refuse rich items; plain text below.
    }
  }
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  const copied = document.execCommand("copy");
  area.remove();
  if (!copied) throw new Error("Your browser did not allow copying. Select the text and copy it instead.");
}

/** The Result state of a craft page: the final draft, Copy, and the engine's note. */
export function ResultView({ craft, onShowSteps }: { craft: Craft; onShowSteps: () => void }) {
  const draft = finalDraft(craft);
  const [copying, setCopying] = useState(false);

  const onCopy = async () => {
    if (!draft) return;
    setCopying(true);
    try {
      await copyDraft(draft.result);
      notify.success("Copied", "The draft is on your clipboard.");
    } catch (error) {
      notify.error(error, "Could not copy");
    } finally {
      setCopying(false);
    }
  };

  const Viewer = draft ? viewerFor(draft.step.viewer, draft.result) : null;

  return (
    <Flex vertical gap={16} data-testid="craft-result">
      <Card
        title={draft?.step.title || "Your draft"}
        extra={
          <Flex gap={8}>
            <Button icon={<UnorderedListOutlined />} onClick={onShowSteps} data-testid="view-steps">
              Back to steps
            </Button>
            <Button
              type="primary"
              icon={<CopyOutlined />}
              onClick={() => void onCopy()}
              loading={copying}
              disabled={!draft}
              data-testid="copy-draft"
            >
              Copy
            </Button>
          </Flex>
        }
      >
        {draft && Viewer ? (
          <Flex vertical gap={16}>
            {draft.result.note && (
              <Alert
                type="info"
                showIcon
                data-testid="result-note"
                title={draft.result.note}
                action={draft.result.framework ? <Tag>Framework: {draft.result.framework}</Tag> : undefined}
              />
            )}
            <div data-testid="final-draft">
              <Viewer result={draft.result} />
            </div>
          </Flex>
        ) : (
          <Alert type="warning" showIcon title="This craft has no draft yet." />
        )}
      </Card>
    </Flex>
  );
}
