import { ASSISTANT_TONES } from "@crafter/validation";
import { Button, Card, Col, Drawer, Flex, Input, Row, Select, Switch, Table, Tabs, Typography } from "antd";
import { useState } from "react";
import {
  type AssistantSession,
  type AssistantTone,
  type LeadAssistant,
  saveLeadAssistant,
  useAssistantSession,
  useAssistantSessions,
  useLeadAssistant,
} from "../../api/leads";
import { ChipInput } from "../../shared/ChipInput";
import { notify } from "../../shared/notify";
import { ErrorState, LoadingBlock } from "../../shared/states";
import { CopyBox } from "./LeadFormPage";
import { assistantSnippet } from "./snippets";

/** /app/leads-assistant: the chat widget for the business's site (greeting, questions, tone), its sessions and transcripts. */
export default function LeadAssistantPage() {
  const { data, error, mutate } = useLeadAssistant();
  if (error && !data)
    return <ErrorState error={error} onRetry={() => void mutate()} title="We could not load your lead assistant" />;
  if (!data) return <LoadingBlock rows={8} testId="assistant-loading" />;
  return (
    <Flex vertical gap={16}>
      <div>
        <Typography.Title level={2} style={{ margin: 0 }}>
          Lead assistant
        </Typography.Title>
        <Typography.Text type="secondary">
          A chat on your site that answers from your business profile and offerings, and captures visitors who leave
          their name and email.
        </Typography.Text>
      </div>
      <Tabs
        items={[
          {
            key: "config",
            label: "Set up",
            children: <AssistantConfig assistant={data} onSaved={(a) => void mutate(a, { revalidate: false })} />,
          },
          { key: "sessions", label: "Conversations", children: <Sessions /> },
        ]}
      />
    </Flex>
  );
}

function AssistantConfig({ assistant, onSaved }: { assistant: LeadAssistant; onSaved: (a: LeadAssistant) => void }) {
  const [greeting, setGreeting] = useState(assistant.greeting ?? "");
  const [questions, setQuestions] = useState<string[]>(assistant.questions ?? []);
  const [tone, setTone] = useState<AssistantTone>(
    ASSISTANT_TONES.find((value) => value === assistant.tone) ?? "friendly",
  );
  const [enabled, setEnabled] = useState(!!assistant.enabled);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    if (!greeting.trim()) return notify.errorMessage("Not saved", "The assistant needs a greeting");
    setSaving(true);
    try {
      onSaved(await saveLeadAssistant({ greeting: greeting.trim(), questions, tone, enabled }));
      notify.success("Lead assistant saved");
    } catch (error) {
      notify.error(error, "Could not save");
    } finally {
      setSaving(false);
    }
  };

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={14}>
        <Card>
          <Flex vertical gap={12}>
            <Flex gap={8} align="center">
              <Switch checked={enabled} onChange={setEnabled} aria-label="Enabled" data-testid="assistant-enabled" />
              <Typography.Text>
                {enabled ? "On: the widget answers visitors" : "Off: the widget stays hidden"}
              </Typography.Text>
            </Flex>
            <label htmlFor="assistant-greeting">
              <Typography.Text strong>Greeting</Typography.Text>
            </label>
            <Input.TextArea
              id="assistant-greeting"
              value={greeting}
              maxLength={500}
              autoSize={{ minRows: 2, maxRows: 4 }}
              placeholder="Hi! How can we help you today?"
              onChange={(e) => setGreeting(e.target.value)}
              data-testid="assistant-greeting"
            />
            <Typography.Text strong>Questions to ask</Typography.Text>
            <ChipInput
              aria-label="Questions to ask"
              value={questions}
              onChange={setQuestions}
              maxChips={10}
              maxLength={200}
              placeholder="Type a question and press Enter"
              data-testid="assistant-questions"
            />
            <label htmlFor="assistant-tone">
              <Typography.Text strong>Tone</Typography.Text>
            </label>
            <Select
              id="assistant-tone"
              value={tone}
              onChange={setTone}
              options={ASSISTANT_TONES.map((value) => ({ value, label: value }))}
              data-testid="assistant-tone"
            />
            <div>
              <Button type="primary" loading={saving} onClick={save} data-testid="assistant-save">
                Save
              </Button>
            </div>
          </Flex>
        </Card>
      </Col>
      <Col xs={24} lg={10}>
        <Card title="Add it to your site">
          <CopyBox
            label="Widget script"
            value={assistantSnippet(window.location.origin, assistant.id)}
            testId="assistant-snippet"
          />
        </Card>
      </Col>
    </Row>
  );
}

function Sessions() {
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const { data, error, isLoading, mutate } = useAssistantSessions(page);
  if (error && !data) return <ErrorState error={error} onRetry={() => void mutate()} />;
  return (
    <Card>
      <Table<AssistantSession>
        rowKey="id"
        loading={isLoading}
        dataSource={data?.result ?? []}
        scroll={{ x: "max-content" }}
        locale={{ emptyText: "No conversations yet." }}
        pagination={{ current: page, total: data?.meta.count ?? 0, onChange: setPage }}
        columns={[
          {
            title: "Started",
            key: "at",
            render: (_, s) => {
              const at = s.startedAt;
              return at ? new Date(at).toLocaleString() : "";
            },
          },
          {
            title: "Lead",
            key: "lead",
            render: (_, s) => (s.lead ? [s.lead.name, s.lead.email].filter(Boolean).join(" · ") : "—"),
          },
          { title: "Messages", dataIndex: "messageCount" },
          {
            title: "",
            key: "open",
            render: (_, s) => (
              <Button size="small" onClick={() => setOpen(s.id)}>
                Transcript
              </Button>
            ),
          },
        ]}
      />
      <Drawer open={!!open} onClose={() => setOpen(null)} title="Transcript" size="large" destroyOnHidden>
        {open && <Transcript id={open} />}
      </Drawer>
    </Card>
  );
}

function Transcript({ id }: { id: string }) {
  const { data, error, mutate } = useAssistantSession(id);
  if (error && !data) return <ErrorState error={error} onRetry={() => void mutate()} />;
  if (!data) return <LoadingBlock rows={6} />;
  return (
    <Flex vertical gap={8} data-testid="assistant-transcript">
      {(data.messages ?? []).map((message, index) => {
        const mine = message.role !== "assistant";
        return (
          <Flex key={`${index}-${message.at ?? ""}`} justify={mine ? "flex-end" : "flex-start"}>
            <div
              style={{
                maxWidth: "85%",
                padding: "8px 12px",
                borderRadius: 12,
                background: mine ? "rgba(22,119,255,0.12)" : "rgba(0,0,0,0.05)",
                whiteSpace: "pre-wrap",
              }}
            >
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {mine ? "Visitor" : "Assistant"}
              </Typography.Text>
              <div>{message.content}</div>
            </div>
          </Flex>
        );
      })}
    </Flex>
  );
}
