import { BgColorsOutlined, PaperClipOutlined, PictureOutlined, UploadOutlined } from "@ant-design/icons";
import { App, Button, Card, Flex, Image, List, Typography, Upload } from "antd";
import { type ComponentType, useState } from "react";
import { useNavigate } from "react-router-dom";
import { createTemplate } from "../../api/email";
import { errorMessage } from "../../api/errors";
import { useSaveActionResult } from "../../api/hooks/crafts";
import { type Asset, downloadUrl, uploadAsset } from "../../api/media";
import type { CraftStep, StepResult } from "../../api/types";
import { ImageSelectModal } from "../media/ImageSelectModal";
import { ATTACHMENT_TYPES, attachmentProblem } from "./attachments";
import { craftToMjml, finalDraft } from "./craft-to-mjml";
import { designerPath } from "./paths";

/** Action kinds the email area runs in the browser, and the steps of crafts that write emails. */
const EMAIL_KINDS = new Set(["TemplateDesigner", "EmailAttachmentUploader"]);

/** A craft writes an email when one of its steps is an email kind (EmailWriter's attachments). */
export function isEmailCraft(steps: readonly Pick<CraftStep, "action">[] | undefined): boolean {
  return (steps ?? []).some((s) => EMAIL_KINDS.has(s.action?.kind ?? ""));
}

/** "Open in the email designer": pours the craft's final draft into a new template of the user's. */
export function PourIntoTemplateButton({ steps, name }: { steps: readonly CraftStep[]; name: string }) {
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const draft = finalDraft(steps);
  const pour = async () => {
    if (!draft) return;
    setBusy(true);
    try {
      const poured = craftToMjml(draft);
      const template = await createTemplate({
        kind: "email",
        name: (name || poured.subject || "Email").slice(0, 200),
        subject: poured.subject,
        mjml: poured.mjml,
      });
      navigate(designerPath("email", template.id));
    } catch (failure) {
      message.error(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      icon={<BgColorsOutlined />}
      onClick={pour}
      loading={busy}
      disabled={!draft}
      title={draft ? undefined : "Write the email first"}
      data-testid="open-email-designer"
    >
      Open in the email designer
    </Button>
  );
}

interface EmailStepProps {
  craftId: string;
  step: CraftStep;
  steps: readonly CraftStep[];
}

/** A picked image as a step result keeps it: the download route, not the signed URL (which expires). */
function slotImage(asset: Asset) {
  return {
    id: asset.id,
    type: "image",
    name: asset.name,
    url: downloadUrl(asset.id),
    thumbnailUrl: downloadUrl(asset.id),
    source: asset.source,
    ...(asset.width ? { width: asset.width } : {}),
    ...(asset.height ? { height: asset.height } : {}),
  };
}

/**
 * The TemplateDesigner step: the email's image slots, each picked in the image selection modal
 * (uploaded or crafted: the user's own assets) and saved as a result of the step, then
 * "Open in the email designer" with the draft written so far.
 */
function TemplateDesignerStep({ craftId, step, steps }: EmailStepProps) {
  const { message } = App.useApp();
  const save = useSaveActionResult(craftId);
  const [images, setImages] = useState<Attached[]>(() => attachedOf(step));
  const [picking, setPicking] = useState(false);
  const pick = async (asset: Asset) => {
    setPicking(false);
    const entry = slotImage(asset);
    try {
      if (craftId) await save.trigger({ stepName: step.name, content: asset.name, data: { asset: entry } });
      setImages((list) => [...list, entry]);
    } catch (failure) {
      message.error(errorMessage(failure));
    }
  };
  return (
    <Flex vertical gap={12} align="flex-start" data-testid="template-designer-step">
      <Typography.Paragraph style={{ margin: 0 }}>
        Choose the images of your email, then lay it out in the designer: it starts from the draft written so far.
      </Typography.Paragraph>
      {images.length > 0 && (
        <Flex gap={8} wrap data-testid="template-images">
          {images.map((image) => (
            <Image key={image.id} src={image.url} alt={image.name} width={96} />
          ))}
        </Flex>
      )}
      <Flex gap={8} wrap>
        <Button
          icon={<PictureOutlined />}
          loading={save.isMutating}
          onClick={() => setPicking(true)}
          data-testid="template-pick-image"
        >
          Choose an image
        </Button>
        <PourIntoTemplateButton steps={steps} name={step.title ?? "Email"} />
      </Flex>
      <ImageSelectModal
        open={picking}
        allowStock={false}
        onCancel={() => setPicking(false)}
        onSelect={(asset) => void pick(asset)}
      />
    </Flex>
  );
}

interface Attached {
  id: string;
  name: string;
  url: string;
}

function attachedOf(step: CraftStep): Attached[] {
  return (step.results ?? []).flatMap((r) => {
    const data = r.data as { asset?: Attached } | undefined;
    return data?.asset ? [data.asset] : [];
  });
}

function AttachmentUploaderStep({ craftId, step }: EmailStepProps) {
  const { message } = App.useApp();
  const save = useSaveActionResult(craftId);
  const [attached, setAttached] = useState<Attached[]>(() => attachedOf(step));
  const [uploading, setUploading] = useState(false);
  const add = async (file: File) => {
    const problem = attachmentProblem(file, attached.length);
    if (problem) {
      message.error(problem);
      return;
    }
    setUploading(true);
    try {
      const asset = await uploadAsset(file);
      // The download route, not the signed URL, which expires (the craft is reopened days later).
      const entry = {
        id: asset.id,
        name: asset.name,
        url: downloadUrl(asset.id),
      };
      // Kept with the craft when it is stored; the file itself is in the user's assets either way.
      if (craftId) await save.trigger({ stepName: step.name, content: asset.name, data: { asset: entry } });
      setAttached((list) => [...list, entry]);
    } catch (failure) {
      message.error(errorMessage(failure));
    } finally {
      setUploading(false);
    }
  };
  return (
    <Flex vertical gap={12} data-testid="email-attachments">
      <Upload
        accept={ATTACHMENT_TYPES.join(",")}
        showUploadList={false}
        beforeUpload={(file) => {
          void add(file);
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} loading={uploading} data-testid="attach-file">
          Attach an image
        </Button>
      </Upload>
      <Typography.Text type="secondary">JPEG, PNG, GIF or WebP, up to 10 MB each, 5 files at most.</Typography.Text>
      {attached.length > 0 && (
        <List
          size="small"
          dataSource={attached}
          renderItem={(a) => (
            <List.Item>
              <PaperClipOutlined /> <a href={a.url}>{a.name}</a>
            </List.Item>
          )}
        />
      )}
    </Flex>
  );
}

/** The panel of a step whose action kind the email area runs, or undefined. */
export function emailStepPanel(kind: string | undefined): ComponentType<EmailStepProps> | undefined {
  if (kind === "TemplateDesigner") return TemplateDesignerStep;
  if (kind === "EmailAttachmentUploader") return AttachmentUploaderStep;
  return undefined;
}

/** The "template designer" viewer: the result's HTML, opened in the designer. */
export function TemplateDesignerViewer({ result }: { result: StepResult }) {
  const image = (result.data as { asset?: Attached } | undefined)?.asset;
  if (image) {
    return (
      <Flex vertical gap={4} data-testid="viewer-template-image">
        <Image src={image.url} alt={image.name} width={160} />
        <Typography.Text type="secondary">{image.name}</Typography.Text>
      </Flex>
    );
  }
  const html = typeof result.content === "string" ? result.content : "";
  return (
    <Flex vertical gap={8} data-testid="viewer-template-designer">
      {html && (
        <iframe title="Email" className="crafter-email-preview" sandbox="" srcDoc={html} style={{ height: 360 }} />
      )}
      <PourIntoTemplateButton
        steps={[
          {
            name: "r",
            kind: "FormStep",
            state: "Completed",
            status: "completed",
            results: [{ ...result, format: "html" }],
          },
        ]}
        name="Email"
      />
    </Flex>
  );
}

/** The "email attachment uploader" viewer: the files attached. */
export function EmailAttachmentViewer({ result }: { result: StepResult }) {
  const asset = (result.data as { asset?: Attached } | undefined)?.asset;
  if (!asset) return <Typography.Text>{String(result.content ?? "")}</Typography.Text>;
  return (
    <Card size="small" data-testid="viewer-email-attachment">
      <PaperClipOutlined /> <a href={asset.url}>{asset.name}</a>
    </Card>
  );
}
