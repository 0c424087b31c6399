import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  BorderOutlined,
  DeleteOutlined,
  FileImageOutlined,
  FileZipOutlined,
  FontSizeOutlined,
  PictureOutlined,
  PlusOutlined,
  RedoOutlined,
  SaveOutlined,
  StarOutlined,
  ThunderboltOutlined,
  UndoOutlined,
} from "@ant-design/icons";
import {
  Button,
  Card,
  ColorPicker,
  Flex,
  Grid,
  Input,
  InputNumber,
  Result,
  Select,
  Space,
  Tooltip,
  Typography,
} from "antd";
import type Konva from "konva";
import { useCallback, useEffect, useRef, useState } from "react";
import { Ellipse, Image as KonvaImage, Layer, Rect, Stage, Text, Transformer } from "react-konva";
import { useSearchParams } from "react-router-dom";
import { useSWRConfig } from "swr";
import { useFeature } from "../../../api/hooks/app";
import {
  type Asset,
  createDesign,
  exportDesign,
  generateImage,
  isAssetListKey,
  putDesignImage,
  saveBlob,
  updateDesign,
  useDesign,
} from "../../../api/media";
import { countLabel } from "../../../shared/format";
import { notify } from "../../../shared/notify";
import { ErrorState, FullPageSpin } from "../../../shared/states";
import { ImageSelectModal } from "../ImageSelectModal";
import { loadDesignerFonts } from "./fonts";
import {
  addElement,
  addStage,
  canRedo,
  canUndo,
  type Design,
  type DesignElement,
  type DesignStage,
  FONTS,
  firstChild,
  fromTemplate,
  type History,
  historyOf,
  moveElement,
  newElement,
  parseDesign,
  type RecentColours,
  readableOn,
  record,
  redo,
  rememberColour,
  removeElement,
  removeStage,
  TEMPLATES,
  type TemplateContent,
  undo,
  updateElement,
} from "./model";

/** An HTMLImageElement for a URL, once loaded (same-origin /media URLs keep the canvas exportable). */
function useImageElement(src: string | undefined): HTMLImageElement | undefined {
  const [image, setImage] = useState<HTMLImageElement>();
  useEffect(() => {
    if (!src) return;
    const element = new window.Image();
    element.crossOrigin = "anonymous";
    element.onload = () => setImage(element);
    element.src = src;
    return () => {
      element.onload = null;
    };
  }, [src]);
  return image;
}

interface ShapeProps {
  element: DesignElement;
  selectable: boolean;
  onSelect: () => void;
  onChange: (patch: Partial<DesignElement>) => void;
}

function ImageNode({ element, selectable, onSelect, onChange }: ShapeProps) {
  const image = useImageElement(element.src);
  return (
    <KonvaImage
      id={element.id}
      image={image}
      x={element.x}
      y={element.y}
      width={element.width}
      height={element.height}
      rotation={element.rotation}
      draggable={selectable}
      onMouseDown={onSelect}
      onTap={onSelect}
      onDragEnd={(event) => onChange({ x: Math.round(event.target.x()), y: Math.round(event.target.y()) })}
    />
  );
}

function ElementNode(props: ShapeProps) {
  const { element, selectable, onSelect, onChange } = props;
  const common = {
    id: element.id,
    x: element.x,
    y: element.y,
    rotation: element.rotation,
    fill: element.fill,
    draggable: selectable && element.type !== "background",
    onMouseDown: onSelect,
    onTap: onSelect,
    onDragEnd: (event: Konva.KonvaEventObject<DragEvent>) =>
      onChange({ x: Math.round(event.target.x()), y: Math.round(event.target.y()) }),
  };
  switch (element.type) {
    case "background":
      return <Rect {...common} width={element.width} height={element.height} />;
    case "text":
      return (
        <Text
          {...common}
          width={element.width}
          text={element.text ?? ""}
          fontFamily={element.fontFamily}
          fontStyle={String(element.fontWeight ?? 400)}
          fontSize={element.fontSize}
          lineHeight={1.15}
        />
      );
    case "shape":
      return element.shape === "ellipse" ? (
        <Ellipse
          {...common}
          x={element.x + element.width / 2}
          y={element.y + element.height / 2}
          radiusX={element.width / 2}
          radiusY={element.height / 2}
          onDragEnd={(event) =>
            onChange({
              x: Math.round(event.target.x() - element.width / 2),
              y: Math.round(event.target.y() - element.height / 2),
            })
          }
        />
      ) : (
        <Rect {...common} width={element.width} height={element.height} cornerRadius={element.cornerRadius} />
      );
    case "image":
    case "logo":
      return <ImageNode {...props} />;
  }
}

/** The page's size on screen: as wide as the column allows, at most 70% of the window's height. */
function useFitScale(width: number, height: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [box, setBox] = useState({ width: 600, height: 600 });
  useEffect(() => {
    const node = ref.current;
    if (!node) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setBox({ width: entry.contentRect.width, height: window.innerHeight * 0.7 });
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  const scale = Math.min(box.width / width, box.height / height, 1);
  return { ref, scale: scale > 0 ? scale : 0.1 };
}

function elementLabel(element: DesignElement): string {
  if (element.type === "text") return `Text “${(element.text ?? "").slice(0, 24)}”`;
  if (element.type === "background") return "Background";
  if (element.type === "shape") return element.shape === "ellipse" ? "Ellipse" : "Rectangle";
  return element.type === "logo" ? "Logo" : "Image";
}

function initialDesign(params: URLSearchParams): Design {
  const template = TEMPLATES.find((candidate) => candidate.id === params.get("template")) ?? TEMPLATES[0];
  if (!template) throw new Error("no templates");
  const content: TemplateContent = {};
  const headline = params.get("headline");
  if (headline) content.headline = headline.slice(0, 200);
  const body = params.get("body");
  if (body) content.body = body.slice(0, 400);
  const colours = params
    .get("colours")
    ?.split(",")
    .map((colour) => colour.trim())
    .filter((colour) => /^#[0-9a-fA-F]{6}$/.test(colour));
  if (colours?.length) content.colours = colours;
  const font = FONTS.find((candidate) => candidate.family === params.get("font"));
  if (font) content.font = font.family;
  return fromTemplate(template, content);
}

/**
 * The visual designer (flag `visual_designer`): pages (stages) of elements (text, image, shape,
 * logo) drawn with react-konva, bundled fonts, recent colours per element, undo/redo, templates in
 * the networks' sizes, saved as a design document (with the PNG of the page on screen) and
 * exported as PNG (in the browser) or ZIP (the server's: that PNG and the design's JSON). `?id=` opens a saved design; `?template=&headline=&body=
 * &colours=&font=` starts one from a workflow's results.
 */
export default function DesignerPage() {
  const enabled = useFeature("visual_designer");
  const [params] = useSearchParams();
  const id = params.get("id");
  const { data, error, mutate } = useDesign(id);
  if (!enabled) {
    return (
      <Result
        status="info"
        title="The visual designer is not enabled for your account"
        data-testid="designer-disabled"
      />
    );
  }
  if (id && !data && !error) return <FullPageSpin label="Loading the design" />;
  if (id && !data) return <ErrorState error={error} onRetry={() => void mutate()} />;
  const loaded = data
    ? parseDesign({ name: data.name, width: data.width, height: data.height, stages: data.stages })
    : undefined;
  if (data && !loaded) return <ErrorState error={new Error("This design cannot be opened.")} />;
  return <Designer key={id ?? "new"} initial={loaded ?? initialDesign(params)} savedId={id} />;
}

export interface DesignerProps {
  initial: Design;
  savedId: string | null;
  /**
   * Embedded in a craft step: called with the design's id once the design and its PNG are saved
   * (the step completes with them); the page's URL is left alone.
   */
  onSaved?: (designId: string) => Promise<unknown>;
  /** Image prompts (a craft's brief) to generate an image from, through the media service. */
  prompts?: readonly string[];
  saveLabel?: string;
}

export function Designer({ initial, savedId, onSaved, prompts = [], saveLabel = "Save" }: DesignerProps) {
  const { mutate: mutateCache } = useSWRConfig();
  const [prompt, setPrompt] = useState<string | undefined>(prompts[0]);
  const [generating, setGenerating] = useState(false);
  const [history, setHistory] = useState<History<Design>>(() => historyOf(initial));
  const design = history.present;
  const [stageId, setStageId] = useState(initial.stages[0]?.id ?? "");
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [recent, setRecent] = useState<RecentColours>({});
  const [designId, setDesignId] = useState<string | null>(savedId);
  const [saving, setSaving] = useState(false);
  // On a phone (under antd's sm, 576 px) the add buttons show their icons only: with their labels
  // the group is wider than the card and runs past its edge (it does not wrap).
  const narrow = !Grid.useBreakpoint().sm;
  const [picking, setPicking] = useState<"image" | "logo" | null>(null);
  const [fontsReady, setFontsReady] = useState(0);
  const stageRef = useRef<Konva.Stage>(null);
  const transformerRef = useRef<Konva.Transformer>(null);
  const { ref: frameRef, scale } = useFitScale(design.width, design.height);

  const stage: DesignStage | undefined =
    design.stages.find((candidate) => candidate.id === stageId) ?? design.stages[0];
  const selected = stage?.elements.find((element) => element.id === selectedId);

  useEffect(() => {
    void loadDesignerFonts().then(() => setFontsReady((count) => count + 1));
  }, []);

  const change = useCallback((next: Design) => setHistory((current) => record(current, next)), []);

  // The Transformer follows the selected element (never the background).
  useEffect(() => {
    const transformer = transformerRef.current;
    const node = selected && selected.type !== "background" ? stageRef.current?.findOne(`#${selected.id}`) : undefined;
    transformer?.nodes(node ? [node] : []);
    transformer?.getLayer()?.batchDraw();
  }, [selected, design, fontsReady]);

  const add = (element: DesignElement) => {
    if (!stage) return;
    const next = addElement(design, stage.id, element);
    if (next === design) {
      notify.errorMessage("Cannot add", "This page has no background to add to.");
      return;
    }
    change(next);
    setSelectedId(element.id);
  };

  const patchSelected = (patch: Partial<DesignElement>) => {
    if (stage && selected) change(updateElement(design, stage.id, selected.id, patch));
  };

  const setColour = (colour: string) => {
    if (!selected) return;
    patchSelected({ fill: colour });
    setRecent((current) => rememberColour(current, selected.id, colour));
  };

  const doUndo = useCallback(() => setHistory((current) => undo(current)), []);
  const doRedo = useCallback(() => setHistory((current) => redo(current)), []);
  const deleteSelected = useCallback(() => {
    if (!stage || !selected || selected.type === "background") return;
    change(removeElement(design, stage.id, selected.id));
    setSelectedId(null);
  }, [change, design, selected, stage]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target?.closest("input, textarea, select, [contenteditable=true]")) return;
      const mod = event.ctrlKey || event.metaKey;
      if (mod && event.key.toLowerCase() === "z" && !event.shiftKey) {
        event.preventDefault();
        doUndo();
      } else if (mod && (event.key.toLowerCase() === "y" || (event.key.toLowerCase() === "z" && event.shiftKey))) {
        event.preventDefault();
        doRedo();
      } else if (event.key === "Delete" || event.key === "Backspace") {
        deleteSelected();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [deleteSelected, doRedo, doUndo]);

  /** The document the media service stores. */
  const documentOf = (current: Design) => ({
    name: current.name,
    width: current.width,
    height: current.height,
    stages: current.stages,
  });

  /** The page on screen at its real size, without the selection handles. */
  const renderPng = (): Promise<Blob | null> =>
    new Promise((resolve) => {
      const konvaStage = stageRef.current;
      if (!konvaStage) return resolve(null);
      const transformer = transformerRef.current;
      const nodes = transformer?.nodes() ?? [];
      transformer?.nodes([]);
      konvaStage.draw();
      // toBlob, not toDataURL + fetch: the CSP allows no fetch of a data: URL.
      konvaStage.toBlob({
        mimeType: "image/png",
        pixelRatio: 1 / scale,
        callback: (blob) => {
          transformer?.nodes(nodes);
          resolve(blob);
        },
      });
    });

  const fileBase = design.name.replace(/[^\w.-]+/g, "-") || "design";

  /** Saves the document and the PNG of the page on screen (the design's export sends it). */
  const save = async (): Promise<string | null> => {
    setSaving(true);
    try {
      const saved = designId
        ? await updateDesign(designId, documentOf(design))
        : await createDesign(documentOf(design));
      if (!designId) {
        setDesignId(saved.id);
        if (!onSaved) window.history.replaceState(window.history.state, "", `?id=${encodeURIComponent(saved.id)}`);
      }
      const png = await renderPng();
      if (png) await putDesignImage(saved.id, png);
      if (onSaved) await onSaved(saved.id);
      else notify.success("Design saved");
      return saved.id;
    } catch (error) {
      notify.error(error, "Could not save the design");
      return null;
    } finally {
      setSaving(false);
    }
  };

  const exportPng = async () => {
    const png = await renderPng();
    if (png) saveBlob(png, `${fileBase}.png`);
    else notify.errorMessage("Could not export", "The page could not be drawn.");
  };

  const exportZip = async () => {
    const savedId = await save();
    if (!savedId) return;
    try {
      await exportDesign(savedId, "ZIP", `${fileBase}.zip`);
    } catch (error) {
      notify.error(error, "Could not export the design");
    }
  };

  const placeImage = (asset: Asset, kind: "image" | "logo") => {
    const ratio = asset.width && asset.height ? asset.width / asset.height : 1;
    const element = newElement(kind, design.width, design.height, { assetId: asset.id, src: asset.url });
    const height = Math.round(element.width / ratio);
    add({ ...element, height, y: Math.round((design.height - height) / 2) });
  };

  const onPicked = (asset: Asset) => {
    const kind = picking ?? "image";
    setPicking(null);
    placeImage(asset, kind);
  };

  /** Generates an image from a prompt of the brief and puts it on the page (debited by the media service). */
  const generate = async () => {
    if (!prompt) return;
    setGenerating(true);
    try {
      const headline = stage?.elements.find((element) => element.type === "text")?.text ?? "";
      const colours = (stage?.elements ?? [])
        .map((element) => element.fill.toLowerCase())
        .filter((fill, at, all) => /^#[0-9a-f]{6}$/.test(fill) && all.indexOf(fill) === at)
        .slice(0, 3);
      const asset = await generateImage(prompt, design.width, design.height, headline, colours);
      void mutateCache(isAssetListKey);
      placeImage(asset, "image");
    } catch (error) {
      notify.error(error, "Could not generate the image");
    } finally {
      setGenerating(false);
    }
  };

  const elementCount = (stage?.elements.length ?? 1) - 1;
  const colours = selected ? (recent[selected.id] ?? []) : [];
  const stageIndex = Math.max(
    0,
    design.stages.findIndex((candidate) => candidate.id === stage?.id),
  );

  const adders = [
    {
      kind: "text",
      label: "Text",
      title: "Add text",
      icon: <FontSizeOutlined />,
      onClick: () =>
        add(newElement("text", design.width, design.height, { fill: readableOn(firstChild(stage)?.fill) })),
    },
    {
      kind: "shape",
      label: "Shape",
      title: "Add a shape",
      icon: <BorderOutlined />,
      onClick: () => add(newElement("shape", design.width, design.height)),
    },
    {
      kind: "image",
      label: "Image",
      title: "Add an image",
      icon: <PictureOutlined />,
      onClick: () => setPicking("image"),
    },
    { kind: "logo", label: "Logo", title: "Add a logo", icon: <StarOutlined />, onClick: () => setPicking("logo") },
  ];
  const toolbar = (
    <Flex gap={8} wrap align="center" data-testid="designer-toolbar">
      <Select
        aria-label="Template"
        placeholder="New from a template"
        style={{ minWidth: 200 }}
        value={null}
        options={TEMPLATES.map((template) => ({
          value: template.id,
          label: `${template.label} · ${template.width}×${template.height}`,
        }))}
        onChange={(value: string) => {
          const template = TEMPLATES.find((candidate) => candidate.id === value);
          if (!template) return;
          const next = fromTemplate(template);
          change(next);
          setStageId(next.stages[0]?.id ?? "");
          setSelectedId(null);
        }}
        data-testid="designer-template"
      />
      <Space.Compact>
        {adders.map(({ kind, label, title, icon, onClick }) => (
          <Tooltip key={kind} title={title}>
            <Button icon={icon} onClick={onClick} aria-label={title} data-testid={`designer-add-${kind}`}>
              {narrow ? null : label}
            </Button>
          </Tooltip>
        ))}
      </Space.Compact>
      <Space.Compact>
        <Tooltip title="Undo (Ctrl+Z)">
          <Button
            icon={<UndoOutlined />}
            disabled={!canUndo(history)}
            onClick={doUndo}
            aria-label="Undo"
            data-testid="designer-undo"
          />
        </Tooltip>
        <Tooltip title="Redo (Ctrl+Shift+Z)">
          <Button
            icon={<RedoOutlined />}
            disabled={!canRedo(history)}
            onClick={doRedo}
            aria-label="Redo"
            data-testid="designer-redo"
          />
        </Tooltip>
      </Space.Compact>
      <Button
        type={onSaved ? "primary" : "default"}
        icon={<SaveOutlined />}
        loading={saving}
        onClick={() => void save()}
        data-testid="designer-save"
      >
        {saveLabel}
      </Button>
      <Button
        type={onSaved ? "default" : "primary"}
        icon={<FileImageOutlined />}
        onClick={() => void exportPng()}
        data-testid="designer-export-png"
      >
        Export PNG
      </Button>
      <Button icon={<FileZipOutlined />} onClick={() => void exportZip()} data-testid="designer-export-zip">
        ZIP (PNG + design)
      </Button>
    </Flex>
  );

  const properties = selected ? (
    <Flex vertical gap={12} data-testid="designer-properties">
      <Typography.Text strong>{elementLabel(selected)}</Typography.Text>
      {selected.type === "text" && (
        <>
          <Input.TextArea
            aria-label="Text"
            autoSize={{ minRows: 2, maxRows: 6 }}
            value={selected.text}
            maxLength={2000}
            onChange={(event) => patchSelected({ text: event.target.value })}
            data-testid="designer-text"
          />
          <Select
            aria-label="Font"
            value={selected.fontFamily}
            options={FONTS.map((font) => ({
              value: font.family,
              label: <span style={{ fontFamily: font.family }}>{font.family}</span>,
            }))}
            onChange={(fontFamily: string) => patchSelected({ fontFamily })}
          />
          <Flex gap={8}>
            <Select
              aria-label="Weight"
              value={selected.fontWeight ?? 400}
              options={(FONTS.find((font) => font.family === selected.fontFamily)?.weights ?? [400, 700]).map(
                (weight) => ({
                  value: weight,
                  label: weight === 700 ? "Bold" : "Regular",
                }),
              )}
              onChange={(fontWeight: number) => patchSelected({ fontWeight })}
              style={{ flex: 1 }}
            />
            <InputNumber
              aria-label="Size"
              min={4}
              max={1000}
              value={selected.fontSize}
              onChange={(fontSize) => fontSize && patchSelected({ fontSize })}
              style={{ width: 96 }}
            />
          </Flex>
        </>
      )}
      {selected.type === "shape" && (
        <Select
          aria-label="Shape"
          value={selected.shape ?? "rect"}
          options={[
            { value: "rect", label: "Rectangle" },
            { value: "ellipse", label: "Ellipse" },
          ]}
          onChange={(shape: "rect" | "ellipse") => patchSelected({ shape })}
        />
      )}
      {selected.type !== "image" && selected.type !== "logo" && (
        <Flex vertical gap={6}>
          <Typography.Text type="secondary">Colour</Typography.Text>
          <ColorPicker
            value={selected.fill}
            showText
            disabledAlpha
            onChangeComplete={(colour) => setColour(colour.toHexString())}
            data-testid="designer-colour"
          />
          {colours.length > 0 && (
            <Flex gap={6} data-testid="designer-recent-colours" aria-label="Recent colours">
              {colours.map((colour) => (
                <button
                  type="button"
                  key={colour}
                  className="crafter-swatch"
                  style={{ background: colour }}
                  aria-label={`Use ${colour}`}
                  onClick={() => patchSelected({ fill: colour })}
                />
              ))}
            </Flex>
          )}
        </Flex>
      )}
      {selected.type !== "background" && stage && (
        <Flex gap={8}>
          <Tooltip title="Bring forward">
            <Button
              icon={<ArrowUpOutlined />}
              aria-label="Bring forward"
              onClick={() => change(moveElement(design, stage.id, selected.id, 1))}
            />
          </Tooltip>
          <Tooltip title="Send backward">
            <Button
              icon={<ArrowDownOutlined />}
              aria-label="Send backward"
              onClick={() => change(moveElement(design, stage.id, selected.id, -1))}
            />
          </Tooltip>
          <Button danger icon={<DeleteOutlined />} onClick={deleteSelected} data-testid="designer-delete">
            Delete
          </Button>
        </Flex>
      )}
    </Flex>
  ) : (
    <Typography.Text type="secondary">Select an element on the page to change it.</Typography.Text>
  );

  const generator =
    prompts.length > 0 ? (
      <Flex gap={8} wrap align="center" data-testid="designer-generate">
        <Select
          aria-label="Image prompt"
          value={prompt}
          onChange={setPrompt}
          style={{ flex: 1, minWidth: 240 }}
          options={prompts.map((candidate) => ({ value: candidate, label: candidate }))}
          data-testid="designer-prompt"
        />
        <Button
          icon={<ThunderboltOutlined />}
          loading={generating}
          disabled={!prompt}
          onClick={() => void generate()}
          data-testid="designer-generate-image"
        >
          Generate image
        </Button>
      </Flex>
    ) : null;

  return (
    <Flex vertical gap={16} data-testid="designer-page">
      <Flex justify="space-between" align="center" wrap gap={12}>
        <Input
          aria-label="Design name"
          value={design.name}
          maxLength={120}
          onChange={(event) => change({ ...design, name: event.target.value || "Untitled design" })}
          style={{ maxWidth: 320, fontSize: 18, fontWeight: 600 }}
          variant="borderless"
          data-testid="designer-name"
        />
        <Typography.Text type="secondary" data-testid="designer-size">
          {design.width}×{design.height}
        </Typography.Text>
      </Flex>
      {toolbar}
      {generator}
      <div className="crafter-designer">
        <Card size="small" title="Pages" className="crafter-designer__pages">
          <Flex vertical gap={8}>
            {design.stages.map((candidate, index) => (
              <Flex key={candidate.id} gap={4} align="center">
                <Button
                  block
                  type={candidate.id === stage?.id ? "primary" : "default"}
                  onClick={() => {
                    setStageId(candidate.id);
                    setSelectedId(null);
                  }}
                  data-testid="designer-page-tab"
                >
                  {candidate.name || `Page ${index + 1}`}
                </Button>
                {design.stages.length > 1 && (
                  <Button
                    type="text"
                    icon={<DeleteOutlined />}
                    aria-label={`Remove ${candidate.name}`}
                    onClick={() => {
                      const next = removeStage(design, candidate.id);
                      change(next);
                      if (candidate.id === stage?.id) setStageId(next.stages[0]?.id ?? "");
                    }}
                  />
                )}
              </Flex>
            ))}
            <Button
              icon={<PlusOutlined />}
              onClick={() => {
                const next = addStage(design);
                change(next);
                setStageId(next.stages.at(-1)?.id ?? "");
                setSelectedId(null);
              }}
              data-testid="designer-add-page"
            >
              Page
            </Button>
          </Flex>
        </Card>
        <div className="crafter-designer__canvas" ref={frameRef}>
          <div
            className="crafter-designer__stage"
            style={{ width: design.width * scale, height: design.height * scale }}
            data-testid="designer-canvas"
            data-elements={elementCount}
            data-texts={(stage?.elements ?? [])
              .filter((element) => element.type === "text")
              .map((element) => element.text ?? "")
              .join("\n")}
            data-page={stageIndex + 1}
          >
            <Stage
              ref={stageRef}
              width={design.width * scale}
              height={design.height * scale}
              scaleX={scale}
              scaleY={scale}
              onMouseDown={(event) => {
                if (event.target === event.target.getStage()) setSelectedId(null);
              }}
            >
              <Layer key={fontsReady}>
                {stage?.elements.map((element) => (
                  <ElementNode
                    key={element.id}
                    element={element}
                    selectable
                    onSelect={() => setSelectedId(element.id)}
                    onChange={(patch) => change(updateElement(design, stage.id, element.id, patch))}
                  />
                ))}
                <Transformer
                  ref={transformerRef}
                  rotateEnabled
                  keepRatio={false}
                  onTransformEnd={() => {
                    const node = transformerRef.current?.nodes()[0];
                    if (!node || !stage || !selected) return;
                    const scaleX = node.scaleX();
                    const scaleY = node.scaleY();
                    node.scaleX(1);
                    node.scaleY(1);
                    const width = Math.max(4, Math.round(selected.width * scaleX));
                    const height = Math.max(4, Math.round(selected.height * scaleY));
                    const ellipse = selected.type === "shape" && selected.shape === "ellipse";
                    change(
                      updateElement(design, stage.id, selected.id, {
                        x: Math.round(ellipse ? node.x() - width / 2 : node.x()),
                        y: Math.round(ellipse ? node.y() - height / 2 : node.y()),
                        width,
                        height,
                        rotation: Math.round(node.rotation()),
                        ...(selected.type === "text" && selected.fontSize
                          ? { fontSize: Math.max(4, Math.round(selected.fontSize * scaleY)) }
                          : {}),
                      }),
                    );
                  }}
                />
              </Layer>
            </Stage>
          </div>
          <Typography.Text type="secondary" data-testid="designer-element-count">
            {countLabel(elementCount, "element")} on page {stageIndex + 1}
          </Typography.Text>
        </div>
        <Card size="small" title="Properties" className="crafter-designer__properties">
          {properties}
          {selected && selected.type !== "background" && stage && (
            <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
              Drag to move; the handles resize and rotate.
            </Typography.Paragraph>
          )}
        </Card>
      </div>
      <ImageSelectModal
        open={picking !== null}
        title={picking === "logo" ? "Choose a logo" : "Choose an image"}
        okText="Add to the page"
        onCancel={() => setPicking(null)}
        onSelect={onPicked}
      />
    </Flex>
  );
}
