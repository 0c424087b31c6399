import { DownloadOutlined, InboxOutlined } from "@ant-design/icons";
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Flex,
  Progress,
  Radio,
  Result,
  Select,
  Space,
  Steps,
  Table,
  Typography,
  Upload,
} from "antd";
import Papa from "papaparse";
import { useEffect, useMemo, useRef, useState } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import {
  checkImport,
  contactKeys,
  download,
  runImport,
  saveSettingsList,
  startImport,
  useContactTypes,
  useCustomFields,
  useImport,
} from "../../api/contacts";
import type { ContactImport, ImportCheck } from "../../api/contacts/types";
import { ApiError, isApiError } from "../../api/errors";
import { LinkButton } from "../../shared/LinkButton";
import { notify } from "../../shared/notify";
import { ErrorState, LoadingBlock } from "../../shared/states";
import { useAction } from "../../shared/use-action";
import { SUBSCRIPTION_HREF } from "../crafts/craft-error-catalogue";
import { useContactErrorHandler, useShowContactError } from "./errors";
import { describeContactError, importErrorCode } from "./limits";
import {
  assignTarget,
  type ColumnMapping,
  countOf,
  customFieldKeyFor,
  fileProblem,
  importPercent,
  listKeyFor,
  mappingFromServer,
  mappingProblems,
  mappingShape,
  mappingToServer,
  previewRows,
  targetOptions,
} from "./mapping";
import { CONTACT_PAGES } from "./paths";

const STEP_OF: Record<string, number> = { fields: 1, processing: 2, result: 3, error: 3 };

/**
 * /app/contacts/import[?id=]: upload a CSV, map its columns, follow the import, read the result.
 * The import runs in the service; its id is in the URL, so a reload shows the same progress.
 */
export default function ImportPage() {
  const [params, setParams] = useSearchParams();
  const id = params.get("id") ?? undefined;
  const current = useImport(id);

  let body: React.ReactNode;
  if (!id) body = <UploadStep onStarted={(created) => setParams({ id: created.id })} />;
  else if (current.error && !current.data)
    body = <ErrorState error={current.error} onRetry={() => void current.mutate()} />;
  else if (!current.data) body = <LoadingBlock rows={6} testId="import-loading" />;
  else if (current.data.status === "fields") {
    body = <MappingStep data={current.data} onStarted={(next) => void current.mutate(next, { revalidate: true })} />;
  } else body = <ProgressStep data={current.data} />;

  return (
    <Flex vertical gap={16} style={{ maxWidth: 1100 }}>
      <div>
        <LinkButton to={CONTACT_PAGES.contacts} type="link" style={{ padding: 0 }}>
          ‹ Contacts
        </LinkButton>
        <Typography.Title level={2} style={{ margin: 0 }}>
          Import contacts
        </Typography.Title>
        <Typography.Text type="secondary">
          A CSV file, such as a Mailchimp audience or HubSpot contacts export. Contacts are subscribed only when the
          file says they opted in; the others stay pending until they confirm.
        </Typography.Text>
      </div>
      <Steps
        size="small"
        current={id ? (STEP_OF[current.data?.status ?? "fields"] ?? 1) : 0}
        items={[{ title: "Upload" }, { title: "Map columns" }, { title: "Import" }, { title: "Result" }]}
        responsive
      />
      {body}
    </Flex>
  );
}

interface LocalPreview {
  headers: string[];
  rows: string[][];
}

/** Reads the first rows in the browser (papaparse) so the user sees the file before sending it. */
function localPreview(file: File): Promise<LocalPreview> {
  return new Promise((resolve, reject) => {
    Papa.parse<string[]>(file, {
      preview: 6,
      skipEmptyLines: "greedy",
      complete: (parsed) => {
        const [headers = [], ...rows] = parsed.data;
        resolve({ headers: headers.map((h) => h.replace(/^\uFEFF/, "").trim()), rows });
      },
      error: (error) => reject(error),
    });
  });
}

function PreviewTable({ headers, rows, testId }: { headers: string[]; rows: string[][]; testId?: string }) {
  return (
    <Table
      data-testid={testId}
      size="small"
      pagination={false}
      scroll={{ x: "max-content" }}
      rowKey={(_, index) => String(index)}
      dataSource={rows.map((row) => ({ row }))}
      columns={headers.map((header, index) => ({
        key: String(index),
        title: header || `Column ${index + 1}`,
        render: (_: unknown, record: { row: string[] }) => record.row[index],
      }))}
    />
  );
}

function UploadStep({ onStarted }: { onStarted: (created: ContactImport) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<LocalPreview | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const onError = useContactErrorHandler();

  const choose = async (chosen: File) => {
    setFile(null);
    setPreview(null);
    const found = fileProblem(chosen);
    setProblem(found);
    if (found) return;
    setFile(chosen);
    try {
      setPreview(await localPreview(chosen));
    } catch {
      setPreview(null);
    }
  };

  const upload = async () => {
    if (!file) return;
    setBusy(true);
    try {
      onStarted(await startImport(file));
    } catch (error) {
      if (isApiError(error) && error.status === 413) setProblem("This file is larger than imports take (20 MB).");
      else if (isApiError(error) && error.status === 400) setProblem(error.message);
      else onError(error, "Could not upload the file");
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card>
      <Flex vertical gap={16}>
        <Upload.Dragger
          accept=".csv,text/csv"
          multiple={false}
          showUploadList={false}
          beforeUpload={(chosen) => {
            void choose(chosen);
            return false;
          }}
          data-testid="import-file"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">Click or drag a CSV file here</p>
          <p className="ant-upload-hint">At most 20 MB. Comma or semicolon separated, with a header row.</p>
        </Upload.Dragger>
        {problem && <Alert type="error" showIcon title={problem} data-testid="import-file-problem" />}
        {file && (
          <Typography.Text>
            {file.name} · {(file.size / 1024).toFixed(1)} KB
          </Typography.Text>
        )}
        {preview && preview.headers.length > 0 && (
          <PreviewTable headers={preview.headers} rows={preview.rows} testId="import-local-preview" />
        )}
        <div>
          <Button type="primary" disabled={!file} loading={busy} onClick={upload} data-testid="import-upload">
            Upload and map columns
          </Button>
        </div>
      </Flex>
    </Card>
  );
}

/** What the import would do with the mapping on screen, checked by the service as the user edits it (debounced). */
function useImportCheck(id: string, body: unknown, version: number) {
  const [state, setState] = useState<{ data?: ImportCheck; error?: unknown; loading: boolean }>({ loading: true });
  const key = JSON.stringify(body);
  useEffect(() => {
    void version;
    const controller = new AbortController();
    setState((current) => ({ ...current, loading: true }));
    const timer = setTimeout(() => {
      checkImport(id, JSON.parse(key), controller.signal)
        .then((data) => setState({ data, loading: false }))
        .catch((error) => {
          if (!controller.signal.aborted) setState({ error, loading: false });
        });
    }, 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [id, key, version]);
  return state;
}

const TARGET_NOUN: Record<string, string> = { contactType: "contact types", customerKind: "customer kinds" };

function MappingStep({ data, onStarted }: { data: ContactImport; onStarted: (next: ContactImport) => void }) {
  const customFields = useCustomFields();
  const contactTypes = useContactTypes();
  const onError = useContactErrorHandler();
  const headers = data.headers ?? [];
  // The contract's `fields` (header → target) first; a list-shaped `mapping` otherwise.
  const server = data.fields && !Array.isArray(data.fields) ? data.fields : data.mapping;
  const shape = mappingShape(server);
  const [mapping, setMapping] = useState<ColumnMapping>(() => mappingFromServer(headers, server));
  const [duplicates, setDuplicates] = useState<"update" | "skip">(data.duplicates === "skip" ? "skip" : "update");
  const [inFile, setInFile] = useState<"first" | "last">("first");
  const [busy, setBusy] = useState(false);
  const [fixing, setFixing] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const body = useMemo(() => mappingToServer(headers, mapping, shape), [headers, mapping, shape]);
  const check = useImportCheck(data.id, body, version);
  const options = useMemo(
    () =>
      targetOptions(
        customFields.data ?? [],
        mappingFromServer(headers, server).filter((v): v is string => !!v),
      ),
    [customFields.data, headers, server],
  );
  const problems = mappingProblems(mapping);
  const unknown = check.data?.unknown ?? [];
  const rows = previewRows(headers, data.preview);
  const grouped = ["Contact", "Consent", "Custom fields"].map((group) => ({
    label: group,
    options: options.filter((o) => o.group === group).map((o) => ({ value: o.value, label: o.label })),
  }));

  const start = async () => {
    setBusy(true);
    try {
      onStarted(await runImport(data.id, body, duplicates, inFile));
    } catch (error) {
      onError(error, "Could not start the import");
    } finally {
      setBusy(false);
    }
  };

  /** "Add these values": to the contact types, or to the custom select's options. */
  const addValues = async (entry: ImportCheck["unknown"][number]) => {
    setFixing(entry.header);
    try {
      const values = entry.values.map((v) => v.value);
      if (entry.target === "contactType") {
        const current = contactTypes.data ?? [];
        const keys = current.map((t) => t.key);
        const added = values.map((value) => {
          const key = listKeyFor(value, keys);
          keys.push(key);
          return { key, label: value };
        });
        await saveSettingsList(contactKeys.contactTypes(), [...current, ...added]);
        await contactTypes.mutate();
      } else {
        const fieldKey = entry.target.slice("custom.".length);
        const next = (customFields.data ?? []).map((field) =>
          field.key === fieldKey ? { ...field, options: [...(field.options ?? []), ...values] } : field,
        );
        await saveSettingsList(contactKeys.customFields(), next);
        await customFields.mutate();
      }
      notify.success(`Added ${countOf(values.length, "value")}`);
      setVersion((v) => v + 1);
    } catch (error) {
      onError(error, "Could not add the values");
    } finally {
      setFixing(null);
    }
  };

  /** "Map to a custom field": a new text field named after the column, the column mapped to it. */
  const toCustomField = async (entry: ImportCheck["unknown"][number]) => {
    setFixing(entry.header);
    try {
      const current = customFields.data ?? [];
      const key = customFieldKeyFor(
        entry.header,
        current.map((f) => f.key),
      );
      await saveSettingsList(contactKeys.customFields(), [
        ...current,
        { key, label: entry.header.slice(0, 80), type: "text" },
      ]);
      await customFields.mutate();
      setMapping((m) => assignTarget(m, headers.indexOf(entry.header), `custom.${key}`));
      notify.success(`${entry.header} is now a custom field`);
    } catch (error) {
      onError(error, "Could not create the custom field");
    } finally {
      setFixing(null);
    }
  };

  const skipColumn = (entry: ImportCheck["unknown"][number]) =>
    setMapping((m) => assignTarget(m, headers.indexOf(entry.header), null));

  return (
    <Flex vertical gap={16}>
      <Card title={`Map the columns of ${data.file?.name ?? "your file"}`} extra={countOf(data.file?.rows ?? 0, "row")}>
        <Table
          data-testid="import-mapping"
          size="small"
          pagination={false}
          scroll={{ x: "max-content" }}
          rowKey="index"
          dataSource={headers.map((header, index) => ({ header, index }))}
          columns={[
            { title: "Column", dataIndex: "header" },
            {
              title: "Example",
              key: "example",
              render: (_, { index }) => (
                <Typography.Text type="secondary" ellipsis style={{ maxWidth: 220 }}>
                  {rows.map((row) => row[index]).find(Boolean) ?? ""}
                </Typography.Text>
              ),
            },
            {
              title: "Import as",
              key: "target",
              render: (_, { header, index }) => (
                <Select
                  style={{ width: 220 }}
                  aria-label={`Import ${header} as`}
                  data-testid={`mapping-${index}`}
                  value={mapping[index] ?? ""}
                  onChange={(value) => setMapping(assignTarget(mapping, index, value || null))}
                  options={[{ label: "Skip", options: [{ value: "", label: "Don't import" }] }, ...grouped]}
                  showSearch={{ optionFilterProp: "label" }}
                />
              ),
            },
          ]}
        />
      </Card>
      {unknown.map((entry) => {
        const noun =
          TARGET_NOUN[entry.target] ??
          `options of ${options.find((o) => o.value === entry.target)?.label ?? entry.target}`;
        const shown = entry.values.map((v) => `${v.value} (${numberFormat.format(v.count)})`).join(", ");
        return (
          <Alert
            key={entry.header}
            type="warning"
            showIcon
            data-testid="import-unknown-values"
            title={`${entry.header}: ${countOf(entry.values.length, "value")}${entry.more ? " and more" : ""} that ${entry.values.length === 1 && !entry.more ? "is" : "are"} not ${noun}, in ${countOf(entry.rows, "row")}`}
            description={
              <Flex vertical gap={8}>
                <Typography.Text>
                  {shown}
                  {entry.more ? ", …" : ""}
                </Typography.Text>
                <Typography.Text type="secondary">
                  Choose what to do with this column; no row is refused for it.
                </Typography.Text>
                <Space wrap>
                  {entry.target !== "customerKind" && !entry.more && (
                    <Button
                      type="primary"
                      loading={fixing === entry.header}
                      onClick={() => void addValues(entry)}
                      data-testid="import-unknown-add"
                    >
                      Add these values
                    </Button>
                  )}
                  <Button
                    loading={fixing === entry.header}
                    onClick={() => void toCustomField(entry)}
                    data-testid="import-unknown-custom"
                  >
                    Map to a custom field
                  </Button>
                  <Button onClick={() => skipColumn(entry)} data-testid="import-unknown-skip">
                    Skip the column
                  </Button>
                </Space>
              </Flex>
            }
          />
        );
      })}
      <ConsentSummary check={check.data} loading={check.loading} error={check.error} />
      {rows.length > 0 && (
        <Card title="First rows">
          <PreviewTable headers={headers} rows={rows} testId="import-preview" />
        </Card>
      )}
      <Card title="Contacts already in your list">
        <Radio.Group
          value={duplicates}
          onChange={(event) => setDuplicates(event.target.value)}
          data-testid="import-duplicates"
        >
          <Space direction="vertical">
            <Radio value="update">Update them with the file's values</Radio>
            <Radio value="skip">Skip them</Radio>
          </Space>
        </Radio.Group>
      </Card>
      <Card
        title="An email that appears more than once in the file"
        extra={check.data ? countOf(check.data.duplicatesInFile, "repeated row") : undefined}
      >
        <Radio.Group value={inFile} onChange={(event) => setInFile(event.target.value)} data-testid="import-in-file">
          <Space direction="vertical">
            <Radio value="first">Keep its first row</Radio>
            <Radio value="last">Keep its last row (its values replace the earlier ones)</Radio>
          </Space>
        </Radio.Group>
      </Card>
      {problems.map((problem) => (
        <Alert key={problem} type="warning" showIcon title={problem} />
      ))}
      {unknown.length > 0 && (
        <Alert
          type="info"
          showIcon
          title={`Choose what to do with ${unknown.map((u) => u.header).join(", ")} above before importing.`}
        />
      )}
      <div>
        <Button
          type="primary"
          disabled={problems.length > 0 || unknown.length > 0 || check.loading}
          loading={busy}
          onClick={start}
          data-testid="import-start"
        >
          Import {countOf(data.file?.rows ?? 0, "row")}
        </Button>
      </div>
    </Flex>
  );
}

const numberFormat = new Intl.NumberFormat("en");

/** How many rows carry opt-in evidence, and how many will stay pending (never emailed until they confirm). */
function ConsentSummary({ check, loading, error }: { check?: ImportCheck; loading: boolean; error?: unknown }) {
  if (error && !check) return <Alert type="error" showIcon title="Could not check the file with this mapping." />;
  if (!check) return <LoadingBlock rows={2} testId="import-check-loading" />;
  const { consent } = check;
  const withdrawn = consent.unsubscribed + consent.bounced + consent.complained;
  return (
    <Card title="Consent" data-testid="import-consent" loading={false} extra={loading ? "Checking…" : undefined}>
      <Flex vertical gap={8}>
        <Typography.Text data-testid="import-consent-subscribed">
          <Typography.Text strong>{countOf(consent.subscribed, "row")}</Typography.Text> carry opt-in evidence and will
          be subscribed.
        </Typography.Text>
        <Typography.Text data-testid="import-consent-pending">
          <Typography.Text strong>{countOf(consent.pending, "row")}</Typography.Text> have no opt-in evidence and will
          be pending: campaigns skip them until they confirm their subscription.
        </Typography.Text>
        {withdrawn > 0 && (
          <Typography.Text>
            <Typography.Text strong>{countOf(withdrawn, "row")}</Typography.Text> say the person unsubscribed or
            bounced; they will not be emailed.
          </Typography.Text>
        )}
        {check.failing > 0 && (
          <Typography.Text type="warning" data-testid="import-check-failing">
            {countOf(check.failing, "row")} will not be imported: {check.errors[0]?.reason} (line{" "}
            {check.errors[0]?.line}){check.failing > 1 ? " and others, listed after the import" : ""}.
          </Typography.Text>
        )}
      </Flex>
    </Card>
  );
}

function ProgressStep({ data }: { data: ContactImport }) {
  const navigate = useNavigate();
  const downloading = useAction(download, { error: "Download failed" });
  const show = useShowContactError();
  const result = data.result;
  const percent = importPercent(result);
  const code = importErrorCode(data.error);
  const limitView = describeContactError(
    new ApiError({ status: 402, code, serverMessage: errorText(data.error) || null }),
    "Import stopped",
  );
  const overLimit = (result?.overLimit ?? 0) > 0;
  const hitLimit =
    overLimit || code === "FREE_USER_LIMIT" || code === "CORE_CONTACTS_LIMIT" || code === "PLAN_LIMIT_REACHED";

  // The upgrade prompt, once per import, when it ended at the plan's limit.
  const prompted = useRef<string | null>(null);
  const prompt = !data.processing && hitLimit && limitView.kind !== "toast";
  useEffect(() => {
    if (!prompt || prompted.current === data.id) return;
    prompted.current = data.id;
    show(limitView);
  }, [prompt, data.id, limitView, show]);

  if (data.processing || data.status === "processing") {
    return (
      <Card>
        <Flex vertical gap={8} data-testid="import-progress">
          <Typography.Text>
            Importing {data.file?.name ?? "your file"}: {result?.processed ?? 0} of{" "}
            {result?.total ?? data.file?.rows ?? "?"} rows
          </Typography.Text>
          <Progress percent={percent} status="active" aria-label="Import progress" />
          <Typography.Text type="secondary">
            You can leave this page; the import goes on and this page shows it again when you come back.
          </Typography.Text>
        </Flex>
      </Card>
    );
  }

  const failed = (result?.failed ?? 0) + (result?.overLimit ?? 0);
  return (
    <Card>
      <Result
        status={data.status === "error" ? "error" : failed > 0 ? "warning" : "success"}
        title={data.status === "error" ? "The import stopped" : "Import finished"}
        subTitle={data.status === "error" ? errorText(data.error) : undefined}
        data-testid="import-result"
        extra={
          <Space wrap>
            {failed > 0 && (
              <Button
                icon={<DownloadOutlined />}
                loading={downloading.pending}
                onClick={() => void downloading.run(contactKeys.importErrors(data.id), "import-errors.csv")}
                data-testid="import-errors-download"
              >
                Download rows not imported (CSV)
              </Button>
            )}
            <Button type="primary" onClick={() => navigate(CONTACT_PAGES.contacts)}>
              See contacts
            </Button>
            <LinkButton to={CONTACT_PAGES.import}>Import another file</LinkButton>
          </Space>
        }
      >
        {result && (
          <Descriptions column={{ xs: 1, sm: 2, md: 3 }} size="small" data-testid="import-summary">
            <Descriptions.Item label="Rows">{result.total}</Descriptions.Item>
            <Descriptions.Item label="Created">{result.created}</Descriptions.Item>
            <Descriptions.Item label="Updated">{result.updated}</Descriptions.Item>
            <Descriptions.Item label="Skipped">{result.skipped}</Descriptions.Item>
            <Descriptions.Item label="Failed">{result.failed}</Descriptions.Item>
            <Descriptions.Item label="Over the plan's limit">{result.overLimit}</Descriptions.Item>
            <Descriptions.Item
              label={
                data.inFile === "last"
                  ? "Repeated in the file (last row kept)"
                  : "Repeated in the file (first row kept)"
              }
            >
              {result.duplicatesInFile ?? 0}
            </Descriptions.Item>
          </Descriptions>
        )}
        {(data.errors?.length ?? 0) > 0 && (
          <Flex vertical gap={8} style={{ textAlign: "left", marginTop: 16 }}>
            <Typography.Title level={5} style={{ margin: 0 }}>
              Rows not imported
              {failed > (data.errors?.length ?? 0)
                ? ` (the first ${data.errors?.length} of ${numberFormat.format(failed)}; the CSV has them all)`
                : ""}
            </Typography.Title>
            <Table
              data-testid="import-errors"
              size="small"
              rowKey="line"
              scroll={{ x: "max-content" }}
              pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
              dataSource={data.errors}
              columns={[
                { title: "Line", dataIndex: "line", width: 70 },
                { title: "Email", dataIndex: "email" },
                { title: "Value", dataIndex: "value" },
                { title: "Reason", dataIndex: "reason" },
              ]}
            />
          </Flex>
        )}
        {overLimit && (
          <Alert
            type="warning"
            showIcon
            data-testid="import-over-limit"
            title={`${result?.overLimit} rows were not imported: your plan's contact limit is reached.`}
            action={
              limitView.kind === "upgrade" ? (
                <LinkButton to={limitView.href} type="primary" size="small" data-testid="import-upgrade">
                  Upgrade to {limitView.plan}
                </LinkButton>
              ) : limitView.kind === "toast" ? (
                <LinkButton to={SUBSCRIPTION_HREF} size="small" data-testid="import-upgrade">
                  See plans
                </LinkButton>
              ) : undefined
            }
          />
        )}
      </Result>
    </Card>
  );
}

function errorText(error: ContactImport["error"]): string {
  return error ?? "";
}
