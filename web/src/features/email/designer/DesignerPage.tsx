import { EyeOutlined, SaveOutlined } from "@ant-design/icons";
import { parseSmartValues, SMART_VALUES, smartValueLabel, smartValueToken } from "@crafter/email-language";
import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, App, Button, Dropdown, Flex, Form, Input, List, Modal, Typography } from "antd";
import { lazy, Suspense, useRef, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useNavigate, useParams } from "react-router-dom";
import { useSWRConfig } from "swr";
import { z } from "zod";
import {
  createTemplate,
  type EmailTemplate,
  emailKeys,
  isTemplateListKey,
  type RenderResult,
  renderMjml,
  type TemplateKind,
  updateTemplate,
  useTemplate,
} from "../../../api/email";
import { errorMessage } from "../../../api/errors";
import { FormField } from "../../../shared/FormField";
import { ErrorState, FullPageSpin } from "../../../shared/states";
import { designerPath, galleryPath } from "../paths";
import "../email.css";
import { useBusinessProfile } from "../business-address";
import { DetachSmartValueModal } from "./DetachSmartValueModal";
import type { GrapesEditorHandle } from "./GrapesEditor";
import { previewValues } from "./preview-values";

const GrapesEditor = lazy(() => import("./GrapesEditor"));

const schema = z.object({
  name: z.string().trim().min(1, "A name is required.").max(200, "At most 200 characters."),
  subject: z.string().max(300, "At most 300 characters."),
});
type Values = z.infer<typeof schema>;

function Designer({ template, kind }: { template: EmailTemplate; kind: TemplateKind }) {
  const navigate = useNavigate();
  const { message } = App.useApp();
  const { mutate } = useSWRConfig();
  const editor = useRef<GrapesEditorHandle>(null);
  const [saving, setSaving] = useState(false);
  const [preview, setPreview] = useState<RenderResult | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const [tokens, setTokens] = useState<ReturnType<typeof parseSmartValues> | null>(null);
  const [detaching, setDetaching] = useState<ReturnType<typeof parseSmartValues>[number] | null>(null);
  const own = template.scope === "user";
  // The business's own name and address in the preview when its profile has them.
  const business = useBusinessProfile();
  const { control, handleSubmit, formState } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { name: own ? template.name : `${template.name} copy`, subject: template.subject ?? "" },
  });

  const save = handleSubmit(async (values) => {
    const mjml = editor.current?.getMjml() ?? template.mjml;
    setSaving(true);
    try {
      if (own) {
        await updateTemplate(template.id, { name: values.name, subject: values.subject, mjml });
        message.success("Template saved");
      } else {
        const created = await createTemplate({ kind, name: values.name, subject: values.subject, mjml });
        message.success("Saved to My templates");
        navigate(designerPath(kind, created.id), { replace: true });
      }
      await mutate(isTemplateListKey);
      await mutate(emailKeys.template(template.id));
    } catch (failure) {
      message.error(errorMessage(failure));
    } finally {
      setSaving(false);
    }
  });

  const showPreview = async () => {
    setPreviewing(true);
    try {
      setPreview(await renderMjml(editor.current?.getMjml() ?? template.mjml, previewValues(business)));
    } catch (failure) {
      message.error(errorMessage(failure));
    } finally {
      setPreviewing(false);
    }
  };

  const insert = (name: string) => {
    const fallback = SMART_VALUES.find((v) => v.name === name)?.fallback;
    const token = smartValueToken(name, fallback);
    if (!editor.current?.insertText(token)) {
      void navigator.clipboard?.writeText(token).catch(() => undefined);
      message.info(`Select a text block first. ${token} is copied: paste it where it belongs.`);
    }
  };

  return (
    <div className="crafter-designer" data-testid="email-designer">
      <Form layout="vertical" onSubmitCapture={save} component="form">
        <Flex gap={12} wrap align="flex-end">
          <div style={{ flex: "1 1 220px" }}>
            <FormField id="template-name" label="Name" error={formState.errors.name} required>
              <Controller
                name="name"
                control={control}
                render={({ field }) => <Input id="template-name" {...field} data-testid="template-name" />}
              />
            </FormField>
          </div>
          {kind === "email" && (
            <div style={{ flex: "2 1 260px" }}>
              <FormField id="template-subject" label="Subject" error={formState.errors.subject}>
                <Controller
                  name="subject"
                  control={control}
                  render={({ field }) => <Input id="template-subject" {...field} data-testid="template-subject" />}
                />
              </FormField>
            </div>
          )}
          <Flex gap={8} wrap style={{ marginBottom: 24 }}>
            <Dropdown
              menu={{
                items: SMART_VALUES.map((v) => ({ key: v.name, label: v.label })),
                onClick: ({ key }) => insert(key),
              }}
            >
              <Button data-testid="insert-smart-value">Insert smart value</Button>
            </Dropdown>
            <Button
              onClick={() => setTokens(parseSmartValues(editor.current?.getMjml() ?? template.mjml))}
              data-testid="smart-values"
            >
              Smart values
            </Button>
            <Button icon={<EyeOutlined />} onClick={showPreview} loading={previewing} data-testid="preview-template">
              Preview
            </Button>
            <Button
              type="primary"
              htmlType="submit"
              icon={<SaveOutlined />}
              loading={saving}
              data-testid="save-template"
            >
              {own ? "Save" : "Save as my template"}
            </Button>
          </Flex>
        </Flex>
      </Form>
      <div className="crafter-designer-canvas">
        <Suspense fallback={<FullPageSpin label="Loading the designer" />}>
          <GrapesEditor ref={editor} mjml={template.mjml} />
        </Suspense>
      </div>
      <Modal
        open={preview !== null}
        title="Preview (rendered on the server)"
        onCancel={() => setPreview(null)}
        footer={null}
        width={720}
        destroyOnHidden
      >
        {preview && preview.errors.length > 0 && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 12 }}
            title="MJML problems"
            data-testid="render-errors"
            description={
              <ul style={{ margin: 0, paddingLeft: 16 }}>
                {preview.errors.map((e) => (
                  <li key={`${e.line}-${e.message}`}>
                    Line {e.line}: {e.message}
                  </li>
                ))}
              </ul>
            }
          />
        )}
        {preview && (
          <iframe
            title="Rendered email"
            className="crafter-email-preview"
            sandbox=""
            srcDoc={preview.html}
            data-testid="rendered-preview"
          />
        )}
      </Modal>
      <Modal
        open={tokens !== null}
        title="Smart values in this template"
        onCancel={() => setTokens(null)}
        footer={null}
        destroyOnHidden
      >
        {tokens && tokens.length === 0 && <Typography.Text>This template has no smart values.</Typography.Text>}
        {tokens && tokens.length > 0 && (
          <List
            size="small"
            dataSource={tokens}
            renderItem={(token) => (
              <List.Item
                actions={[
                  <Button
                    key="detach"
                    size="small"
                    onClick={() => setDetaching(token)}
                    data-testid="detach-smart-value"
                  >
                    Detach
                  </Button>,
                ]}
              >
                <List.Item.Meta
                  title={smartValueLabel(token.name)}
                  description={token.fallback ? `Fallback: “${token.fallback}”` : "No fallback"}
                />
              </List.Item>
            )}
          />
        )}
      </Modal>
      <DetachSmartValueModal
        token={detaching}
        onCancel={() => setDetaching(null)}
        onDetach={(text) => {
          const mjml = editor.current?.getMjml() ?? template.mjml;
          const next = detachAt(mjml, detaching, text);
          editor.current?.setMjml(next);
          setDetaching(null);
          setTokens(parseSmartValues(next));
          message.success("The smart value is plain text now");
        }}
      />
    </div>
  );
}

/** Replaces the token the user chose (found again by position and text, in case the document moved). */
function detachAt(mjml: string, token: ReturnType<typeof parseSmartValues>[number] | null, text: string): string {
  if (!token) return mjml;
  const current = parseSmartValues(mjml);
  const same =
    current.find((t) => t.start === token.start && t.raw === token.raw) ?? current.find((t) => t.raw === token.raw);
  if (!same) return mjml;
  return mjml.slice(0, same.start) + text + mjml.slice(same.end);
}

/** /app/create/email/:templateId and /app/create/social-media-post/:templateId. */
function DesignerPage({ kind }: { kind: TemplateKind }) {
  const { templateId } = useParams();
  const navigate = useNavigate();
  const { data, error, isLoading, mutate } = useTemplate(templateId);
  if (isLoading) return <FullPageSpin label="Loading the template" />;
  if (error || !data)
    return (
      <Flex vertical gap={12}>
        <ErrorState error={error} onRetry={() => void mutate()} title="We could not open this template" />
        <Button onClick={() => navigate(galleryPath(kind))}>Back to the templates</Button>
      </Flex>
    );
  // A new key per template: the editor is built once per document.
  return <Designer key={data.id} template={data} kind={kind} />;
}

export function EmailDesignerPage() {
  return <DesignerPage kind="email" />;
}

export function SocialDesignerPage() {
  return <DesignerPage kind="social" />;
}
