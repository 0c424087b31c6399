import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Flex, Form, Grid, Input, List, Popconfirm, Table, Tag, Typography } from "antd";
import type { HTMLAttributes, ReactNode } from "react";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
import { isApiError } from "../../../api/errors";
import { useInitial } from "../../../api/hooks/app";
import {
  addCustomDomain,
  type CustomDomain,
  checkCustomDomain,
  type DnsRecord,
  integrationKeys,
  removeCustomDomain,
  useCustomDomain,
  useProjectPages,
} from "../../../api/integrations";
import { FormField } from "../../../shared/FormField";
import { formatDateTime } from "../../../shared/format";
import { EmptyState, ErrorState, LoadingBlock } from "../../../shared/states";
import { useAction } from "../../../shared/use-action";
import {
  domainInputProblem,
  domainUrls,
  hostField,
  normalizedDomain,
  RECORD_STATE_LABELS,
  type RecordState,
  recordState,
  registrableDomain,
} from "./custom-domain";

/** How often a domain not verified yet is read again (the server checks it on its own meanwhile). */
const POLL_MS = 30_000;

const RECORD_STATE_COLORS: Record<RecordState, string | undefined> = {
  not_checked: undefined,
  found: "green",
  not_found: "orange",
  wrong_value: "red",
};

const domainSchema = z.object({
  domain: z.string().superRefine((value, ctx) => {
    const problem = domainInputProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
});
type DomainValues = z.infer<typeof domainSchema>;

/**
 * Settings › Integrations › Custom domain: the active project's own domain for its published pages
 * and lead forms. The owner or a project admin adds one (checked as typed: a host name under a
 * domain, not a root domain), creates the CNAME and TXT records shown, and checks them (Check now,
 * or the server's periodic check); once verified the pages answer there. Remove stops serving on it
 * at once, after a confirmation.
 */
export function CustomDomainPanel({ canManage }: { canManage: boolean }) {
  const { data: initial } = useInitial();
  const projectId = initial?.activeProjectInfo?.projectId;
  const { data, error, mutate } = useCustomDomain(projectId, POLL_MS);

  let body: ReactNode;
  if (initial && !projectId)
    body = <Typography.Text type="secondary">Create a project first: a custom domain belongs to one.</Typography.Text>;
  else if (error) body = <ErrorState error={error} onRetry={() => void mutate()} />;
  else if (!data) body = <LoadingBlock rows={3} testId="custom-domain-loading" />;
  else if (data.customDomain)
    body = <DomainDetails projectId={projectId!} domain={data.customDomain} canManage={canManage} />;
  else if (canManage) body = <AddDomainForm projectId={projectId!} />;
  else
    body = (
      <EmptyState
        testId="custom-domain-empty"
        description="No custom domain yet. The owner or a project admin adds one."
      />
    );

  return (
    <Flex
      vertical
      gap={12}
      style={{ paddingInlineStart: 30, minWidth: 0 }}
      data-testid="custom-domain-panel"
      data-state={data ? (data.customDomain?.status ?? "none") : "loading"}
    >
      {body}
    </Flex>
  );
}

function AddDomainForm({ projectId }: { projectId: string }) {
  const {
    control,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<DomainValues>({
    resolver: zodResolver(domainSchema),
    mode: "onChange",
    defaultValues: { domain: "" },
  });
  const add = useAction((domain: string) => addCustomDomain(projectId, domain), {
    error: "Could not add the domain",
    // No toast: the records to create appear in its place.
    revalidate: [integrationKeys.customDomain(projectId)],
    onError: (failure) => {
      if (!isApiError(failure)) return false;
      const message = failure.fields.domain ?? (failure.code === "CUSTOM_DOMAIN_TAKEN" ? failure.message : undefined);
      if (message) setError("domain", { message });
      return Boolean(message);
    },
  });
  const typed = watch("domain");
  const preview = typed && !errors.domain ? normalizedDomain(typed) : "";

  return (
    <Form
      layout="vertical"
      onFinish={() => void handleSubmit((values) => add.run(values.domain))()}
      style={{ maxWidth: 560 }}
      data-testid="custom-domain-form"
    >
      <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
        Publish this project's pages and lead form on your own domain. You add two DNS records at your domain's DNS
        host; Crafter checks them and serves your pages there once they are found.
      </Typography.Paragraph>
      <FormField
        id="custom-domain-input"
        label="Domain"
        error={errors.domain}
        required
        extra={
          preview
            ? `Your pages will answer at https://${preview}/`
            : "A name under your domain, such as www.example-bikes.co.uk."
        }
      >
        <Controller
          name="domain"
          control={control}
          render={({ field }) => (
            <Input
              {...field}
              id="custom-domain-input"
              placeholder="www.example-bikes.co.uk"
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              inputMode="url"
              aria-invalid={Boolean(errors.domain)}
              aria-describedby={errors.domain ? "custom-domain-input-error" : undefined}
              data-testid="custom-domain-input"
            />
          )}
        />
      </FormField>
      <Button type="primary" htmlType="submit" loading={isSubmitting || add.pending} data-testid="custom-domain-add">
        Add domain
      </Button>
    </Form>
  );
}

function DomainDetails({
  projectId,
  domain,
  canManage,
}: {
  projectId: string;
  domain: CustomDomain;
  canManage: boolean;
}) {
  const key = integrationKeys.customDomain(projectId);
  const check = useAction(() => checkCustomDomain(projectId), {
    error: "Could not check the DNS records",
    // Not verified: the table says which record is not right, no toast.
    success: (result) => (result.customDomain.status === "verified" ? `${result.customDomain.domain} is verified` : ""),
    revalidate: [key],
  });
  const remove = useAction(() => removeCustomDomain(projectId), {
    error: "Could not remove the domain",
    success: `${domain.domain} is removed: your pages no longer answer there`,
    revalidate: [key],
  });
  const zone = registrableDomain(domain.domain);

  return (
    <Flex vertical gap={12} data-testid="custom-domain-details" data-status={domain.status}>
      {/* Its state is the row's, beside the title. */}
      <Typography.Text strong copyable style={{ wordBreak: "break-all" }} data-testid="custom-domain-name">
        {domain.domain}
      </Typography.Text>
      {domain.status === "failing" ? (
        <Alert
          type="error"
          showIcon
          data-testid="custom-domain-problem"
          title={`Your pages are not served on ${domain.domain}: its DNS records changed`}
          description={domain.problem}
        />
      ) : domain.status === "pending" ? (
        <Typography.Text type="secondary">
          Create these two records at the DNS host of {zone ?? domain.domain}, then check them. Crafter also checks on
          its own every few minutes; new records can take a while to appear.
        </Typography.Text>
      ) : null}
      <RecordsTable domain={domain} />
      <Flex gap={8} wrap align="center">
        <Button
          onClick={() => void check.run()}
          loading={check.pending}
          disabled={remove.pending}
          data-testid="custom-domain-check"
        >
          Check now
        </Button>
        <Typography.Text type="secondary" data-testid="custom-domain-checked-at">
          {domain.checkedAt ? `Last checked ${formatDateTime(domain.checkedAt)}` : "Not checked yet"}
        </Typography.Text>
      </Flex>
      {domain.status === "pending" && domain.checkedAt && domain.problem ? (
        <Typography.Text type="secondary" data-testid="custom-domain-problem">
          {domain.problem}
        </Typography.Text>
      ) : null}
      {domain.status === "verified" ? <DomainUrls domain={domain} /> : null}
      {canManage ? (
        <Popconfirm
          title={`Remove ${domain.domain}?`}
          description="Your pages and lead form stop answering on it at once, and links to it stop working. Your pages stay published on Crafter's own address."
          okText="Remove"
          okButtonProps={{ danger: true }}
          onConfirm={() => remove.run()}
        >
          <Button
            danger
            loading={remove.pending}
            disabled={check.pending}
            style={{ alignSelf: "flex-start" }}
            data-testid="custom-domain-remove"
          >
            Remove domain
          </Button>
        </Popconfirm>
      ) : null}
    </Flex>
  );
}

/** The records to create with what the last check found: a table on a wide screen, a list on a phone. */
function RecordsTable({ domain }: { domain: CustomDomain }) {
  const screens = Grid.useBreakpoint();
  const state = (record: DnsRecord) => recordState(record, domain.checkedAt);
  const result = (record: DnsRecord) => {
    const found = state(record);
    return (
      <Flex vertical gap={2} data-testid="custom-domain-record-result" data-state={found}>
        <Tag color={RECORD_STATE_COLORS[found]} style={{ alignSelf: "flex-start" }}>
          {RECORD_STATE_LABELS[found]}
        </Tag>
        {found === "wrong_value" ? (
          <Typography.Text type="secondary" style={{ wordBreak: "break-all" }}>
            Found {record.found.join(", ")}
          </Typography.Text>
        ) : null}
      </Flex>
    );
  };
  const name = (record: DnsRecord) => {
    const relative = hostField(record.name, domain.domain);
    return (
      <Flex vertical gap={2}>
        <Typography.Text code copyable style={{ wordBreak: "break-all" }} data-testid="custom-domain-record-name">
          {record.name}
        </Typography.Text>
        {relative !== record.name ? (
          <Typography.Text type="secondary">
            Host field: <Typography.Text code>{relative}</Typography.Text>
          </Typography.Text>
        ) : null}
      </Flex>
    );
  };
  const value = (record: DnsRecord) => (
    <Typography.Text code copyable style={{ wordBreak: "break-all" }} data-testid="custom-domain-record-value">
      {record.value}
    </Typography.Text>
  );

  // Each record's row, found by tests (and scripts) by its type and whether it is right.
  const recordRow = (record: DnsRecord) => ({
    "data-testid": "custom-domain-record",
    "data-type": record.type,
    "data-ok": String(record.ok),
  });

  if (!screens.md)
    return (
      <List
        data-testid="custom-domain-records"
        size="small"
        bordered
        dataSource={domain.records}
        renderItem={(record) => (
          <List.Item {...recordRow(record)} style={{ display: "block" }}>
            <Flex vertical gap={6} style={{ minWidth: 0 }}>
              <Flex justify="space-between" gap={8} wrap>
                <Typography.Text strong>{record.type} record</Typography.Text>
                {result(record)}
              </Flex>
              <Typography.Text type="secondary">Name</Typography.Text>
              {name(record)}
              <Typography.Text type="secondary">Value</Typography.Text>
              {value(record)}
            </Flex>
          </List.Item>
        )}
      />
    );
  return (
    <Table<DnsRecord>
      data-testid="custom-domain-records"
      size="small"
      bordered
      pagination={false}
      rowKey="type"
      dataSource={domain.records}
      onRow={(record) => recordRow(record) as HTMLAttributes<HTMLElement>}
      columns={[
        { title: "Type", dataIndex: "type", width: 72 },
        { title: "Name", key: "name", render: (_, record) => name(record) },
        { title: "Value", key: "value", render: (_, record) => value(record) },
        { title: "Last check", key: "result", width: 130, render: (_, record) => result(record) },
      ]}
    />
  );
}

function DomainUrls({ domain }: { domain: CustomDomain }) {
  const urls = domainUrls(domain.domain);
  const { data, error, mutate } = useProjectPages();
  const pages = data?.pages ?? [];
  return (
    <Flex vertical gap={4} data-testid="custom-domain-urls">
      <Typography.Text strong>Your pages answer on</Typography.Text>
      <Typography.Text>
        <Typography.Link href={urls.home} target="_blank" rel="noreferrer" copyable data-testid="custom-domain-home">
          {urls.home}
        </Typography.Link>{" "}
        <Typography.Text type="secondary">
          {pages.length > 1 ? "(the list of your pages)" : "(your page)"}
        </Typography.Text>
      </Typography.Text>
      {error ? (
        <ErrorState error={error} title="We could not list your pages" onRetry={() => void mutate()} />
      ) : !data ? (
        <LoadingBlock rows={2} testId="custom-domain-pages-loading" />
      ) : pages.length === 0 ? (
        <Typography.Text type="secondary" data-testid="custom-domain-pages-empty">
          No page is published from this project yet: publish a web page craft and it answers here.
        </Typography.Text>
      ) : (
        <List
          size="small"
          dataSource={pages}
          data-testid="custom-domain-pages"
          renderItem={(page) => (
            <List.Item style={{ paddingInline: 0, display: "block" }}>
              <Flex vertical gap={0} style={{ minWidth: 0 }}>
                <Typography.Link
                  href={urls.page(page.slug)}
                  target="_blank"
                  rel="noreferrer"
                  copyable
                  style={{ wordBreak: "break-all" }}
                  data-testid="custom-domain-page-url"
                >
                  {urls.page(page.slug)}
                </Typography.Link>
                <Typography.Text type="secondary">{page.title || page.slug}</Typography.Text>
              </Flex>
            </List.Item>
          )}
        />
      )}
      <Typography.Text type="secondary">
        Each page's lead form works there too; nothing else of Crafter answers on your domain.
      </Typography.Text>
      {domain.verifiedAt ? (
        <Typography.Text type="secondary">Verified {formatDateTime(domain.verifiedAt)}</Typography.Text>
      ) : null}
    </Flex>
  );
}
