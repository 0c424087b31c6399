import { BgColorsOutlined, DeleteOutlined, DownloadOutlined, EditOutlined, ScissorOutlined } from "@ant-design/icons";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Card, Flex, Form, Input, Modal, Popconfirm, Tabs, Tooltip, Typography } from "antd";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useSearchParams } from "react-router-dom";
import { z } from "zod";
import { useFeature } from "../../api/hooks/app";
import {
  ASSET_TYPES,
  type Asset,
  type AssetType,
  deleteAsset,
  downloadUrl,
  isAssetListKey,
  renameAsset,
} from "../../api/media";
import { LinkButton } from "../../shared/LinkButton";
import { useAction } from "../../shared/use-action";
import { AssetBrowser, type BrowserState } from "./AssetBrowser";
import { AssetCard } from "./AssetCard";
import { ImageEditModal } from "./ImageEditPanel";
import { ImageSelectModal } from "./ImageSelectModal";
import { MEDIA_PAGES } from "./paths";
import { UploadButton, UploadList } from "./UploadButton";
import { useUploads } from "./uploads";

export const GROUP_LABELS: Record<AssetType, string> = { image: "Image", video: "Video", audio: "Audio" };

function groupFrom(value: string | null): AssetType {
  return (ASSET_TYPES as readonly string[]).includes(value ?? "") ? (value as AssetType) : "image";
}

const renameSchema = z.object({
  name: z.string().trim().min(1, "A name is required").max(200, "At most 200 characters"),
});
type RenameValues = z.infer<typeof renameSchema>;

function RenameModal({ asset, onClose }: { asset: Asset | null; onClose: () => void }) {
  const renaming = useAction(renameAsset, {
    error: "Could not rename",
    success: "Renamed",
    revalidate: [isAssetListKey],
  });
  const { control, handleSubmit, formState, reset } = useForm<RenameValues>({
    resolver: zodResolver(renameSchema),
    values: { name: asset?.name ?? "" },
  });
  const submit = handleSubmit(async ({ name }) => {
    if (!asset) return;
    if (!(await renaming.run(asset.id, name))) return;
    reset();
    onClose();
  });
  return (
    <Modal
      open={!!asset}
      title="Rename"
      okText="Save"
      onOk={() => void submit()}
      confirmLoading={formState.isSubmitting}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form layout="vertical" component={false}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <Controller
            control={control}
            name="name"
            render={({ field, fieldState }) => (
              <Form.Item
                label="Name"
                htmlFor="asset-rename"
                validateStatus={fieldState.error ? "error" : undefined}
                help={fieldState.error?.message}
              >
                <Input id="asset-rename" autoFocus {...field} data-testid="asset-rename-input" />
              </Form.Item>
            )}
          />
        </form>
      </Form>
    </Modal>
  );
}

/**
 * /app/assets: the user's images, videos and audio in the groups Image, Video and Audio, each with
 * search, a source filter and pagination; upload with progress (video in resumable chunks behind
 * `upload_video`), rename, delete (confirmed), download, and edit for images (`image_edit`).
 */
export default function AssetsPage() {
  const [params, setParams] = useSearchParams();
  const group = groupFrom(params.get("type"));
  const videoAllowed = useFeature("upload_video");
  const canEdit = useFeature("image_edit");
  const canDesign = useFeature("visual_designer");
  const { items, upload, cancel, dismiss } = useUploads(videoAllowed);
  const deletion = useAction(deleteAsset, {
    error: "Could not delete",
    success: "Deleted",
    revalidate: [isAssetListKey],
  });
  const [renaming, setRenaming] = useState<Asset | null>(null);
  const [editing, setEditing] = useState<Asset | null>(null);
  const [choosing, setChoosing] = useState(false);
  const state: BrowserState = {
    q: params.get("q") ?? "",
    source: params.get("source") ?? "",
    page: Math.max(1, Number(params.get("page")) || 1),
  };

  const setState = (next: BrowserState, type: AssetType = group) => {
    const query = new URLSearchParams();
    if (type !== "image") query.set("type", type);
    if (next.q) query.set("q", next.q);
    if (next.source) query.set("source", next.source);
    if (next.page > 1) query.set("page", String(next.page));
    setParams(query);
  };

  const remove = (asset: Asset) => deletion.run(asset.id);

  const card = (asset: Asset) => (
    <AssetCard
      asset={asset}
      controls
      actions={[
        <Tooltip title="Rename" key="rename">
          <Button
            type="text"
            icon={<EditOutlined />}
            aria-label={`Rename ${asset.name}`}
            onClick={() => setRenaming(asset)}
            data-testid="asset-rename"
          />
        </Tooltip>,
        ...(asset.type === "image" && canEdit
          ? [
              <Tooltip title="Edit" key="edit">
                <Button
                  type="text"
                  icon={<ScissorOutlined />}
                  aria-label={`Edit ${asset.name}`}
                  onClick={() => setEditing(asset)}
                  data-testid="asset-edit"
                />
              </Tooltip>,
            ]
          : []),
        <Tooltip title="Download" key="download">
          <Button
            type="text"
            icon={<DownloadOutlined />}
            href={downloadUrl(asset.id)}
            download={asset.name}
            aria-label={`Download ${asset.name}`}
            data-testid="asset-download"
          />
        </Tooltip>,
        <Popconfirm
          key="delete"
          title="Delete this asset?"
          description="It is removed everywhere it is used."
          okText="Delete"
          okButtonProps={{ danger: true, id: `asset-delete-confirm-${asset.id}` }}
          onConfirm={() => remove(asset)}
        >
          <Button
            type="text"
            danger
            icon={<DeleteOutlined />}
            aria-label={`Delete ${asset.name}`}
            data-testid="asset-delete"
          />
        </Popconfirm>,
      ]}
    />
  );

  return (
    <Flex vertical gap={24} data-testid="assets-page">
      <Flex justify="space-between" align="center" wrap gap={16}>
        <div>
          <Typography.Title level={2} style={{ margin: 0 }}>
            Assets
          </Typography.Title>
          <Typography.Text type="secondary">Your images, videos and audio</Typography.Text>
        </div>
        <Flex gap={8} wrap>
          {canDesign && (
            <LinkButton to={MEDIA_PAGES.designer} icon={<BgColorsOutlined />} data-testid="assets-design">
              Design a graphic
            </LinkButton>
          )}
          {canEdit && (
            <Button icon={<ScissorOutlined />} onClick={() => setChoosing(true)} data-testid="assets-edit-image">
              Edit an image
            </Button>
          )}
          <UploadButton upload={upload} videoAllowed={videoAllowed} />
        </Flex>
      </Flex>
      <UploadList items={items} cancel={cancel} dismiss={dismiss} />
      <Card>
        <Tabs
          activeKey={group}
          onChange={(key) => setState({ q: "", source: "", page: 1 }, key as AssetType)}
          items={ASSET_TYPES.map((type) => ({
            key: type,
            label: <span data-testid={`assets-tab-${type}`}>{GROUP_LABELS[type]}</span>,
            children:
              type === group ? (
                <AssetBrowser
                  key={`${type}-${state.q}`}
                  type={type}
                  state={state}
                  onChange={(next) => setState(next)}
                  renderCard={card}
                  empty={
                    type === "video" && !videoAllowed
                      ? "Video uploads are not enabled for your account."
                      : `No ${type === "audio" ? "audio" : `${type}s`} yet. Upload one to start.`
                  }
                />
              ) : null,
          }))}
        />
      </Card>
      <RenameModal asset={renaming} onClose={() => setRenaming(null)} />
      <ImageEditModal asset={editing} onClose={() => setEditing(null)} />
      <ImageSelectModal
        open={choosing}
        okText="Edit this image"
        allowStock={false}
        onCancel={() => setChoosing(false)}
        onSelect={(asset) => {
          setChoosing(false);
          setEditing(asset);
        }}
      />
    </Flex>
  );
}
