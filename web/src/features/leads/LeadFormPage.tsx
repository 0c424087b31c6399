import { ArrowDownOutlined, ArrowUpOutlined, CopyOutlined, DeleteOutlined } from "@ant-design/icons";
import { Button, Card, Col, Flex, Input, Row, Select, Space, Switch, Table, Tabs, Typography } from "antd";
import { useEffect, useMemo, useState } from "react";
import { useCustomFields } from "../../api/contacts";
import {
  type LeadForm,
  type LeadFormField,
  type LeadSubmission,
  SUBMISSIONS_PAGE_SIZE,
  saveLeadForm,
  useLeadForm,
  useLeadSubmissions,
} from "../../api/leads";
import { notify } from "../../shared/notify";
import { ErrorState, LoadingBlock } from "../../shared/states";
import { leadFieldChoices, normaliseLeadFields } from "./form-schema";
import { LeadFormView } from "./LeadFormView";
import { iframeSnippet, publicFormUrl, scriptSnippet } from "./snippets";

export function CopyBox({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <Typography.Text strong>{label}</Typography.Text>
      <Flex gap={8} align="start">
        <Input.TextArea
          readOnly
          value={value}
          autoSize={{ minRows: 1, maxRows: 4 }}
          data-testid={testId}
          aria-label={label}
        />
        <Button
          icon={<CopyOutlined />}
          aria-label={`Copy ${label}`}
          onClick={() =>
            navigator.clipboard
              ?.writeText(value)
              .then(() => notify.success("Copied"))
              .catch(() => notify.warning("Select the text and copy it"))
          }
        />
      </Flex>
    </div>
  );
}

/** /app/leads-form: the project's lead form (fields, consent text, thank-you message), its preview, links and submissions. */
export default function LeadFormPage() {
  const { data, error, mutate } = useLeadForm();
  if (error && !data)
    return <ErrorState error={error} onRetry={() => void mutate()} title="We could not load your lead form" />;
  if (!data) return <LoadingBlock rows={8} testId="lead-form-loading" />;
  return <LeadFormBuilder form={data} onSaved={(saved) => void mutate(saved, { revalidate: false })} />;
}

function LeadFormBuilder({ form, onSaved }: { form: LeadForm; onSaved: (form: LeadForm) => void }) {
  const customFields = useCustomFields();
  const [title, setTitle] = useState(form.title ?? "");
  const [fields, setFields] = useState<LeadFormField[]>(() => normaliseLeadFields(form.fields ?? []));
  const [consentText, setConsentText] = useState(form.consentText ?? "");
  const [thankYou, setThankYou] = useState(form.thankYouMessage ?? "");
  const [saving, setSaving] = useState(false);
  const choices = useMemo(() => leadFieldChoices(customFields.data ?? []), [customFields.data]);
  const addable = choices.filter((choice) => !fields.some((field) => field.key === choice.key));
  const origin = window.location.origin;

  useEffect(() => setFields(normaliseLeadFields(form.fields ?? [])), [form.fields]);

  const draft: LeadForm = { ...form, title, fields, consentText, thankYouMessage: thankYou, doubleOptIn: true };
  const update = (index: number, patch: Partial<LeadFormField>) =>
    setFields(normaliseLeadFields(fields.map((field, i) => (i === index ? { ...field, ...patch } : field))));
  const move = (index: number, by: number) => {
    const next = [...fields];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item!);
    setFields(next);
  };

  const save = async () => {
    if (!title.trim()) return notify.errorMessage("Not saved", "The form needs a title");
    setSaving(true);
    try {
      const saved = await saveLeadForm({
        title: title.trim(),
        fields,
        consentText: consentText.trim(),
        thankYouMessage: thankYou.trim(),
      });
      onSaved(saved);
      notify.success("Lead form saved");
    } catch (error) {
      notify.error(error, "Could not save the form");
    } finally {
      setSaving(false);
    }
  };

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <div>
          <Typography.Title level={2} style={{ margin: 0 }}>
            Lead form
          </Typography.Title>
          <Typography.Text type="secondary">
            A sign-up form for your site. New leads confirm their email (double opt-in) before they are subscribed.
          </Typography.Text>
        </div>
        <Button type="primary" loading={saving} onClick={save} data-testid="lead-form-save">
          Save form
        </Button>
      </Flex>
      <Tabs
        items={[
          {
            key: "build",
            label: "Build",
            children: (
              <Row gutter={[16, 16]}>
                <Col xs={24} lg={13}>
                  <Card title="Form">
                    <Flex vertical gap={12}>
                      <label htmlFor="lead-title">
                        <Typography.Text strong>Title</Typography.Text>
                      </label>
                      <Input
                        id="lead-title"
                        value={title}
                        maxLength={120}
                        onChange={(e) => setTitle(e.target.value)}
                        data-testid="lead-form-title"
                      />
                      <Typography.Text strong>Fields</Typography.Text>
                      {fields.map((field, index) => (
                        <Flex key={field.key} gap={8} align="center" wrap data-testid={`lead-field-${field.key}`}>
                          <Input
                            aria-label={`Label of ${field.key}`}
                            value={field.label}
                            maxLength={80}
                            onChange={(e) => update(index, { label: e.target.value })}
                            style={{ flex: "1 1 160px" }}
                          />
                          <Switch
                            checkedChildren="Required"
                            unCheckedChildren="Optional"
                            checked={field.required}
                            disabled={field.key === "email"}
                            onChange={(required) => update(index, { required })}
                            aria-label={`${field.label} required`}
                          />
                          <Space size={4}>
                            <Button
                              size="small"
                              icon={<ArrowUpOutlined />}
                              aria-label="Move up"
                              disabled={index === 0}
                              onClick={() => move(index, -1)}
                            />
                            <Button
                              size="small"
                              icon={<ArrowDownOutlined />}
                              aria-label="Move down"
                              disabled={index === fields.length - 1}
                              onClick={() => move(index, 1)}
                            />
                            <Button
                              size="small"
                              danger
                              icon={<DeleteOutlined />}
                              aria-label={`Remove ${field.label}`}
                              disabled={field.key === "email"}
                              onClick={() => setFields(fields.filter((_, i) => i !== index))}
                            />
                          </Space>
                        </Flex>
                      ))}
                      <Select
                        placeholder="Add a field"
                        aria-label="Add a field"
                        value={null}
                        disabled={addable.length === 0}
                        onChange={(key) => {
                          const choice = choices.find((c) => c.key === key);
                          if (choice) setFields([...fields, choice]);
                        }}
                        options={addable.map((choice) => ({ value: choice.key, label: choice.label }))}
                        data-testid="lead-form-add-field"
                      />
                      <label htmlFor="lead-consent">
                        <Typography.Text strong>Consent text</Typography.Text>
                      </label>
                      <Input.TextArea
                        id="lead-consent"
                        value={consentText}
                        maxLength={1000}
                        autoSize={{ minRows: 2, maxRows: 6 }}
                        placeholder="I agree to receive emails from us. I can unsubscribe at any time."
                        onChange={(e) => setConsentText(e.target.value)}
                        data-testid="lead-form-consent"
                      />
                      <label htmlFor="lead-thanks">
                        <Typography.Text strong>Thank-you message</Typography.Text>
                      </label>
                      <Input.TextArea
                        id="lead-thanks"
                        value={thankYou}
                        maxLength={500}
                        autoSize={{ minRows: 2, maxRows: 4 }}
                        placeholder="Thanks! Please confirm your email."
                        onChange={(e) => setThankYou(e.target.value)}
                        data-testid="lead-form-thanks-input"
                      />
                    </Flex>
                  </Card>
                </Col>
                <Col xs={24} lg={11}>
                  <Card title="Preview" data-testid="lead-form-preview">
                    <LeadFormView key={JSON.stringify(fields)} form={draft} preview />
                  </Card>
                </Col>
              </Row>
            ),
          },
          {
            key: "share",
            label: "Share and embed",
            children: (
              <Card>
                <Flex vertical gap={16}>
                  <Typography.Text type="secondary">
                    Save the form first: the links show the saved version.
                  </Typography.Text>
                  <CopyBox label="Public URL" value={publicFormUrl(origin, form.id)} testId="lead-form-url" />
                  <CopyBox
                    label="Embed with an iframe"
                    value={iframeSnippet(origin, form.id, form.title)}
                    testId="lead-form-iframe"
                  />
                  <CopyBox
                    label="Embed with a script tag"
                    value={scriptSnippet(origin, form.id)}
                    testId="lead-form-script"
                  />
                </Flex>
              </Card>
            ),
          },
          { key: "submissions", label: "Submissions", children: <Submissions /> },
        ]}
      />
    </Flex>
  );
}

function Submissions() {
  const [page, setPage] = useState(1);
  const { data, error, isLoading, mutate } = useLeadSubmissions(page);
  if (error && !data) return <ErrorState error={error} onRetry={() => void mutate()} />;
  return (
    <Card>
      <Table<LeadSubmission>
        rowKey="id"
        loading={isLoading}
        dataSource={data?.result ?? []}
        scroll={{ x: "max-content" }}
        locale={{ emptyText: "No submissions yet. Share your form's link." }}
        pagination={{ current: page, pageSize: SUBMISSIONS_PAGE_SIZE, total: data?.meta.count ?? 0, onChange: setPage }}
        columns={[
          { title: "Email", key: "email", render: (_, s) => s.email ?? String(s.values?.email ?? "") },
          { title: "Status", dataIndex: "status" },
          {
            title: "Received",
            dataIndex: "createdAt",
            render: (at?: string) => (at ? new Date(at).toLocaleString() : ""),
          },
        ]}
      />
    </Card>
  );
}
