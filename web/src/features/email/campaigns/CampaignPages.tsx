import { ExperimentOutlined, EyeOutlined, PlusOutlined, SendOutlined } from "@ant-design/icons";
import { formatIn } from "@crafter/time";
import { zodResolver } from "@hookform/resolvers/zod";
import type { ButtonProps } from "antd";
import {
  Alert,
  App,
  AutoComplete,
  Button,
  Card,
  Descriptions,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Radio,
  Select,
  Space,
  Statistic,
  Switch,
  Table,
  Tag,
  Tooltip,
  Typography,
} from "antd";
import { useEffect, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useNavigate, useParams, useSearchParams } from "react-router-dom";
import { useSWRConfig } from "swr";
import { z } from "zod";
import { useApprovalStates } from "../../../api/approvals";
import {
  type Campaign,
  campaignApi,
  campaignPreviewKey,
  isCampaignKey,
  type Recipient,
  useCampaign,
  useCampaigns,
  useRecipients,
  useSegments,
  useTemplates,
} from "../../../api/email";
import { errorMessage } from "../../../api/errors";
import { useAccount } from "../../../api/hooks/app";
import { useCraft, useCrafts } from "../../../api/hooks/crafts";
import { FormField } from "../../../shared/FormField";
import { LinkButton } from "../../../shared/LinkButton";
import { EmptyState, ErrorState, FullPageSpin, LoadingBlock } from "../../../shared/states";
import { useBusinessTimeZone } from "../../../shared/time-zone";
import { ApprovalStateTag, ApprovalSummary, ApprovalTag, ShareForApprovalButton } from "../../approvals/ApprovalPanel";
import { STATE_LABEL } from "../../approvals/approval-labels";
import { SenderNotice } from "../../sender/SenderNotice";
import { AddressWarning, useAddressMissing } from "../business-address";
import { campaignPath, EMAIL_PAGES } from "../paths";
import { CampaignPreview } from "./CampaignPreview";
import {
  audienceSummary,
  type CampaignForm,
  campaignFormSchema,
  contactCount,
  craftSubjectLines,
  EMPTY_CAMPAIGN_FORM,
  formatRate,
  fromCampaign,
  isEditable,
  releaseSummary,
  STATUS_COLOURS,
  toCampaignInput,
} from "./campaign-form";
import { isFutureIn, ScheduleTimeInput, scheduleInputOf, useCampaignTime } from "./ScheduleTime";

function StatusTag({ campaign }: { campaign: Pick<Campaign, "status" | "waiting"> }) {
  return (
    <Space size={4}>
      <Tag color={STATUS_COLOURS[campaign.status]} data-testid="campaign-status">
        {campaign.status}
      </Tag>
      {campaign.waiting && (
        <Tag color="warning">
          {campaign.waiting.reason === "provider" ? "paused: SendGrid key" : "waiting: plan limit"}
        </Tag>
      )}
    </Space>
  );
}

/** /app/email/campaigns: every email campaign with its status and rates. */
export function CampaignsPage() {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState("");
  const [approval, setApproval] = useState("");
  const { data, error, isLoading, mutate } = useCampaigns(page, status, approval);
  const time = useCampaignTime();
  const campaigns = data?.result ?? [];
  const approvals = useApprovalStates(
    "campaign",
    campaigns.map((c) => c.id),
    campaigns[0]?.projectId || undefined,
  );
  return (
    <Flex vertical gap={16} data-testid="campaigns-page">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Title level={2} style={{ margin: 0 }}>
          Email campaigns
        </Typography.Title>
        <Space wrap>
          <Select
            aria-label="Status"
            value={status}
            onChange={(value) => {
              setStatus(value);
              setPage(1);
            }}
            style={{ width: 150 }}
            options={[
              { value: "", label: "Any status" },
              ...Object.keys(STATUS_COLOURS).map((s) => ({ value: s, label: s })),
            ]}
          />
          <Select
            aria-label="Approval"
            value={approval}
            onChange={(value) => {
              setApproval(value);
              setPage(1);
            }}
            style={{ width: 170 }}
            data-testid="approval-filter"
            options={[
              { value: "", label: "Any approval" },
              { value: "awaiting", label: STATE_LABEL.awaiting.label },
              { value: "approved", label: STATE_LABEL.approved.label },
              { value: "changes_requested", label: STATE_LABEL.changes_requested.label },
            ]}
          />
          <LinkButton to={EMAIL_PAGES.newCampaign} type="primary" icon={<PlusOutlined />} data-testid="new-campaign">
            New campaign
          </LinkButton>
        </Space>
      </Flex>
      {error ? (
        <ErrorState error={error} onRetry={() => void mutate()} />
      ) : isLoading ? (
        <LoadingBlock rows={6} />
      ) : (!data || data.result.length === 0) && (status || approval) ? (
        <EmptyState
          testId="campaigns-none-match"
          description="No campaigns match these filters."
          action={
            <Button
              onClick={() => {
                setStatus("");
                setApproval("");
                setPage(1);
              }}
            >
              Show all campaigns
            </Button>
          }
        />
      ) : !data || data.result.length === 0 ? (
        <EmptyState
          testId="campaigns-empty"
          description="No email campaigns yet."
          action={<LinkButton to={EMAIL_PAGES.newCampaign}>Create your first campaign</LinkButton>}
        />
      ) : (
        <Table<Campaign>
          rowKey="id"
          dataSource={data.result}
          scroll={{ x: 720 }}
          pagination={{
            current: page,
            total: data.meta.count,
            pageSize: 20,
            onChange: setPage,
            showSizeChanger: false,
          }}
          columns={[
            {
              title: "Name",
              dataIndex: "name",
              render: (name: string, c) => (
                <LinkButton type="link" to={campaignPath(c.id)}>
                  {name}
                </LinkButton>
              ),
            },
            { title: "Status", render: (_v, c) => <StatusTag campaign={c} /> },
            {
              title: "Approval",
              render: (_v, c) => {
                const state = approvals.byId.get(c.id);
                return state && state.state !== "none" ? <ApprovalStateTag state={state} /> : "—";
              },
            },
            {
              title: "When",
              render: (_v, c) =>
                c.sendTimeBy === "contact" && c.scheduledAt
                  ? `${time(c.scheduledAt, false)} each contact's time`
                  : c.sentAt
                    ? time(c.sentAt)
                    : c.scheduledAt
                      ? `Scheduled ${time(c.scheduledAt, false)}`
                      : "—",
            },
            { title: "Sent", render: (_v, c) => c.stats.sent },
            { title: "Delivery", render: (_v, c) => formatRate(c.stats.deliveryRate, c.stats.sent) },
            { title: "Open", render: (_v, c) => formatRate(c.stats.openRate, c.stats.sent) },
            { title: "Click", render: (_v, c) => formatRate(c.stats.clickRate, c.stats.sent) },
            { title: "Bounce", render: (_v, c) => formatRate(c.stats.bounceRate, c.stats.sent) },
          ]}
        />
      )}
    </Flex>
  );
}

/** The warning that a campaign cannot go out until the business profile has a postal address. */
function CampaignAddressWarning() {
  return (
    <AddressWarning
      testId="campaign-address-missing"
      description="Every marketing email must show your business's physical postal address (the CAN-SPAM Act). Add it to the business profile before you send or schedule; drafts and test sends work without it."
    />
  );
}

function Composer({ campaign }: { campaign?: Campaign }) {
  const navigate = useNavigate();
  const { message } = App.useApp();
  const { mutate } = useSWRConfig();
  const segments = useSegments();
  const predefined = useTemplates("email", "predefined");
  const mine = useTemplates("email", "user");
  const crafts = useCrafts(1, 50, { workflowName: "EmailWriter" });
  // "Send as campaign" on an email craft opens this form with ?craftId= chosen.
  const [searchParams] = useSearchParams();
  const chosenCraftId = campaign ? "" : (searchParams.get("craftId") ?? "");
  const chosenCraft = useCraft(chosenCraftId || null);
  const addressMissing = useAddressMissing();
  const [busy, setBusy] = useState<"" | "save" | "send" | "schedule" | "preview" | "test">("");
  // The campaign this form writes to: the one edited, else the draft its first save created.
  const [savedId, setSavedId] = useState(campaign?.id ?? "");
  const { modal } = App.useApp();
  const account = useAccount();
  const { zone } = useBusinessTimeZone();
  // On the business's wall clock ("YYYY-MM-DDTHH:mm"); the server resolves it in the business's zone.
  const [scheduleAt, setScheduleAt] = useState(() => scheduleInputOf(campaign?.scheduledAt, zone));
  const { control, handleSubmit, watch, formState, getValues, setValue } = useForm<CampaignForm>({
    resolver: zodResolver(campaignFormSchema),
    defaultValues: campaign
      ? fromCampaign(campaign)
      : chosenCraftId
        ? { ...EMPTY_CAMPAIGN_FORM, source: "craft", craftId: chosenCraftId }
        : EMPTY_CAMPAIGN_FORM,
  });
  const chosenCraftName = chosenCraft.data?.craftName ?? "";
  useEffect(() => {
    if (chosenCraftName && !getValues("name")) setValue("name", chosenCraftName);
  }, [chosenCraftName, getValues, setValue]);
  const source = watch("source");
  const abEnabled = watch("abEnabled");
  const sendTimeBy = watch("sendTimeBy");
  // An email craft's other subject lines are offered as the A/B test's second subject.
  const formCraftId = watch("craftId");
  const formCraft = useCraft(source === "craft" && abEnabled && formCraftId ? formCraftId : null);
  const subject = watch("subject");
  const craftSubjects = craftSubjectLines(formCraft.data?.steps, subject || formCraft.data?.craftName);
  const errors = formState.errors;

  const persist = async (form: CampaignForm): Promise<Campaign> => {
    const input = toCampaignInput(form);
    const saved = savedId ? await campaignApi.update(savedId, input) : await campaignApi.create(input);
    setSavedId(saved.id);
    // The preview renders the stored campaign: it is read again after every save.
    await mutate((key) => typeof key === "string" && key.startsWith(`${campaignPreviewKey(saved.id)}`));
    return saved;
  };
  /** Asks, naming the count, before anything goes out; true when the user confirms. */
  const confirmSend = (saved: Campaign, recipients: number, excluded: string[]) =>
    new Promise<boolean>((resolve) => {
      modal.confirm({
        title: `Send “${saved.name}” to ${contactCount(recipients)} now?`,
        content: (
          <Flex vertical gap={4} data-testid="campaign-send-confirm">
            <Typography.Text>
              It goes out at once and cannot be called back. Subject: “{saved.subject || "(no subject)"}”.
            </Typography.Text>
            {excluded.length > 0 && (
              <Typography.Text type="secondary">Not sent to: {excluded.join(", ")}.</Typography.Text>
            )}
          </Flex>
        ),
        okText: `Send to ${contactCount(recipients)}`,
        okButtonProps: { disabled: recipients === 0, "data-testid": "campaign-send-ok" } as ButtonProps,
        cancelText: "Not yet",
        onOk: () => resolve(true),
        onCancel: () => resolve(false),
      });
    });
  const preview = () =>
    handleSubmit(async (form) => {
      setBusy("preview");
      try {
        await persist(form);
      } catch (failure) {
        message.error(errorMessage(failure));
      } finally {
        setBusy("");
      }
    })();
  const testToMe = () =>
    handleSubmit(async (form) => {
      const to = account.data?.email;
      if (!to) {
        message.error("Your email address could not be read; reload the page.");
        return;
      }
      setBusy("test");
      try {
        const saved = await persist(form);
        await campaignApi.test(saved.id, to);
        message.success(`A test is on its way to ${to}`);
      } catch (failure) {
        message.error(errorMessage(failure));
      } finally {
        setBusy("");
      }
    })();
  const run = (what: "save" | "send" | "schedule") =>
    handleSubmit(async (form) => {
      if (what === "schedule" && !isFutureIn(scheduleAt, zone)) {
        message.error("Choose a time in the future.");
        return;
      }
      setBusy(what);
      try {
        let saved = await persist(form);
        if (what === "send") {
          const audience = await campaignApi.preview(saved.id);
          if (!(await confirmSend(saved, audience.recipients, audienceSummary(audience).excluded))) return;
          saved = await campaignApi.send(saved.id);
        }
        if (what === "schedule" && scheduleAt) saved = await campaignApi.scheduleLocal(saved.id, scheduleAt);
        await mutate(isCampaignKey);
        message.success(what === "send" ? "Sending" : what === "schedule" ? "Scheduled" : "Draft saved");
        navigate(campaignPath(saved.id));
      } catch (failure) {
        message.error(errorMessage(failure));
      } finally {
        setBusy("");
      }
    })();

  const templateOptions = [
    ...(mine.data?.result ?? []).map((t) => ({ value: t.id, label: `${t.name} (mine)` })),
    ...(predefined.data?.result ?? []).map((t) => ({ value: t.id, label: t.name })),
  ];
  const craftOptions = (crafts.data?.crafts ?? []).map((c) => ({ value: c.craftId, label: c.craftName }));
  if (chosenCraft.data && !craftOptions.some((option) => option.value === chosenCraftId)) {
    craftOptions.unshift({ value: chosenCraftId, label: chosenCraft.data.craftName });
  }
  const segmentOptions = (segments.data ?? [])
    .filter((s): s is NonNullable<typeof s> => s !== null)
    .map((s) => ({ value: s.id, label: s.name }));

  return (
    <Form
      layout="vertical"
      component="form"
      onSubmitCapture={(e) => e.preventDefault()}
      data-testid="campaign-composer"
    >
      {addressMissing && <CampaignAddressWarning />}
      <div style={addressMissing ? { marginTop: 16 } : undefined}>
        <SenderNotice />
      </div>
      <Card title={campaign ? `Edit ${campaign.name}` : "New email campaign"} style={{ marginTop: 16 }}>
        <FormField id="campaign-name" label="Name" error={errors.name} required>
          <Controller
            name="name"
            control={control}
            render={({ field }) => <Input id="campaign-name" {...field} data-testid="campaign-name" />}
          />
        </FormField>
        <FormField
          id="campaign-segment"
          label="Segment"
          error={errors.segmentId}
          required
          extra="Only contacts whose consent is subscribed receive it."
        >
          <Controller
            name="segmentId"
            control={control}
            render={({ field }) => (
              <Select
                id="campaign-segment"
                {...field}
                loading={segments.isLoading}
                options={segmentOptions}
                placeholder={segments.error ? "Segments could not be loaded" : "Choose a segment"}
                notFoundContent="No segments yet: create one under Contacts → Segments."
                data-testid="campaign-segment"
              />
            )}
          />
        </FormField>
        <FormField id="campaign-source" label="Content">
          <Controller
            name="source"
            control={control}
            render={({ field }) => (
              <Radio.Group
                id="campaign-source"
                value={field.value}
                onChange={(e) => field.onChange(e.target.value)}
                options={[
                  { value: "template", label: "A template" },
                  { value: "craft", label: "An email craft" },
                ]}
              />
            )}
          />
        </FormField>
        {source === "template" ? (
          <FormField id="campaign-template" label="Template" error={errors.templateId} required>
            <Controller
              name="templateId"
              control={control}
              render={({ field }) => (
                <Select
                  id="campaign-template"
                  {...field}
                  showSearch
                  optionFilterProp="label"
                  loading={predefined.isLoading || mine.isLoading}
                  options={templateOptions}
                  placeholder="Choose a template"
                  data-testid="campaign-template"
                />
              )}
            />
          </FormField>
        ) : (
          <FormField id="campaign-craft" label="Email craft" error={errors.craftId} required>
            <Controller
              name="craftId"
              control={control}
              render={({ field }) => (
                <Select
                  id="campaign-craft"
                  {...field}
                  loading={crafts.isLoading}
                  options={craftOptions}
                  showSearch
                  optionFilterProp="label"
                  placeholder="Choose an email you wrote"
                  notFoundContent="No email crafts yet: write one with Create → Email → Write with AI."
                  data-testid="campaign-craft"
                />
              )}
            />
          </FormField>
        )}
        <FormField
          id="campaign-subject"
          label="Subject"
          error={errors.subject}
          extra={source === "craft" ? "Empty: the craft's subject line." : "Empty: the template's subject."}
        >
          <Controller
            name="subject"
            control={control}
            render={({ field }) => <Input id="campaign-subject" {...field} data-testid="campaign-subject" />}
          />
        </FormField>
        <FormField
          id="campaign-preheader"
          label="Preheader"
          error={errors.preheader}
          extra={source === "craft" ? "Empty: the craft's preview text." : undefined}
        >
          <Controller
            name="preheader"
            control={control}
            render={({ field }) => <Input id="campaign-preheader" {...field} data-testid="campaign-preheader" />}
          />
        </FormField>
        <FormField id="campaign-ab" label="A/B test the subject">
          <Controller
            name="abEnabled"
            control={control}
            render={({ field }) => (
              <Switch id="campaign-ab" checked={field.value} onChange={field.onChange} data-testid="campaign-ab" />
            )}
          />
        </FormField>
        {abEnabled && (
          <Flex gap={12} wrap>
            <div style={{ flex: "2 1 240px" }}>
              <FormField
                id="campaign-subject-b"
                label="Second subject"
                error={errors.subjectB}
                required
                extra={
                  craftSubjects.length > 0 ? "Pick one of the craft's other subject lines, or write one." : undefined
                }
              >
                <Controller
                  name="subjectB"
                  control={control}
                  render={({ field }) => (
                    <AutoComplete
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      options={craftSubjects.map((line) => ({ value: line }))}
                      filterOption={false}
                    >
                      <Input id="campaign-subject-b" ref={field.ref} data-testid="campaign-subject-b" />
                    </AutoComplete>
                  )}
                />
              </FormField>
            </div>
            <div style={{ flex: "1 1 140px" }}>
              <FormField
                id="campaign-share"
                label="Test share (%)"
                error={errors.share}
                extra="Half get each subject; the winner goes to the rest."
              >
                <Controller
                  name="share"
                  control={control}
                  render={({ field }) => (
                    <InputNumber
                      id="campaign-share"
                      min={10}
                      max={50}
                      value={field.value}
                      onChange={(v) => field.onChange(v ?? 10)}
                    />
                  )}
                />
              </FormField>
            </div>
            <div style={{ flex: "1 1 140px" }}>
              <FormField id="campaign-winner" label="Pick the winner after (minutes)" error={errors.winnerAfterMinutes}>
                <Controller
                  name="winnerAfterMinutes"
                  control={control}
                  render={({ field }) => (
                    <InputNumber
                      id="campaign-winner"
                      min={30}
                      max={10_080}
                      value={field.value}
                      onChange={(v) => field.onChange(v ?? 240)}
                    />
                  )}
                />
              </FormField>
            </div>
          </Flex>
        )}
        <FormField
          id="campaign-send-time-by"
          label="Send at"
          error={errors.sendTimeBy}
          extra={
            sendTimeBy === "contact"
              ? "Each contact gets it at the scheduled time on their own clock (your time zone for contacts without one). It starts when the first time zone reaches that time; anyone whose time has already passed gets it at once. Scheduled campaigns only."
              : `Everyone gets it at the scheduled time in ${zone.replace(/_/g, " ")}.`
          }
        >
          <Controller
            name="sendTimeBy"
            control={control}
            render={({ field }) => (
              <Radio.Group
                id="campaign-send-time-by"
                value={field.value}
                onChange={(e) => field.onChange(e.target.value)}
                options={[
                  { value: "business", label: "The business's time" },
                  { value: "contact", label: "Each contact's local time" },
                ]}
                data-testid="campaign-send-time-by"
              />
            )}
          />
        </FormField>
        <Card
          size="small"
          title="Preview and test"
          style={{ marginBottom: 16 }}
          extra={
            <Button
              icon={<ExperimentOutlined />}
              loading={busy === "test"}
              disabled={!account.data?.email}
              onClick={() => void testToMe()}
              data-testid="campaign-test-me"
            >
              Send a test to me
            </Button>
          }
        >
          {savedId ? (
            <CampaignPreview campaignId={savedId} />
          ) : (
            <Flex vertical gap={8} align="flex-start">
              <Typography.Text type="secondary">
                See the email as a contact of the segment gets it, on a desktop and a phone, and how many will get it.
                Previewing saves a draft.
              </Typography.Text>
              <Button
                icon={<EyeOutlined />}
                loading={busy === "preview"}
                onClick={() => void preview()}
                data-testid="campaign-preview-open"
              >
                Preview
              </Button>
            </Flex>
          )}
          {account.data?.email && (
            <Typography.Text type="secondary" style={{ display: "block", marginTop: 8 }}>
              The test goes to {account.data.email}, marked [Test], and is not counted as a campaign send.
            </Typography.Text>
          )}
        </Card>
        <Flex gap={8} wrap align="center">
          <Button onClick={() => void run("save")} loading={busy === "save"} data-testid="campaign-save">
            Save draft
          </Button>
          <Tooltip
            title={sendTimeBy === "contact" ? "Each contact's local time needs a date and time: schedule it." : ""}
          >
            <Button
              type="primary"
              icon={<SendOutlined />}
              loading={busy === "send"}
              disabled={addressMissing === true || sendTimeBy === "contact"}
              onClick={() => void run("send")}
              data-testid="campaign-send"
            >
              Send now
            </Button>
          </Tooltip>
          <ScheduleTimeInput value={scheduleAt} onChange={setScheduleAt} />
          <Button
            onClick={() => void run("schedule")}
            loading={busy === "schedule"}
            disabled={!scheduleAt || addressMissing === true}
          >
            Schedule
          </Button>
        </Flex>
      </Card>
    </Form>
  );
}

/** /app/email/campaigns/new and /app/email/campaigns/:id/edit. */
export function CampaignComposerPage() {
  const { id } = useParams();
  const { data, error, isLoading, mutate } = useCampaign(id);
  if (!id) return <Composer />;
  if (isLoading) return <FullPageSpin />;
  if (error || !data) return <ErrorState error={error} onRetry={() => void mutate()} />;
  if (!isEditable(data.status))
    return <Alert type="info" showIcon title="Only drafts and scheduled campaigns can be changed." />;
  return <Composer key={data.id} campaign={data} />;
}

const testSchema = z.object({ email: z.email("Enter an email address.") });

function TestSendModal({ campaignId, open, onClose }: { campaignId: string; open: boolean; onClose: () => void }) {
  const { message } = App.useApp();
  const { control, handleSubmit, formState } = useForm<{ email: string }>({
    resolver: zodResolver(testSchema),
    defaultValues: { email: "" },
  });
  const submit = handleSubmit(async ({ email }) => {
    try {
      await campaignApi.test(campaignId, email);
      message.success(`A test is on its way to ${email}`);
      onClose();
    } catch (failure) {
      message.error(errorMessage(failure));
    }
  });
  return (
    <Modal
      open={open}
      title="Send a test"
      okText="Send test"
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form layout="vertical" component="form" onSubmitCapture={submit}>
        <FormField id="test-email" label="Send to" error={formState.errors.email} required>
          <Controller
            name="email"
            control={control}
            render={({ field }) => <Input id="test-email" type="email" autoFocus {...field} />}
          />
        </FormField>
      </Form>
    </Modal>
  );
}

/** The campaign's recipients; `progress` (status and counts) changing reloads them, as the campaign goes out. */
function Recipients({ campaignId, progress }: { campaignId: string; progress: string }) {
  const [page, setPage] = useState(1);
  const { data, error, isLoading, mutate } = useRecipients(campaignId, page);
  const time = useCampaignTime();
  useEffect(() => {
    if (progress) void mutate();
  }, [progress, mutate]);
  if (error) return <ErrorState error={error} onRetry={() => void mutate()} />;
  return (
    <Table
      rowKey="contactId"
      loading={isLoading}
      dataSource={data?.result ?? []}
      scroll={{ x: 640 }}
      locale={{ emptyText: "No recipients yet." }}
      pagination={{
        current: page,
        total: data?.meta.count ?? 0,
        pageSize: 20,
        onChange: setPage,
        showSizeChanger: false,
      }}
      columns={[
        { title: "Email", dataIndex: "email" },
        {
          title: "Status",
          dataIndex: "status",
          render: (s: string, r: Recipient) => (
            <>
              <Tag>{s}</Tag>
              {r.possibleDuplicate && (
                <Tooltip title="Sent again after an interrupted attempt: this person may have received it twice">
                  <Tag color="warning">may have received it twice</Tag>
                </Tooltip>
              )}
            </>
          ),
        },
        { title: "Subject", dataIndex: "variant", render: (v?: string) => (v ? v.toUpperCase() : "—") },
        { title: "Sent", dataIndex: "sentAt", render: (t?: string) => time(t, false) },
        { title: "Opened", dataIndex: "openedAt", render: (t?: string) => time(t, false) },
        { title: "Clicked", dataIndex: "clickedAt", render: (t?: string) => time(t, false) },
        { title: "Error", dataIndex: "error", render: (e?: string) => e || "" },
      ]}
    />
  );
}

/** /app/email/campaigns/:id: the campaign, its rates and its recipients. */
export function CampaignDetailPage() {
  const { id = "" } = useParams();
  const time = useCampaignTime();
  const { zone } = useBusinessTimeZone();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const { mutate: mutateAll } = useSWRConfig();
  const { data: campaign, error, isLoading, mutate } = useCampaign(id);
  const [testing, setTesting] = useState(false);
  if (isLoading) return <FullPageSpin />;
  if (error || !campaign) return <ErrorState error={error} onRetry={() => void mutate()} />;
  const act = async (what: () => Promise<unknown>, done: string) => {
    try {
      await what();
      message.success(done);
      await mutate();
      await mutateAll(isCampaignKey);
    } catch (failure) {
      message.error(errorMessage(failure));
    }
  };
  const s = campaign.stats;
  const release = releaseSummary(campaign, (iso) => time(iso));
  const wallClock = campaign.scheduledAt ? formatIn(new Date(campaign.scheduledAt), zone, "HH:mm") : "";
  return (
    <Flex vertical gap={16} data-testid="campaign-detail">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Space wrap>
          <Typography.Title level={2} style={{ margin: 0 }}>
            {campaign.name}
          </Typography.Title>
          <StatusTag campaign={campaign} />
          <ApprovalTag kind="campaign" id={campaign.id} projectId={campaign.projectId} />
        </Space>
        <Space wrap>
          <Button onClick={() => setTesting(true)}>Send a test</Button>
          <ShareForApprovalButton
            kind="campaign"
            id={campaign.id}
            projectId={campaign.projectId}
            name={campaign.name}
          />
          {isEditable(campaign.status) && <LinkButton to={`${campaignPath(campaign.id)}/edit`}>Edit</LinkButton>}
          {campaign.status === "sending" && (
            <Button onClick={() => act(() => campaignApi.pause(campaign.id), "Paused")}>Pause</Button>
          )}
          {campaign.status === "paused" && (
            <Button onClick={() => act(() => campaignApi.resume(campaign.id), "Resumed")}>Resume</Button>
          )}
          {isEditable(campaign.status) && (
            <Popconfirm
              title={`Delete ${campaign.name}?`}
              okText="Delete"
              okButtonProps={{ danger: true }}
              onConfirm={() =>
                act(() => campaignApi.remove(campaign.id), "Campaign deleted").then(() =>
                  navigate(EMAIL_PAGES.campaigns),
                )
              }
            >
              <Button danger>Delete</Button>
            </Popconfirm>
          )}
        </Space>
      </Flex>
      {campaign.waiting?.reason === "provider" ? (
        <Alert
          type="warning"
          showIcon
          data-testid="campaign-paused-provider"
          title="Sending is paused: SendGrid refused your business's API key."
          description="The rest goes out as soon as you connect a working key in Settings › Integrations › SendGrid; nothing is dropped."
          action={<LinkButton to="/app/settings/integrations">Fix in Integrations</LinkButton>}
        />
      ) : campaign.waiting ? (
        <Alert
          type="warning"
          showIcon
          title="This campaign is waiting: your plan's monthly email limit is reached."
          description="The rest goes out when you upgrade or the month turns; nothing is dropped."
          action={<LinkButton to="/app/settings/subscription?source=upgrade_modal">Upgrade</LinkButton>}
        />
      ) : null}
      <Flex gap={16} wrap>
        <Card size="small" style={{ flex: "1 1 140px" }} data-testid="campaign-stat-sent">
          <Statistic title="Sent" value={s.sent} suffix={`/ ${s.recipients}`} />
          {s.possibleDuplicates > 0 && (
            <Typography.Text type="warning" data-testid="campaign-possible-duplicates">
              {s.possibleDuplicates} may have received it twice
            </Typography.Text>
          )}
        </Card>
        <Card size="small" style={{ flex: "1 1 140px" }} data-testid="campaign-stat-delivery">
          <Statistic title="Delivery rate" value={formatRate(s.deliveryRate, s.sent)} />
        </Card>
        <Card size="small" style={{ flex: "1 1 140px" }} data-testid="campaign-stat-open">
          <Statistic title="Open rate" value={formatRate(s.openRate, s.sent)} />
        </Card>
        <Card size="small" style={{ flex: "1 1 140px" }} data-testid="campaign-stat-click">
          <Statistic title="Click rate" value={formatRate(s.clickRate, s.sent)} />
        </Card>
        <Card size="small" style={{ flex: "1 1 140px" }} data-testid="campaign-stat-bounce">
          <Statistic title="Bounce rate" value={formatRate(s.bounceRate, s.sent)} />
        </Card>
      </Flex>
      <Descriptions
        bordered
        size="small"
        column={{ xs: 1, sm: 1, md: 2 }}
        items={[
          { key: "subject", label: "Subject", children: campaign.subject },
          { key: "preheader", label: "Preheader", children: campaign.preheader || "—" },
          ...(campaign.abTest
            ? [
                {
                  key: "ab",
                  label: "A/B test",
                  children: `“${campaign.abTest.subjectB}” on ${campaign.abTest.share}% ${
                    campaign.abTest.winner ? `(winner: ${campaign.abTest.winner.toUpperCase()})` : ""
                  }`,
                },
              ]
            : []),
          // At each contact's local time the scheduled time stays what matters; sending starts well before it.
          campaign.sendTimeBy === "contact" && campaign.scheduledAt
            ? { key: "when", label: "Scheduled", children: time(campaign.scheduledAt) }
            : {
                key: "when",
                label: campaign.sentAt ? "Sent" : "Scheduled",
                children: time(campaign.sentAt || campaign.scheduledAt),
              },
          ...(campaign.sendTimeBy === "contact"
            ? [
                {
                  key: "send-time-by",
                  label: "Send at",
                  children: (
                    <Flex vertical data-testid="campaign-release">
                      <span>
                        Each contact's local time{wallClock ? `: ${wallClock} on their own clock` : ""} (yours for
                        contacts without a time zone)
                      </span>
                      {release && <Typography.Text type="secondary">{release}</Typography.Text>}
                    </Flex>
                  ),
                },
              ]
            : []),
          {
            key: "counts",
            label: "Failed / skipped / complaints",
            children: `${s.failed} / ${s.skipped} / ${s.complained}`,
          },
        ]}
      />
      <ApprovalSummary kind="campaign" id={campaign.id} projectId={campaign.projectId} />
      <Card title="Recipients" size="small">
        <Recipients campaignId={campaign.id} progress={`${campaign.status}:${s.sent}:${s.failed}:${s.skipped}`} />
      </Card>
      <TestSendModal campaignId={campaign.id} open={testing} onClose={() => setTesting(false)} />
    </Flex>
  );
}
