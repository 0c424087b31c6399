import { RedoOutlined, RotateLeftOutlined, RotateRightOutlined, UndoOutlined } from "@ant-design/icons";
import {
  Button,
  ColorPicker,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Select,
  Slider,
  Spin,
  Tabs,
  Tag,
  Typography,
} from "antd";
import { useEffect, useMemo, useRef, useState } from "react";
import { useSWRConfig } from "swr";
import { errorMessage } from "../../api/errors";
import {
  type Asset,
  EXPORT_DEFAULTS,
  EXPORT_FORMATS,
  type ExportFormat,
  exportAssets,
  FILTER_NAMES,
  type FilterName,
  isAssetListKey,
  type Operation,
  previewEdit,
  saveEdit,
} from "../../api/media";
import { notify } from "../../shared/notify";
import { CROP_PRESETS, type CropPreset, presetOperations, sizeAfter } from "./crops";
import { FONTS } from "./designer/model";

/** The image editing panel's tabs; the spec opens it on tab "2". */
export const EDIT_TABS = { crop: "1", adjust: "2", text: "3", background: "4", export: "5" } as const;
export const DEFAULT_EDIT_TAB = EDIT_TABS.adjust;

const FORMAT_LABELS: Record<ExportFormat, string> = { "image/png": "PNG", "image/jpeg": "JPEG", "image/webp": "WebP" };
const EXTENSIONS: Record<ExportFormat, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" };

export function describeOperation(operation: Operation): string {
  switch (operation.op) {
    case "crop":
      return `Crop ${operation.width}×${operation.height}`;
    case "resize":
      return `Resize to ${operation.width}${operation.height ? `×${operation.height}` : ""}`;
    case "rotate":
      return `Rotate ${operation.degrees}°`;
    case "filter":
      return `${operation.name[0]?.toUpperCase()}${operation.name.slice(1)}`;
    case "text":
      return `Text "${operation.text.slice(0, 20)}"`;
    case "background":
      return `Background ${operation.color}`;
  }
}

/** The filename with the format's extension. */
export function withExtension(filename: string, format: ExportFormat): string {
  const base = filename.trim().replace(/\.[a-z0-9]+$/i, "") || "image";
  return `${base}.${EXTENSIONS[format]}`;
}

interface Step {
  label: string;
  operations: Operation[];
}

/** A server preview (webp object URL) of `operations`, refreshed after a short pause. */
function usePreview(assetId: string, operations: Operation[] | null) {
  const [url, setUrl] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const key = operations ? JSON.stringify(operations) : null;
  useEffect(() => {
    if (!key) {
      setUrl(null);
      setError(null);
      return;
    }
    const controller = new AbortController();
    let created: string | null = null;
    const timer = window.setTimeout(() => {
      setLoading(true);
      previewEdit(assetId, JSON.parse(key) as Operation[], controller.signal)
        .then((next) => {
          created = next;
          setUrl(next);
          setError(null);
        })
        .catch((cause: unknown) => {
          if (!controller.signal.aborted) setError(errorMessage(cause));
        })
        .finally(() => {
          if (!controller.signal.aborted) setLoading(false);
        });
    }, 250);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
      if (created) {
        const revoke = created;
        window.setTimeout(() => URL.revokeObjectURL(revoke), 30_000);
      }
    };
  }, [assetId, key]);
  return { url, loading, error };
}

function PreviewFrame({
  title,
  src,
  loading,
  error,
  testId,
}: {
  title: string;
  src: string | null;
  loading?: boolean;
  error?: string | null;
  testId: string;
}) {
  return (
    <figure className="crafter-edit-preview" data-testid={testId}>
      <figcaption>
        <Typography.Text type="secondary">{title}</Typography.Text>
      </figcaption>
      <Spin spinning={!!loading}>
        <div className="crafter-edit-preview__frame">
          {error ? (
            <Typography.Text type="danger">{error}</Typography.Text>
          ) : src ? (
            <img src={src} alt={title} data-testid={`${testId}-image`} />
          ) : (
            <Typography.Text type="secondary">—</Typography.Text>
          )}
        </div>
      </Spin>
    </figure>
  );
}

/**
 * The image editing panel: crop (the networks' presets), resize, rotate, filters, text overlay and
 * background colour, each tried on a staging preview before it is applied; original, current and
 * staging previews come from the server (sharp), with a history of the applied steps. Save makes a
 * new asset; export sends PNG, JPEG or WebP, alone or as ZIP.
 */
export function ImageEditPanel({ asset, onSaved }: { asset: Asset; onSaved?: (asset: Asset) => void }) {
  const { mutate } = useSWRConfig();
  const [tab, setTab] = useState<string>(DEFAULT_EDIT_TAB);
  const [steps, setSteps] = useState<Step[]>([]);
  const [redo, setRedo] = useState<Step[]>([]);
  const [staging, setStaging] = useState<Operation[] | null>(null);
  const [stagingLabel, setStagingLabel] = useState("");
  const [saved, setSaved] = useState<Asset | null>(null);
  const [busy, setBusy] = useState<"save" | "export" | null>(null);

  const operations = useMemo(() => steps.flatMap((step) => step.operations), [steps]);
  const current = usePreview(asset.id, operations.length > 0 ? operations : null);
  const stagingPreview = usePreview(asset.id, staging ? [...operations, ...staging] : null);
  const size = sizeAfter(asset.width ?? 0, asset.height ?? 0, operations);
  const savedFor = useRef<string>("");

  const stage = (label: string, next: Operation[]) => {
    setStagingLabel(label);
    setStaging(next);
  };
  const apply = () => {
    if (!staging) return;
    setSteps((current) => [...current, { label: stagingLabel, operations: staging }]);
    setRedo([]);
    setStaging(null);
    setSaved(null);
  };
  const undoStep = () => {
    const last = steps.at(-1);
    if (!last) return;
    setSteps(steps.slice(0, -1));
    setRedo([last, ...redo]);
    setSaved(null);
  };
  const redoStep = () => {
    const [next, ...rest] = redo;
    if (!next) return;
    setSteps([...steps, next]);
    setRedo(rest);
    setSaved(null);
  };

  /** The edited image as an asset: saved once per set of operations. */
  const ensureSaved = async (): Promise<Asset> => {
    if (operations.length === 0) return asset;
    const key = JSON.stringify(operations);
    if (saved && savedFor.current === key) return saved;
    const created = await saveEdit(asset.id, operations, `${asset.name.replace(/\.[a-z0-9]+$/i, "")} (edited)`);
    savedFor.current = key;
    setSaved(created);
    void mutate(isAssetListKey);
    return created;
  };

  const save = async () => {
    setBusy("save");
    try {
      const created = await ensureSaved();
      notify.success("Saved", `${created.name} is in your assets.`);
      onSaved?.(created);
    } catch (error) {
      notify.error(error, "Could not save the image");
    } finally {
      setBusy(null);
    }
  };

  const [format, setFormat] = useState<ExportFormat>(EXPORT_DEFAULTS.format);
  const [filename, setFilename] = useState<string>(EXPORT_DEFAULTS.filename);
  const [exportType, setExportType] = useState<"ZIP" | "single">(EXPORT_DEFAULTS.type);
  const runExport = async () => {
    setBusy("export");
    try {
      const target = await ensureSaved();
      const name = await exportAssets({
        assetIds: [target.id],
        format,
        filename: withExtension(filename, format),
        type: exportType,
      });
      notify.success("Exported", name);
    } catch (error) {
      notify.error(error, "Could not export");
    } finally {
      setBusy(null);
    }
  };

  const [resize, setResize] = useState<{
    width: number | null;
    height: number | null;
    fit: "cover" | "contain" | "inside";
  }>({
    width: null,
    height: null,
    fit: "inside",
  });
  const [filter, setFilter] = useState<{ name: FilterName; amount: number }>({ name: "grayscale", amount: 100 });
  const [text, setText] = useState({ text: "", x: 40, y: 40, size: 64, color: "#ffffff", font: "Inter" });
  const [background, setBackground] = useState("#ffffff");

  const stagingActions = (
    <Flex gap={8} align="center" wrap>
      <Typography.Text type="secondary">
        {staging ? `Trying: ${stagingLabel}` : "Try a change, then apply it."}
      </Typography.Text>
      <Button type="primary" disabled={!staging} onClick={apply} data-testid="edit-apply">
        Apply
      </Button>
      <Button disabled={!staging} onClick={() => setStaging(null)}>
        Discard
      </Button>
    </Flex>
  );

  const cropTab = (
    <Flex vertical gap={12}>
      <Typography.Text type="secondary">
        Crop to a network's size: the largest centred area of the image, then resized exactly.
      </Typography.Text>
      <div className="crafter-crop-presets" role="radiogroup" aria-label="Crop presets">
        {CROP_PRESETS.map((preset: CropPreset) => (
          <Button
            key={preset.id}
            role="radio"
            aria-checked={stagingLabel === preset.label && !!staging}
            type={stagingLabel === preset.label && staging ? "primary" : "default"}
            disabled={!size.width || !size.height}
            onClick={() => stage(preset.label, presetOperations(preset, size.width, size.height))}
            data-testid={`crop-${preset.id}`}
          >
            {preset.label}
            <Typography.Text type="secondary" style={{ marginInlineStart: 6 }}>
              {preset.width}×{preset.height}
            </Typography.Text>
          </Button>
        ))}
      </div>
    </Flex>
  );

  const adjustTab = (
    <Flex vertical gap={16}>
      <Form layout="vertical" component={false}>
        <Form.Item label="Rotate">
          <Flex gap={8}>
            <Button
              icon={<RotateLeftOutlined />}
              onClick={() => stage("Rotate left", [{ op: "rotate", degrees: -90 }])}
            >
              Left
            </Button>
            <Button
              icon={<RotateRightOutlined />}
              onClick={() => stage("Rotate right", [{ op: "rotate", degrees: 90 }])}
              data-testid="edit-rotate-right"
            >
              Right
            </Button>
          </Flex>
        </Form.Item>
        <Form.Item label={`Resize (now ${size.width}×${size.height})`}>
          <Flex gap={8} wrap>
            <InputNumber
              min={1}
              max={8192}
              placeholder="Width"
              value={resize.width}
              onChange={(width) => setResize({ ...resize, width })}
              aria-label="Width"
            />
            <InputNumber
              min={1}
              max={8192}
              placeholder="Height"
              value={resize.height}
              onChange={(height) => setResize({ ...resize, height })}
              aria-label="Height"
            />
            <Select
              value={resize.fit}
              onChange={(fit) => setResize({ ...resize, fit })}
              options={[
                { value: "inside", label: "Fit inside" },
                { value: "cover", label: "Cover (crop)" },
                { value: "contain", label: "Contain (pad)" },
              ]}
              aria-label="Fit"
            />
            <Button
              disabled={!resize.width}
              onClick={() =>
                resize.width &&
                stage(`Resize to ${resize.width}`, [
                  {
                    op: "resize",
                    width: resize.width,
                    ...(resize.height ? { height: resize.height } : {}),
                    fit: resize.fit,
                  },
                ])
              }
            >
              Try
            </Button>
          </Flex>
        </Form.Item>
        <Form.Item label="Filter">
          <Flex gap={8} wrap align="center">
            <Select
              value={filter.name}
              onChange={(name) => setFilter({ ...filter, name })}
              options={FILTER_NAMES.map((name) => ({ value: name, label: name[0]?.toUpperCase() + name.slice(1) }))}
              style={{ minWidth: 140 }}
              aria-label="Filter"
              data-testid="edit-filter"
            />
            <Slider
              min={0}
              max={filter.name === "brightness" || filter.name === "contrast" ? 300 : 100}
              value={filter.amount}
              onChange={(amount) => setFilter({ ...filter, amount })}
              style={{ minWidth: 140, flex: 1 }}
              aria-label="Amount"
            />
            <Button
              onClick={() => stage(filter.name, [{ op: "filter", name: filter.name, amount: filter.amount }])}
              data-testid="edit-filter-try"
            >
              Try
            </Button>
          </Flex>
        </Form.Item>
      </Form>
    </Flex>
  );

  const textTab = (
    <Flex vertical gap={12}>
      <Form layout="vertical" component={false}>
        <Form.Item label="Text" htmlFor="edit-text">
          <Input
            id="edit-text"
            value={text.text}
            maxLength={500}
            onChange={(event) => setText({ ...text, text: event.target.value })}
          />
        </Form.Item>
        <Flex gap={8} wrap>
          <Form.Item label="X">
            <InputNumber min={0} max={8192} value={text.x} onChange={(x) => setText({ ...text, x: x ?? 0 })} />
          </Form.Item>
          <Form.Item label="Y">
            <InputNumber min={0} max={8192} value={text.y} onChange={(y) => setText({ ...text, y: y ?? 0 })} />
          </Form.Item>
          <Form.Item label="Size">
            <InputNumber min={4} max={1000} value={text.size} onChange={(s) => setText({ ...text, size: s ?? 64 })} />
          </Form.Item>
          <Form.Item label="Colour">
            <ColorPicker value={text.color} onChange={(c) => setText({ ...text, color: c.toHexString() })} />
          </Form.Item>
          <Form.Item label="Font">
            <Select
              value={text.font}
              onChange={(font) => setText({ ...text, font })}
              options={FONTS.map((font) => ({ value: font.family, label: font.family }))}
              style={{ minWidth: 160 }}
            />
          </Form.Item>
        </Flex>
      </Form>
      <Button
        disabled={!text.text.trim()}
        onClick={() =>
          stage(`Text "${text.text.slice(0, 20)}"`, [
            {
              op: "text",
              text: text.text.trim(),
              x: text.x,
              y: text.y,
              size: text.size,
              color: text.color.slice(0, 7),
              font: text.font,
            },
          ])
        }
      >
        Try
      </Button>
    </Flex>
  );

  const backgroundTab = (
    <Flex vertical gap={12}>
      <Typography.Text type="secondary">
        Fills transparent areas (after a rotation, or a PNG with transparency).
      </Typography.Text>
      <Flex gap={8} align="center">
        <ColorPicker value={background} onChange={(c) => setBackground(c.toHexString().slice(0, 7))} showText />
        <Button onClick={() => stage(`Background ${background}`, [{ op: "background", color: background }])}>
          Try
        </Button>
      </Flex>
    </Flex>
  );

  const exportTab = (
    <Form layout="vertical" component={false}>
      <Form.Item label="Format">
        <Radio.Group
          value={format}
          onChange={(event) => {
            const next = event.target.value as ExportFormat;
            setFormat(next);
            setFilename(withExtension(filename, next));
          }}
          optionType="button"
          options={EXPORT_FORMATS.map((value) => ({ value, label: FORMAT_LABELS[value] }))}
          data-testid="export-format"
        />
      </Form.Item>
      <Form.Item label="File name" htmlFor="export-filename">
        <Input
          id="export-filename"
          value={filename}
          onChange={(event) => setFilename(event.target.value)}
          maxLength={120}
        />
      </Form.Item>
      <Form.Item label="Package">
        <Radio.Group
          value={exportType}
          onChange={(event) => setExportType(event.target.value as "ZIP" | "single")}
          options={[
            { value: "ZIP", label: "ZIP" },
            { value: "single", label: "Single file" },
          ]}
          data-testid="export-type"
        />
      </Form.Item>
      <Button type="primary" loading={busy === "export"} onClick={() => void runExport()} data-testid="edit-export">
        Export
      </Button>
    </Form>
  );

  return (
    <Flex vertical gap={16} data-testid="image-edit-panel">
      <div className="crafter-edit-previews">
        <PreviewFrame title="Original" src={asset.thumbnailUrl || asset.url} testId="preview-original" />
        <PreviewFrame
          title="Current"
          src={operations.length > 0 ? current.url : asset.thumbnailUrl || asset.url}
          loading={current.loading}
          error={current.error}
          testId="preview-current"
        />
        <PreviewFrame
          title={staging ? `Trying: ${stagingLabel}` : "Staging"}
          src={staging ? stagingPreview.url : null}
          loading={stagingPreview.loading}
          error={stagingPreview.error}
          testId="preview-staging"
        />
      </div>
      {stagingActions}
      <Flex gap={8} align="center" wrap data-testid="preview-history">
        <Typography.Text type="secondary">History:</Typography.Text>
        <Tag
          color={steps.length === 0 ? "blue" : undefined}
          onClick={() => {
            setRedo([...steps, ...redo]);
            setSteps([]);
          }}
          style={{ cursor: "pointer" }}
        >
          Original
        </Tag>
        {steps.map((step, index) => (
          <Tag
            key={index}
            color={index === steps.length - 1 ? "blue" : undefined}
            style={{ cursor: "pointer" }}
            onClick={() => {
              setRedo([...steps.slice(index + 1), ...redo]);
              setSteps(steps.slice(0, index + 1));
            }}
            data-testid="preview-history-step"
          >
            {step.label}
          </Tag>
        ))}
        <Button
          size="small"
          icon={<UndoOutlined />}
          disabled={steps.length === 0}
          onClick={undoStep}
          aria-label="Undo"
        />
        <Button
          size="small"
          icon={<RedoOutlined />}
          disabled={redo.length === 0}
          onClick={redoStep}
          aria-label="Redo"
        />
      </Flex>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: EDIT_TABS.crop, label: <span data-testid="edit-tab-crop">Crop</span>, children: cropTab },
          { key: EDIT_TABS.adjust, label: <span data-testid="edit-tab-adjust">Adjust</span>, children: adjustTab },
          { key: EDIT_TABS.text, label: <span data-testid="edit-tab-text">Text</span>, children: textTab },
          { key: EDIT_TABS.background, label: "Background", children: backgroundTab },
          { key: EDIT_TABS.export, label: <span data-testid="edit-tab-export">Export</span>, children: exportTab },
        ]}
      />
      <Flex justify="end" gap={8}>
        <Button
          type="primary"
          disabled={operations.length === 0}
          loading={busy === "save"}
          onClick={() => void save()}
          data-testid="edit-save"
        >
          Save as new image
        </Button>
      </Flex>
    </Flex>
  );
}

/** The panel in a modal (assets page, image selection). */
export function ImageEditModal({
  asset,
  onClose,
  onSaved,
}: {
  asset: Asset | null;
  onClose: () => void;
  onSaved?: (asset: Asset) => void;
}) {
  return (
    <Modal
      open={!!asset}
      title={asset ? `Edit ${asset.name}` : "Edit"}
      onCancel={onClose}
      footer={null}
      width={960}
      destroyOnHidden
    >
      {asset && <ImageEditPanel asset={asset} onSaved={onSaved} />}
    </Modal>
  );
}
