import { BgColorsOutlined, DownloadOutlined, ScissorOutlined } from "@ant-design/icons";
import { Button, Flex, Image, Typography } from "antd";
import { type ComponentType, useState } from "react";
import { useSWRConfig } from "swr";
import { useFeature } from "../../api/hooks/app";
import { type Asset, downloadUrl, isAssetListKey, saveEdit } from "../../api/media";
import type { StepResult } from "../../api/types";
import { LinkButton } from "../../shared/LinkButton";
import { notify } from "../../shared/notify";
import { formatDuration } from "./asset-details";
import { CROP_PRESETS, presetOperations } from "./crops";
import { ImageEditModal } from "./ImageEditPanel";
import { designerHref, itemAsAsset, type MediaItem, mediaOfResult } from "./result-media";

/**
 * The craft page's media viewers (spec section 3, "Viewer kinds"): image select, crops image
 * select, audio player and visual designer. Each reads the result with `mediaOfResult`; a result
 * without media shows its text (a prompt, a script) instead.
 */
interface MediaViewerProps {
  result: StepResult;
}

function resultText(result: StepResult): string {
  return typeof result.content === "string" && !result.content.trim().startsWith("/") ? result.content : "";
}

function NoMedia({ result, what }: { result: StepResult; what: string }) {
  const text = resultText(result);
  return (
    <Flex vertical gap={6}>
      <Typography.Text type="secondary">No {what} yet.</Typography.Text>
      {text && <Typography.Paragraph>{text}</Typography.Paragraph>}
    </Flex>
  );
}

function ImageSelectViewer({ result }: MediaViewerProps) {
  const items = mediaOfResult(result, "image").filter((item) => item.type === "image");
  const canEdit = useFeature("image_edit");
  const [editing, setEditing] = useState<Asset | null>(null);
  if (items.length === 0) return <NoMedia result={result} what="image" />;
  return (
    <div data-testid="viewer-image-select">
      <Image.PreviewGroup>
        <div className="crafter-result-images">
          {items.map((item, index) => {
            const asset = itemAsAsset(item);
            return (
              <figure key={item.id ?? index} className="crafter-result-image">
                <Image src={item.thumbnailUrl ?? item.url} preview={{ src: item.url }} alt={item.name ?? "Image"} />
                <Flex gap={4} justify="end">
                  {asset && canEdit && (
                    <Button size="small" icon={<ScissorOutlined />} onClick={() => setEditing(asset)}>
                      Edit
                    </Button>
                  )}
                  {item.id && (
                    <Button
                      size="small"
                      icon={<DownloadOutlined />}
                      href={downloadUrl(item.id)}
                      aria-label="Download"
                    />
                  )}
                </Flex>
              </figure>
            );
          })}
        </div>
      </Image.PreviewGroup>
      {resultText(result) && <Typography.Paragraph type="secondary">{resultText(result)}</Typography.Paragraph>}
      <ImageEditModal asset={editing} onClose={() => setEditing(null)} />
    </div>
  );
}

/** The networks' crops of the result's image: previews in each format, saved as new assets on demand. */
function CropsImageSelectViewer({ result }: MediaViewerProps) {
  const { mutate } = useSWRConfig();
  const [saving, setSaving] = useState<string | null>(null);
  const item: MediaItem | undefined = mediaOfResult(result, "image").find((candidate) => candidate.type === "image");
  if (!item) return <NoMedia result={result} what="image" />;
  const canSave = !!item.id && !!item.width && !!item.height;
  const save = async (presetId: string) => {
    const preset = CROP_PRESETS.find((candidate) => candidate.id === presetId);
    if (!preset || !item.id || !item.width || !item.height) return;
    setSaving(preset.id);
    try {
      const asset = await saveEdit(
        item.id,
        presetOperations(preset, item.width, item.height),
        `${item.name ?? "Image"} (${preset.label})`,
      );
      void mutate(isAssetListKey);
      notify.success("Crop saved", `${asset.name} is in your assets.`);
    } catch (error) {
      notify.error(error, "Could not save the crop");
    } finally {
      setSaving(null);
    }
  };
  return (
    <div className="crafter-crops" data-testid="viewer-crops-image-select">
      {CROP_PRESETS.map((preset) => (
        <figure key={preset.id} className="crafter-crop">
          <div className="crafter-crop__frame" style={{ aspectRatio: `${preset.width} / ${preset.height}` }}>
            <img src={item.thumbnailUrl ?? item.url} alt={`${preset.label} crop`} loading="lazy" />
          </div>
          <figcaption>
            <Typography.Text>{preset.label}</Typography.Text>
            <Typography.Text type="secondary">
              {preset.width}×{preset.height}
            </Typography.Text>
            {canSave && (
              <Button size="small" loading={saving === preset.id} onClick={() => void save(preset.id)}>
                Save
              </Button>
            )}
          </figcaption>
        </figure>
      ))}
    </div>
  );
}

function AudioPlayerViewer({ result }: MediaViewerProps) {
  const items = mediaOfResult(result, "audio").filter((item) => item.type === "audio");
  if (items.length === 0) return <NoMedia result={result} what="audio" />;
  return (
    <Flex vertical gap={12} data-testid="viewer-audio-player">
      {items.map((item, index) => (
        <Flex key={item.id ?? index} vertical gap={4}>
          {/* biome-ignore lint/a11y/useMediaCaption: the spoken script is shown with the player. */}
          <audio controls preload="metadata" src={item.url} style={{ width: "100%" }} data-testid="audio-player" />
          <Flex gap={8} align="center">
            {item.durationMs ? (
              <Typography.Text type="secondary">{formatDuration(item.durationMs)}</Typography.Text>
            ) : null}
            {item.id && (
              <Button size="small" type="link" icon={<DownloadOutlined />} href={downloadUrl(item.id)}>
                Download
              </Button>
            )}
          </Flex>
        </Flex>
      ))}
      {resultText(result) && <Typography.Paragraph>{resultText(result)}</Typography.Paragraph>}
    </Flex>
  );
}

function VisualDesignerViewer({ result }: MediaViewerProps) {
  const enabled = useFeature("visual_designer");
  const images = mediaOfResult(result, "image").filter((item) => item.type === "image");
  return (
    <Flex vertical gap={12} data-testid="viewer-visual-designer">
      {images.length > 0 && (
        <div className="crafter-result-images">
          {images.map((item, index) => (
            <Image
              key={item.id ?? index}
              src={item.thumbnailUrl ?? item.url}
              preview={{ src: item.url }}
              alt="Design"
            />
          ))}
        </div>
      )}
      {resultText(result) && <Typography.Paragraph>{resultText(result)}</Typography.Paragraph>}
      {enabled && (
        <LinkButton to={designerHref(result)} icon={<BgColorsOutlined />} data-testid="open-designer">
          Open in the visual designer
        </LinkButton>
      )}
    </Flex>
  );
}

/** The media viewers, by viewer kind, for the craft page's registry. */
export const MEDIA_VIEWERS = {
  "image select": ImageSelectViewer,
  "crops image select": CropsImageSelectViewer,
  "audio player": AudioPlayerViewer,
  "visual designer": VisualDesignerViewer,
} satisfies Record<string, ComponentType<MediaViewerProps>>;
