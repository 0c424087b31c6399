import { finalDraft } from "@crafter/email-language";
import { zodResolver } from "@hookform/resolvers/zod";
import {
  Alert,
  Button,
  Card,
  Flex,
  Input,
  InputNumber,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Timeline,
  Typography,
} from "antd";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useNavigate, useParams, useSearchParams } from "react-router-dom";
import { z } from "zod";
import { itemsOf, useCustomFields, useSegments } from "../../api/contacts";
import { ApiError } from "../../api/errors";
import { useCraft } from "../../api/hooks/crafts";
import { notify } from "../../shared/notify";
import { ErrorState, LoadingBlock } from "../../shared/states";
import { AddressWarning, useAddressMissing } from "../email/business-address";
import { STATUS_COLORS } from "./AutomationsPage";
import { useAutomation, useAutomationRuns, useAutomationWrites, useEmailChoices } from "./api";
import { emailChoiceOptions } from "./email-choices";
import { AUTOMATION_PAGES } from "./paths";
import { StepListEditor } from "./StepListEditor";
import { dateFieldOptions, emailStepFromDraft, offsetLabel, sendsEmail, TRIGGER_LABELS } from "./step-tree";
import type { Automation, AutomationRun, Step, TriggerKind } from "./types";

const TRIGGERS = Object.keys(TRIGGER_LABELS) as TriggerKind[];

const schema = z
  .object({
    name: z.string().trim().min(1, "Give the automation a name").max(120, "A name has at most 120 characters"),
    kind: z.enum(TRIGGERS as [TriggerKind, ...TriggerKind[]]),
    tag: z.string().trim().max(80).optional(),
    segmentId: z.string().max(64).optional(),
    campaignId: z.string().trim().max(64).optional(),
    field: z.string().trim().max(80).optional(),
    offsetDays: z
      .number({ error: "Days are a whole number" })
      .int("Days are a whole number")
      .min(-365, "At most 365 days before")
      .max(365, "At most 365 days after")
      .optional(),
  })
  .superRefine((v, ctx) => {
    if (v.kind === "tag_added" && !v.tag) ctx.addIssue({ code: "custom", path: ["tag"], message: "Choose a tag" });
    if (v.kind === "segment_entered" && !v.segmentId) {
      ctx.addIssue({ code: "custom", path: ["segmentId"], message: "Choose a segment" });
    }
    if (v.kind === "date_field" && !v.field)
      ctx.addIssue({ code: "custom", path: ["field"], message: "Choose a date field" });
  });
type FormValues = z.infer<typeof schema>;

function valuesOf(a: Automation | undefined): FormValues {
  return {
    name: a?.name ?? "New automation",
    kind: a?.trigger.kind ?? "lead_captured",
    tag: a?.trigger.tag ?? "",
    segmentId: a?.trigger.segmentId ?? "",
    campaignId: a?.trigger.campaignId ?? "",
    field: a?.trigger.field ?? "",
    offsetDays: a?.trigger.offsetDays,
  };
}

/** /app/automation/:id (or "new"): the flow builder (a trigger, then steps) and the run history. */
export default function AutomationPage() {
  const { automationId = "new" } = useParams();
  const isNew = automationId === "new";
  const { data, error, isLoading, mutate } = useAutomation(isNew ? undefined : automationId);
  // "Use in automation" on an email craft: a new automation whose first step sends that email.
  const [searchParams] = useSearchParams();
  const craftId = isNew ? searchParams.get("craftId") : null;
  const craft = useCraft(craftId);
  if (craftId) {
    if (craft.error)
      return (
        <ErrorState error={craft.error} onRetry={() => void craft.mutate()} title="We could not load the email craft" />
      );
    if (!craft.data) return <LoadingBlock rows={8} testId="automation-loading" />;
    const step = emailStepFromDraft(finalDraft(craft.data.steps ?? []), []);
    return (
      <Builder
        key={`craft-${craftId}`}
        automation={undefined}
        initialSteps={step ? [step] : []}
        initialName={craft.data.craftName}
      />
    );
  }
  if (!isNew && error && !data) {
    return <ErrorState error={error} onRetry={() => void mutate()} title="We could not load this automation" />;
  }
  if (!isNew && (isLoading || !data)) return <LoadingBlock rows={8} testId="automation-loading" />;
  return <Builder key={data?.id ?? "new"} automation={data} />;
}

function Builder({
  automation,
  initialSteps = [],
  initialName,
}: {
  automation: Automation | undefined;
  initialSteps?: Step[];
  initialName?: string;
}) {
  const navigate = useNavigate();
  const writes = useAutomationWrites();
  const [steps, setSteps] = useState<Step[]>(automation?.steps ?? initialSteps);
  const [serverProblem, setServerProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const segments = useSegments();
  const customFields = useCustomFields();
  const {
    control,
    handleSubmit,
    watch,
    formState: { errors, isDirty },
    reset,
  } = useForm<FormValues>({
    resolver: zodResolver(schema),
    defaultValues: { ...valuesOf(automation), ...(initialName ? { name: initialName.slice(0, 120) } : {}) },
    mode: "onTouched",
  });
  const [stepsDirty, setStepsDirty] = useState(initialSteps.length > 0);
  const kind = watch("kind");
  const emailChoices = useEmailChoices(kind === "email_opened" || kind === "email_clicked");
  // Its emails carry the business's postal address: without one it is not switched on (as campaigns are not sent).
  const addressMissing = useAddressMissing();
  const needsAddress = addressMissing === true && sendsEmail(steps);

  const save = handleSubmit(async (v) => {
    setSaving(true);
    setServerProblem(null);
    const trigger = {
      kind: v.kind,
      ...(v.kind === "tag_added" ? { tag: v.tag } : {}),
      ...(v.kind === "segment_entered" ? { segmentId: v.segmentId } : {}),
      ...((v.kind === "email_opened" || v.kind === "email_clicked") && v.campaignId
        ? { campaignId: v.campaignId }
        : {}),
      ...(v.kind === "date_field" ? { field: v.field, offsetDays: v.offsetDays ?? 0 } : {}),
    };
    try {
      const input = { name: v.name, trigger, steps };
      const saved = automation ? await writes.update(automation.id, input) : await writes.create(input);
      reset(valuesOf(saved));
      setStepsDirty(false);
      notify.success("Automation saved");
      if (!automation) navigate(AUTOMATION_PAGES.automation(saved.id), { replace: true });
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fields).length > 0) {
        setServerProblem(Object.values(err.fields).join(" "));
      } else notify.error(err, "Could not save");
    } finally {
      setSaving(false);
    }
  });

  const toggle = async () => {
    if (!automation) return;
    try {
      await writes.setActive(automation.id, automation.status !== "active");
    } catch (err) {
      notify.error(err, "Could not change the automation");
    }
  };

  const dirty = isDirty || stepsDirty;
  const builder = (
    <form onSubmit={(e) => void save(e)}>
      <Flex vertical gap={16}>
        <Card title="When" size="small">
          <Flex vertical gap={8}>
            <Controller
              name="kind"
              control={control}
              render={({ field }) => (
                <Select
                  {...field}
                  aria-label="Trigger"
                  data-testid="automation-trigger"
                  style={{ maxWidth: 420 }}
                  options={TRIGGERS.map((t) => ({ value: t, label: TRIGGER_LABELS[t] }))}
                />
              )}
            />
            {kind === "tag_added" && (
              <Controller
                name="tag"
                control={control}
                render={({ field }) => (
                  <Input
                    {...field}
                    aria-label="Tag"
                    placeholder="Tag"
                    status={errors.tag ? "error" : undefined}
                    style={{ maxWidth: 260 }}
                  />
                )}
              />
            )}
            {kind === "segment_entered" && (
              <Controller
                name="segmentId"
                control={control}
                render={({ field }) => (
                  <Select
                    {...field}
                    value={field.value || undefined}
                    aria-label="Segment"
                    data-testid="automation-segment"
                    placeholder="Choose a segment"
                    showSearch
                    optionFilterProp="label"
                    loading={segments.isLoading}
                    status={errors.segmentId ? "error" : undefined}
                    notFoundContent={segments.error ? "Segments could not be loaded" : "No segments yet"}
                    style={{ maxWidth: 320 }}
                    options={itemsOf(segments.data).map((s) => ({ value: s.id, label: s.name }))}
                  />
                )}
              />
            )}
            {(kind === "email_opened" || kind === "email_clicked") && (
              <Controller
                name="campaignId"
                control={control}
                render={({ field }) => (
                  <Select
                    {...field}
                    value={field.value ?? ""}
                    aria-label="Which email"
                    data-testid="automation-campaign"
                    showSearch
                    optionFilterProp="label"
                    placeholder="Search campaigns and automations"
                    loading={emailChoices.isLoading}
                    notFoundContent={emailChoices.error ? "Campaigns could not be loaded" : "No email by that name"}
                    style={{ maxWidth: 360 }}
                    options={emailChoiceOptions(
                      emailChoices.data?.campaigns ?? [],
                      emailChoices.data?.automations ?? [],
                      automation?.id,
                    )}
                  />
                )}
              />
            )}
            {kind === "date_field" && (
              <Space wrap>
                <Controller
                  name="field"
                  control={control}
                  render={({ field }) => (
                    <Select
                      {...field}
                      value={field.value || undefined}
                      aria-label="Date field"
                      data-testid="automation-date-field"
                      placeholder="Choose a date field"
                      loading={customFields.isLoading}
                      status={errors.field ? "error" : undefined}
                      style={{ minWidth: 240 }}
                      options={dateFieldOptions(customFields.data ?? [])}
                    />
                  )}
                />
                <Controller
                  name="offsetDays"
                  control={control}
                  render={({ field }) => (
                    <InputNumber
                      value={field.value}
                      onChange={(v) => field.onChange(v ?? undefined)}
                      aria-label="Days before (-) or after"
                      addonAfter="days"
                      status={errors.offsetDays ? "error" : undefined}
                      min={-365}
                      max={365}
                      precision={0}
                    />
                  )}
                />
                <Typography.Text type="secondary">{offsetLabel(watch("offsetDays"))}, in UTC</Typography.Text>
              </Space>
            )}
            {kind === "date_field" && (
              <Typography.Text type="secondary">
                Runs once a year for each contact whose date (month and day, UTC) comes round. Add a birthday as a
                custom date field in contact settings.
              </Typography.Text>
            )}
            {(errors.tag || errors.segmentId || errors.field || errors.offsetDays) && (
              <Typography.Text type="danger" data-testid="automation-trigger-error">
                {errors.tag?.message ??
                  errors.segmentId?.message ??
                  errors.field?.message ??
                  errors.offsetDays?.message}
              </Typography.Text>
            )}
          </Flex>
        </Card>
        <Card title="Then" size="small">
          <StepListEditor
            tree={steps}
            list={steps}
            where={{ parentId: null }}
            onChange={(next) => {
              setSteps(next);
              setStepsDirty(true);
            }}
          />
        </Card>
        {serverProblem && <Alert type="error" showIcon message={serverProblem} data-testid="automation-problem" />}
      </Flex>
    </form>
  );

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <Flex vertical gap={4} style={{ flex: "1 1 260px", minWidth: 0 }}>
          <Controller
            name="name"
            control={control}
            render={({ field }) => (
              <Input
                {...field}
                aria-label="Name"
                size="large"
                maxLength={120}
                status={errors.name ? "error" : undefined}
                data-testid="automation-name"
              />
            )}
          />
          {errors.name && <Typography.Text type="danger">{errors.name.message}</Typography.Text>}
        </Flex>
        <Space wrap>
          {automation && (
            <Tag color={STATUS_COLORS[automation.status]} data-testid="automation-status">
              {automation.status}
            </Tag>
          )}
          <Button
            type="primary"
            loading={saving}
            onClick={() => void save()}
            disabled={!!automation && !dirty}
            data-testid="automation-save"
          >
            Save
          </Button>
          {automation && (
            <Button
              onClick={() => void toggle()}
              disabled={dirty || automation.steps.length === 0 || (needsAddress && automation.status !== "active")}
              data-testid="automation-toggle"
            >
              {automation.status === "active" ? "Pause" : automation.status === "paused" ? "Resume" : "Activate"}
            </Button>
          )}
        </Space>
      </Flex>
      {needsAddress && (
        <AddressWarning
          testId="automation-address-missing"
          description="Every marketing email must show your business's physical postal address (the CAN-SPAM Act). Add it to the business profile before you switch this automation on: its email steps do not send without it."
        />
      )}
      {automation && (
        <Typography.Text type="secondary" data-testid="automation-stats">
          {automation.stats.running} running · {automation.stats.completed} completed · {automation.stats.failed} failed
        </Typography.Text>
      )}
      {automation ? (
        <Tabs
          items={[
            { key: "flow", label: "Flow", children: builder },
            { key: "runs", label: "Run history", children: <Runs automation={automation} /> },
          ]}
        />
      ) : (
        builder
      )}
    </Flex>
  );
}

const RUN_COLORS: Record<AutomationRun["status"], string> = { running: "blue", completed: "green", failed: "red" };

/** The automation's runs, newest first; each expands to its steps. */
export function Runs({ automation }: { automation: Automation }) {
  const [page, setPage] = useState(1);
  const { data, error, isLoading, mutate } = useAutomationRuns(automation.id, page);
  if (error && !data)
    return <ErrorState error={error} onRetry={() => void mutate()} title="We could not load the runs" />;
  return (
    <RunsTable
      runs={data?.result ?? []}
      loading={isLoading}
      total={data?.meta.count ?? 0}
      page={page}
      onPage={setPage}
    />
  );
}

export function RunsTable({
  runs,
  loading,
  total,
  page,
  onPage,
  showAutomation = false,
}: {
  runs: AutomationRun[];
  loading: boolean;
  total: number;
  page: number;
  onPage: (page: number) => void;
  showAutomation?: boolean;
}) {
  return (
    <Table<AutomationRun>
      rowKey="id"
      loading={loading}
      dataSource={runs}
      scroll={{ x: "max-content" }}
      data-testid="automation-runs"
      locale={{ emptyText: "No runs yet: they start when the trigger happens to a contact." }}
      pagination={{ current: page, total, pageSize: 20, onChange: onPage, hideOnSinglePage: true }}
      expandable={{
        expandedRowRender: (run) => (
          <Timeline
            items={run.steps.map((s) => ({
              color: s.status === "failed" ? "red" : s.status === "skipped" ? "gray" : "green",
              children: (
                <span>
                  <Typography.Text strong>{s.stepId === "$end" ? "End" : s.stepId}</Typography.Text> {s.detail}{" "}
                  <Typography.Text type="secondary">{s.at ? new Date(s.at).toLocaleString() : ""}</Typography.Text>
                </span>
              ),
            }))}
          />
        ),
      }}
      columns={[
        ...(showAutomation
          ? [{ title: "Automation", key: "automation", render: (_: unknown, r: AutomationRun) => r.automationName }]
          : []),
        { title: "Contact", key: "email", render: (_, r) => r.email || r.contactId },
        {
          title: "Status",
          key: "status",
          render: (_, r) => <Tag color={RUN_COLORS[r.status]}>{r.status}</Tag>,
        },
        { title: "At step", key: "current", render: (_, r) => r.currentStepId || "—" },
        {
          title: "Started",
          key: "started",
          render: (_, r) => (r.startedAt ? new Date(r.startedAt).toLocaleString() : ""),
        },
      ]}
    />
  );
}
