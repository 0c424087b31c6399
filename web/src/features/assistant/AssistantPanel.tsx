import { ClearOutlined, ImportOutlined, SendOutlined } from "@ant-design/icons";
import { Alert, Button, Drawer, Flex, Input, Typography } from "antd";
import { useEffect, useRef, useState } from "react";
import { useLocation, useSearchParams } from "react-router-dom";
import { api } from "../../api/api";
import { useInitial } from "../../api/hooks/app";
import { useCraft } from "../../api/hooks/crafts";
import { paths } from "../../api/paths";
import { countLabel, formatNumber, humanize } from "../../shared/format";
import { notify } from "../../shared/notify";
import { useUpgradeModal } from "../billing/useUpgradeModal";
import { useActiveProfile } from "../projects/context";
import {
  ASSISTANT_CHAT_CAP,
  addMessage,
  type ChatState,
  canSend,
  chatRequest,
  contextLine,
  EMPTY_CHAT,
  isTooLong,
  replyMessage,
} from "./chat";
import { useAnswerTarget } from "./handoff";

/**
 * The assistant chat (spec sections 3 and 4): sends the whole conversation to
 * `POST /api/assistant/chat { messages, profileId?, craftId? }` and appends the reply `{ message }`.
 * It tells the assistant the context selector's profile and, on a craft page, the open craft
 * (shown as "Using: …"); each answer can be put into the open step's form ("Use in craft").
 * Past 163840 characters the chat is flagged too long and sending is disabled until Clear.
 */
export function AssistantPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [chat, setChat] = useState<ChatState>(EMPTY_CHAT);
  const [draft, setDraft] = useState("");
  const [sending, setSending] = useState(false);
  const end = useRef<HTMLDivElement>(null);
  const tooLong = isTooLong(chat);
  const upgrade = useUpgradeModal();
  const { data: initial } = useInitial();
  const active = useActiveProfile();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const craftId = pathname.startsWith("/app/crafts/") ? params.get("craftId") : null;
  // The craft page's own SWR entry: no extra request when the page has loaded it.
  const { data: craft } = useCraft(open ? craftId : null);
  const target = useAnswerTarget();
  const business = initial?.activeProjectInfo?.profile?.name;
  const using = contextLine({
    business,
    profile: active && active.profileType !== "PROJECT" ? active.name : null,
    craft: craft ? craft.craftName || humanize(craft.workflowName) : null,
  });

  const handToCraft = (answer: string) => {
    if (!target) return;
    const placed = target.insert(answer);
    if (!placed) {
      notify.errorMessage("Nothing to put it in", "This step has no text field for the answer.");
      return;
    }
    if (placed.overLimit) {
      notify.warning(
        `Added to “${placed.label}”`,
        "It is longer than the field allows: shorten it before you continue.",
      );
    } else {
      notify.success(`Added to “${placed.label}”`, "Review it, then save or continue the step as usual.");
    }
    // The drawer covers the form: close it so the user sees the answer in place (the chat is kept).
    onClose();
  };

  useEffect(() => {
    if (chat.count > 0) end.current?.scrollIntoView?.({ block: "end" });
  }, [chat.count]);

  const send = async () => {
    if (!canSend(chat, draft) || sending) return;
    const withQuestion = addMessage(chat, { content: draft.trim() });
    setChat(withQuestion);
    setDraft("");
    setSending(true);
    try {
      const result = await api.post<unknown>(
        paths.assistantChat,
        chatRequest(withQuestion.messages, { profileId: active?.profileId, craftId }),
      );
      const reply = replyMessage(result);
      if (reply) setChat((current) => addMessage(current, reply));
      else notify.errorMessage("The assistant did not answer", "Please try again.");
    } catch (error) {
      // Out of free credits or over a plan limit: the upgrade modal, else a toast.
      if (!upgrade(error)) notify.error(error, "The assistant could not answer");
    } finally {
      setSending(false);
    }
  };

  return (
    <Drawer
      title="Assistant"
      open={open}
      onClose={onClose}
      size={420}
      data-testid="assistant-panel"
      extra={
        <Button
          icon={<ClearOutlined />}
          onClick={() => setChat(EMPTY_CHAT)}
          disabled={chat.count === 0 || sending}
          data-testid="assistant-clear"
        >
          Clear
        </Button>
      }
      footer={
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void send();
          }}
        >
          <Flex vertical gap={8}>
            {tooLong && (
              <Alert
                type="warning"
                showIcon
                data-testid="assistant-too-long"
                title="This conversation is too long."
                description={`It has passed ${countLabel(ASSISTANT_CHAT_CAP, "character")}. Clear it to start a new one.`}
              />
            )}
            <Input.TextArea
              value={draft}
              autoSize={{ minRows: 2, maxRows: 8 }}
              placeholder="Ask the assistant…"
              aria-label="Message to the assistant"
              disabled={tooLong}
              data-testid="assistant-input"
              onChange={(event) => setDraft(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
                  event.preventDefault();
                  void send();
                }
              }}
            />
            <Flex justify="space-between" align="center">
              <Typography.Text type="secondary" data-testid="assistant-count">
                {countLabel(chat.count, "message")} · {formatNumber(chat.totalLength)} /{" "}
                {countLabel(ASSISTANT_CHAT_CAP, "character")}
              </Typography.Text>
              <Button
                type="primary"
                htmlType="submit"
                icon={<SendOutlined />}
                loading={sending}
                disabled={!canSend(chat, draft)}
                data-testid="assistant-send"
              >
                Send
              </Button>
            </Flex>
          </Flex>
        </form>
      }
    >
      {using && (
        <Typography.Text
          type="secondary"
          data-testid="assistant-context"
          style={{ display: "block", marginBottom: 12 }}
        >
          {using}
        </Typography.Text>
      )}
      <Flex vertical gap={12} aria-live="polite" data-testid="assistant-messages">
        {chat.count === 0 && (
          <Typography.Text type="secondary">Ask for ideas, rewrites or help with your marketing.</Typography.Text>
        )}
        {chat.messages.map((message, index) => (
          <div
            key={index}
            className={
              message.type === "message" ? "crafter-chat crafter-chat--user" : "crafter-chat crafter-chat--assistant"
            }
            data-testid="assistant-message"
            data-type={message.type}
          >
            <Typography.Paragraph style={{ whiteSpace: "pre-wrap", margin: 0 }}>{message.content}</Typography.Paragraph>
            {target && message.type !== "message" && message.content.trim() && (
              <Button
                size="small"
                type="link"
                icon={<ImportOutlined />}
                style={{ paddingInline: 0 }}
                aria-label={`Use this answer in the step “${target.stepTitle}”`}
                onClick={() => handToCraft(message.content)}
                data-testid="assistant-use-in-craft"
              >
                Use in craft
              </Button>
            )}
          </div>
        ))}
        <div ref={end} />
      </Flex>
    </Drawer>
  );
}
