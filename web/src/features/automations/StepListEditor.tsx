import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { finalDraft } from "@crafter/email-language";
import { instantAt, nextTimeOfDay, wallClockIn } from "@crafter/time";
import {
  Alert,
  AutoComplete,
  Button,
  Card,
  Checkbox,
  Dropdown,
  Flex,
  Input,
  InputNumber,
  Radio,
  Segmented,
  Select,
  Space,
  Spin,
  Typography,
} from "antd";
import { type ReactNode, useState } from "react";
import { api } from "../../api/api";
import { useTemplates } from "../../api/email";
import { useFeature } from "../../api/hooks/app";
import { useCrafts } from "../../api/hooks/crafts";
import { keys } from "../../api/keys";
import { CHANNEL_KIND_LABELS, useSocialChannels } from "../../api/social";
import type { Craft } from "../../api/types";
import { notify } from "../../shared/notify";
import { RichTextField } from "../../shared/rich-text/RichTextField";
import { useBusinessTimeZone } from "../../shared/time-zone";
import {
  addStep,
  type DurationUnit,
  durationParts,
  emailStepFromDraft,
  isoDuration,
  moveStep,
  newStep,
  OPERATORS,
  removeStep,
  replaceStep,
  STEP_LABELS,
} from "./step-tree";
import type { ConditionRule, Step, StepKind } from "./types";

/** Contact fields a condition can test (the segments' built-ins; custom fields as `custom.<key>`). */
const CONDITION_FIELDS = [
  "firstName",
  "lastName",
  "email",
  "phone",
  "company",
  "customerKind",
  "contactType",
  "tags",
  "consent",
  "source",
  "customerSince",
  "updatedOn",
].map((value) => ({ value }));

const UPDATABLE = ["firstName", "lastName", "phone", "company", "customerKind", "contactType"].map((value) => ({
  value,
}));

const KINDS = Object.keys(STEP_LABELS) as StepKind[];

interface ListProps {
  /** The whole tree (edits return a new one). */
  tree: Step[];
  /** The list shown: the top list or a condition's branch. */
  list: Step[];
  where: { parentId: string | null; branch?: "yes" | "no" };
  onChange: (tree: Step[]) => void;
  depth?: number;
}

/** A vertical list of steps; a condition shows its yes and no branches as nested lists. */
export function StepListEditor({ tree, list, where, onChange, depth = 0 }: ListProps) {
  const testBase = where.parentId ? `${where.parentId}-${where.branch}` : "top";
  const publishes = useFeature("direct_publish_social_media");
  const kinds = KINDS.filter((kind) => kind !== "publish_social_post" || publishes);
  return (
    <Flex vertical gap={8} data-testid={`step-list-${testBase}`}>
      {list.map((step, index) => (
        <StepCard
          key={step.id}
          step={step}
          first={index === 0}
          last={index === list.length - 1}
          onChange={(s) => onChange(replaceStep(tree, s))}
          onMove={(delta) => onChange(moveStep(tree, step.id, delta))}
          onRemove={() => onChange(removeStep(tree, step.id))}
        >
          {step.kind === "condition" && depth < 4 ? (
            <Flex vertical gap={12} style={{ marginTop: 12 }}>
              {(["yes", "no"] as const).map((branch) => (
                <div key={branch} style={{ borderLeft: "3px solid rgba(128,128,128,0.3)", paddingLeft: 12 }}>
                  <Typography.Text strong>{branch === "yes" ? "If yes" : "If no"}</Typography.Text>
                  <StepListEditor
                    tree={tree}
                    list={step[branch]}
                    where={{ parentId: step.id, branch }}
                    onChange={onChange}
                    depth={depth + 1}
                  />
                </div>
              ))}
            </Flex>
          ) : null}
        </StepCard>
      ))}
      <Dropdown
        trigger={["click"]}
        menu={{
          items: kinds.map((kind) => ({ key: kind, label: STEP_LABELS[kind], "data-testid": `add-step-${kind}` })),
          onClick: ({ key }) => onChange(addStep(tree, where, newStep(key as StepKind, tree))),
        }}
      >
        <Button
          icon={<PlusOutlined />}
          type="dashed"
          data-testid={`add-step-${testBase}`}
          style={{ alignSelf: "flex-start" }}
        >
          Add a step
        </Button>
      </Dropdown>
    </Flex>
  );
}

function StepCard({
  step,
  first,
  last,
  onChange,
  onMove,
  onRemove,
  children,
}: {
  step: Step;
  first: boolean;
  last: boolean;
  onChange: (step: Step) => void;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
  children?: ReactNode;
}) {
  return (
    <Card
      size="small"
      data-testid={`step-${step.id}`}
      title={STEP_LABELS[step.kind]}
      extra={
        <Space size={4}>
          <Button
            size="small"
            type="text"
            icon={<ArrowUpOutlined />}
            aria-label="Move up"
            disabled={first}
            onClick={() => onMove(-1)}
          />
          <Button
            size="small"
            type="text"
            icon={<ArrowDownOutlined />}
            aria-label="Move down"
            disabled={last}
            onClick={() => onMove(1)}
          />
          <Button
            size="small"
            type="text"
            danger
            icon={<DeleteOutlined />}
            aria-label={`Remove ${step.id}`}
            onClick={onRemove}
          />
        </Space>
      }
    >
      <StepFields step={step} onChange={onChange} />
      {children}
    </Card>
  );
}

function WaitFields({ step, onChange }: { step: Extract<Step, { kind: "wait" }>; onChange: (step: Step) => void }) {
  // Times are the business's, whatever the zone of the browser that edits them.
  const { zone } = useBusinessTimeZone();
  const parts = durationParts(step.duration) ?? { amount: 1, unit: "days" as DurationUnit };
  const mode = step.at !== undefined ? "at" : step.until !== undefined ? "until" : "duration";
  return (
    <Flex vertical gap={8}>
      <Radio.Group
        value={mode}
        onChange={(e) =>
          onChange(
            e.target.value === "until"
              ? { id: step.id, kind: "wait", until: nextTimeOfDay(new Date(), "09:00", zone).toISOString() }
              : e.target.value === "at"
                ? { id: step.id, kind: "wait", at: "09:00" }
                : { id: step.id, kind: "wait", duration: "P1D" },
          )
        }
        options={[
          { value: "duration", label: "For a while" },
          { value: "at", label: "Until a time of day" },
          { value: "until", label: "Until a date" },
        ]}
      />
      {mode === "at" ? (
        <Space wrap>
          <Input
            type="time"
            aria-label="Wait until the time of day"
            value={step.at}
            required
            onChange={(e) => e.target.value && onChange({ ...step, at: e.target.value.slice(0, 5) })}
            style={{ width: 140 }}
          />
          <Typography.Text type="secondary">the next time it is this hour in {zone.replace(/_/g, " ")}</Typography.Text>
        </Space>
      ) : mode === "until" ? (
        <Space wrap>
          <Input
            type="datetime-local"
            aria-label="Wait until"
            value={step.until ? wallClockIn(new Date(step.until), zone).slice(0, 16) : ""}
            onChange={(e) => {
              const at = instantAt(e.target.value, zone);
              if (at) onChange({ ...step, until: at.toISOString() });
            }}
          />
          <Typography.Text type="secondary">{zone.replace(/_/g, " ")}</Typography.Text>
        </Space>
      ) : (
        <Space.Compact>
          <InputNumber
            min={1}
            max={999}
            aria-label="How long"
            value={parts.amount}
            onChange={(v) => onChange({ ...step, duration: isoDuration(Number(v ?? 1), parts.unit) })}
          />
          <Select<DurationUnit>
            aria-label="Unit"
            value={parts.unit}
            style={{ width: 120 }}
            onChange={(unit) => onChange({ ...step, duration: isoDuration(parts.amount, unit) })}
            options={["minutes", "hours", "days", "weeks"].map((u) => ({ value: u, label: u }))}
          />
        </Space.Compact>
      )}
    </Flex>
  );
}

function StepFields({ step, onChange }: { step: Step; onChange: (step: Step) => void }) {
  switch (step.kind) {
    case "wait":
      return <WaitFields step={step} onChange={onChange} />;
    case "condition":
      return (
        <Flex vertical gap={8}>
          <Space wrap>
            <Typography.Text>Continue on “yes” when</Typography.Text>
            <Select
              aria-label="All or any"
              value={step.query.combinator}
              style={{ width: 90 }}
              onChange={(combinator) => onChange({ ...step, query: { ...step.query, combinator } })}
              options={[
                { value: "and", label: "all" },
                { value: "or", label: "any" },
              ]}
            />
            <Typography.Text>of these hold</Typography.Text>
          </Space>
          {step.query.rules.map((node, i) =>
            "rules" in node ? null : (
              <RuleRow
                key={i}
                rule={node}
                onChange={(rule) =>
                  onChange({
                    ...step,
                    query: { ...step.query, rules: step.query.rules.map((r, j) => (j === i ? rule : r)) },
                  })
                }
                onRemove={() =>
                  onChange({ ...step, query: { ...step.query, rules: step.query.rules.filter((_, j) => j !== i) } })
                }
              />
            ),
          )}
          <Button
            size="small"
            icon={<PlusOutlined />}
            style={{ alignSelf: "flex-start" }}
            onClick={() =>
              onChange({
                ...step,
                query: {
                  ...step.query,
                  rules: [...step.query.rules, { field: "tags", operator: "contains", value: "" }],
                },
              })
            }
          >
            Add a rule
          </Button>
        </Flex>
      );
    case "send_email":
      return <SendEmailFields step={step} onChange={onChange} />;
    case "add_tag":
    case "remove_tag":
      return (
        <Input
          aria-label="Tag"
          placeholder="Tag"
          maxLength={80}
          value={step.tag}
          onChange={(e) => onChange({ ...step, tag: e.target.value })}
          data-testid={`step-${step.id}-tag`}
        />
      );
    case "update_field":
      return (
        <Space wrap>
          <AutoComplete
            aria-label="Field"
            style={{ width: 180 }}
            options={UPDATABLE}
            value={step.field}
            onChange={(field) => onChange({ ...step, field })}
            placeholder="field or custom.key"
          />
          <Input
            aria-label="Value"
            placeholder="Value"
            value={String(step.value ?? "")}
            onChange={(e) => onChange({ ...step, value: e.target.value })}
          />
        </Space>
      );
    case "publish_social_post":
      return <PublishSocialFields step={step} onChange={onChange} />;
    case "notify_owner":
      return (
        <Flex vertical gap={8}>
          <Input
            aria-label="Notification title"
            placeholder="Title"
            maxLength={200}
            value={step.title}
            onChange={(e) => onChange({ ...step, title: e.target.value })}
          />
          <Select
            aria-label="Level"
            value={step.level ?? "info"}
            style={{ width: 140 }}
            onChange={(level) => onChange({ ...step, level })}
            options={["info", "success", "warning", "error"].map((v) => ({ value: v, label: v }))}
          />
        </Flex>
      );
  }
}

function RuleRow({
  rule,
  onChange,
  onRemove,
}: {
  rule: ConditionRule;
  onChange: (r: ConditionRule) => void;
  onRemove: () => void;
}) {
  return (
    <Space wrap>
      <AutoComplete
        aria-label="Field"
        style={{ width: 160 }}
        options={CONDITION_FIELDS}
        value={rule.field}
        onChange={(field) => onChange({ ...rule, field })}
      />
      <Select
        aria-label="Operator"
        style={{ width: 130 }}
        value={rule.operator}
        onChange={(operator) => onChange({ ...rule, operator })}
        options={OPERATORS.map((o) => ({ value: o, label: o }))}
      />
      {rule.operator === "hasValue" ? (
        <Select
          aria-label="Has a value"
          style={{ width: 90 }}
          value={rule.value === false ? "false" : "true"}
          onChange={(v) => onChange({ ...rule, value: v === "true" })}
          options={[
            { value: "true", label: "yes" },
            { value: "false", label: "no" },
          ]}
        />
      ) : (
        <Input
          aria-label="Value"
          style={{ width: 160 }}
          placeholder={rule.operator === "in" || rule.operator === "not in" ? "a, b, c" : "value"}
          value={Array.isArray(rule.value) ? rule.value.join(", ") : String(rule.value ?? "")}
          onChange={(e) =>
            onChange({
              ...rule,
              value:
                rule.operator === "in" || rule.operator === "not in"
                  ? e.target.value
                      .split(",")
                      .map((v) => v.trim())
                      .filter(Boolean)
                  : e.target.value,
            })
          }
        />
      )}
      <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label="Remove rule" onClick={onRemove} />
    </Space>
  );
}

type SendEmailStep = Extract<Step, { kind: "send_email" }>;

/**
 * A send-email step's content: written here (rich text with smart values, optionally filled from
 * an email craft's draft) or a saved template.
 */
function SendEmailFields({ step, onChange }: { step: SendEmailStep; onChange: (step: Step) => void }) {
  const source = step.templateId ? "template" : "write";
  const mine = useTemplates("email", "user", 1, source === "template");
  const predefined = useTemplates("email", "predefined", 1, source === "template");
  const crafts = useCrafts(1, 50, { workflowName: "EmailWriter" }, source === "write");
  const [filling, setFilling] = useState(false);
  const templateOptions = [
    ...(mine.data?.result ?? []).map((t) => ({ value: t.id, label: `${t.name} (mine)` })),
    ...(predefined.data?.result ?? []).map((t) => ({ value: t.id, label: t.name })),
  ];
  const fillFromCraft = async (craftId: string) => {
    setFilling(true);
    try {
      const craft = await api.get<Craft>(keys.craft(craftId));
      const filled = emailStepFromDraft(finalDraft(craft.steps ?? []), []);
      if (filled?.kind !== "send_email") {
        notify.warning("Nothing to fill in", "This craft has no email draft yet.");
        return;
      }
      onChange({ ...step, subject: filled.subject, preheader: filled.preheader, html: filled.html });
    } catch (error) {
      notify.error(error, "Could not read the craft");
    } finally {
      setFilling(false);
    }
  };
  return (
    <Flex vertical gap={8}>
      <Segmented
        aria-label="Email content"
        value={source}
        onChange={(next) =>
          onChange(
            next === "template"
              ? { id: step.id, kind: "send_email", templateId: step.templateId ?? "" }
              : { id: step.id, kind: "send_email", subject: step.subject ?? "", html: step.html ?? "" },
          )
        }
        options={[
          { value: "write", label: "Write it" },
          { value: "template", label: "A template" },
        ]}
        data-testid={`step-${step.id}-source`}
      />
      {source === "template" ? (
        <Select
          aria-label="Template"
          showSearch
          optionFilterProp="label"
          loading={mine.isLoading || predefined.isLoading}
          options={templateOptions}
          placeholder="Choose a template"
          value={step.templateId || undefined}
          onChange={(templateId: string) => onChange({ id: step.id, kind: "send_email", templateId })}
          data-testid={`step-${step.id}-template`}
        />
      ) : (
        <>
          <Select
            aria-label="Fill from an email craft"
            showSearch
            optionFilterProp="label"
            loading={crafts.isLoading || filling}
            disabled={filling}
            options={(crafts.data?.crafts ?? []).map((c) => ({ value: c.craftId, label: c.craftName }))}
            placeholder="Fill from an email craft (optional)"
            notFoundContent="No email crafts yet: write one with Create → Email."
            value={null}
            onChange={(craftId: string) => void fillFromCraft(craftId)}
            data-testid={`step-${step.id}-craft`}
          />
          <Input
            aria-label="Subject"
            placeholder="Subject"
            value={step.subject ?? ""}
            maxLength={200}
            onChange={(e) => onChange({ ...step, subject: e.target.value })}
            data-testid={`step-${step.id}-subject`}
          />
          <RichTextField
            label="Email body"
            smartValues
            value={step.html ?? ""}
            onChange={(html) => onChange({ ...step, html })}
            testId={`step-${step.id}-body`}
          />
          <Typography.Text type="secondary">
            Add a contact's name or email with “Smart value”. Sent only to subscribed contacts.
          </Typography.Text>
        </>
      )}
    </Flex>
  );
}

type PublishSocialStep = Extract<Step, { kind: "publish_social_post" }>;

/**
 * A publish step's craft (a social media post) and channels: the ones ticked, or none for the
 * project's chosen channels. Saving the automation reads the craft's post and image into the step,
 * shown here once saved.
 */
function PublishSocialFields({ step, onChange }: { step: PublishSocialStep; onChange: (step: Step) => void }) {
  const crafts = useCrafts(1, 50, { workflowName: "SocialMediaPostWriter" });
  const channels = useSocialChannels();
  const offered = channels.data?.channels ?? [];
  return (
    <Flex vertical gap={8}>
      <Select
        aria-label="Social post craft"
        showSearch
        optionFilterProp="label"
        loading={crafts.isLoading}
        options={(crafts.data?.crafts ?? []).map((c) => ({ value: c.craftId, label: c.craftName }))}
        placeholder="Choose a social post craft"
        notFoundContent="No social posts yet: craft one with Create → Social media post."
        value={step.craftId || undefined}
        onChange={(craftId: string) => onChange({ ...step, craftId, post: undefined })}
        data-testid={`step-${step.id}-craft`}
      />
      <Typography.Text type="secondary">
        Channels (none ticked: the ones chosen in Settings › Integrations)
      </Typography.Text>
      {channels.isLoading ? (
        <Spin size="small" aria-label="Loading the channels" />
      ) : offered.length === 0 ? (
        <Alert
          type="info"
          showIcon
          message="No channel is connected: connect Meta or TikTok in Settings › Integrations."
          data-testid={`step-${step.id}-no-channels`}
        />
      ) : (
        <Checkbox.Group
          value={step.channelIds}
          onChange={(ids) => onChange({ ...step, channelIds: ids as string[] })}
          data-testid={`step-${step.id}-channels`}
        >
          <Flex vertical gap={4}>
            {offered.map((channel) => (
              <Checkbox key={channel.id} value={channel.id} data-testid={`step-${step.id}-channel-${channel.id}`}>
                {channel.name} <Typography.Text type="secondary">{CHANNEL_KIND_LABELS[channel.kind]}</Typography.Text>
              </Checkbox>
            ))}
          </Flex>
        </Checkbox.Group>
      )}
      {step.post ? (
        <Typography.Paragraph
          type="secondary"
          ellipsis={{ rows: 3, expandable: true, symbol: "more" }}
          style={{ marginBottom: 0, whiteSpace: "pre-wrap" }}
          data-testid={`step-${step.id}-post`}
        >
          {step.post.text}
        </Typography.Paragraph>
      ) : null}
      <Typography.Text type="secondary">
        Published once each time a contact reaches this step; saving reads the craft's post and image as they are then.
      </Typography.Text>
    </Flex>
  );
}
