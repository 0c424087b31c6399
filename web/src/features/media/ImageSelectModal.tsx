import { Button, Flex, Input, Modal, Pagination, Segmented, Tabs, Typography } from "antd";
import { useState } from "react";
import { useFeature } from "../../api/hooks/app";
import { ASSET_TYPES, type Asset, type AssetType, isStock, trackStockChoice, useStock } from "../../api/media";
import { EmptyState, ErrorState, LoadingBlock } from "../../shared/states";
import { AssetBrowser, type BrowserState } from "./AssetBrowser";
import { AssetCard } from "./AssetCard";
import { ImageEditPanel } from "./ImageEditPanel";
import { UploadButton, UploadList } from "./UploadButton";
import { useUploads } from "./uploads";

/** The image selection modal's tabs; the spec opens it on tab 0 (crafted). */
export const SELECT_TABS = { crafted: "0", stocked: "1", uploaded: "2", groups: "3" } as const;
export const DEFAULT_SELECT_TAB = SELECT_TABS.crafted;

/** Sources of images made in Crafter (AI, the offline composer, the visual designer). */
const CRAFTED_SOURCES = [
  { value: "AI", label: "AI" },
  { value: "composed", label: "Composed" },
  { value: "designer", label: "Designer" },
];

const GROUP_LABELS: Record<AssetType, string> = { image: "Image", video: "Video", audio: "Audio" };
const FIRST_PAGE: BrowserState = { q: "", source: "", page: 1 };

function StockTab({ selected, onPick }: { selected: Asset | null; onPick: (asset: Asset) => void }) {
  const [q, setQ] = useState("");
  const [page, setPage] = useState(1);
  const { data, error, isLoading, mutate } = useStock(q, page);
  return (
    <Flex vertical gap={16}>
      <Input.Search
        allowClear
        placeholder="Search stock photos"
        onSearch={(next) => {
          setQ(next);
          setPage(1);
        }}
        style={{ maxWidth: 320 }}
        aria-label="Search stock photos"
        data-testid="stock-search"
      />
      {!data && isLoading ? (
        <LoadingBlock rows={6} />
      ) : !data ? (
        <ErrorState error={error} onRetry={() => void mutate()} />
      ) : data.result.length === 0 ? (
        <EmptyState description="No stock photos match." />
      ) : (
        <>
          <ul className="crafter-asset-grid" data-testid="stock-grid">
            {data.result.map((asset) => (
              <li key={asset.id}>
                <AssetCard asset={asset} selected={selected?.id === asset.id} onClick={() => onPick(asset)} />
              </li>
            ))}
          </ul>
          {data.meta.totalPages > 1 && (
            <Pagination
              align="end"
              current={data.meta.currentPage || page}
              total={data.meta.count}
              pageSize={Math.max(1, Math.ceil(data.meta.count / data.meta.totalPages))}
              showSizeChanger={false}
              onChange={setPage}
            />
          )}
        </>
      )}
    </Flex>
  );
}

/**
 * The image selection modal used everywhere an image is chosen (spec section 2 and 3, "Image
 * selection"): crafted, stocked and uploaded images, and the asset groups Image, Video and Audio,
 * on tabs (tab 0 first). A picked image can be edited first (flag `image_edit`); the edited copy
 * is what is chosen then. `types` limits which groups may be chosen (images by default).
 */
export function ImageSelectModal({
  open,
  onCancel,
  onSelect,
  title = "Choose an image",
  okText = "Use this image",
  types = ["image"],
  allowStock = true,
}: {
  open: boolean;
  onCancel: () => void;
  onSelect: (asset: Asset) => void;
  title?: string;
  okText?: string;
  types?: AssetType[];
  /** False where the choice must be the user's own asset (editing): the stock tab is hidden. */
  allowStock?: boolean;
}) {
  const videoAllowed = useFeature("upload_video");
  const canEdit = useFeature("image_edit");
  const [tab, setTab] = useState<string>(DEFAULT_SELECT_TAB);
  const [selected, setSelected] = useState<Asset | null>(null);
  const [editing, setEditing] = useState(false);
  const [crafted, setCrafted] = useState(FIRST_PAGE);
  const [uploaded, setUploaded] = useState(FIRST_PAGE);
  const [group, setGroup] = useState<AssetType>(types[0] ?? "image");
  const [grouped, setGrouped] = useState(FIRST_PAGE);
  const { items, upload, cancel, dismiss } = useUploads(videoAllowed);

  const pick = (asset: Asset) => setSelected(asset);
  const selectable = !!selected && types.includes(selected.type);
  const card = (asset: Asset) => (
    <AssetCard asset={asset} selected={selected?.id === asset.id} onClick={() => pick(asset)} />
  );
  const close = () => {
    setEditing(false);
    onCancel();
  };

  return (
    <Modal
      open={open}
      title={editing && selected ? `Edit ${selected.name}` : title}
      onCancel={close}
      width={960}
      destroyOnHidden
      data-testid="image-select-modal"
      footer={
        editing ? (
          <Button onClick={() => setEditing(false)}>Back to the images</Button>
        ) : (
          <Flex justify="space-between" gap={8} wrap>
            <Typography.Text type="secondary" ellipsis data-testid="image-select-selected">
              {selected ? selected.name : "Nothing chosen yet"}
            </Typography.Text>
            <Flex gap={8}>
              {canEdit && selected?.type === "image" && !isStock(selected) && (
                <Button onClick={() => setEditing(true)} data-testid="image-select-edit">
                  Edit
                </Button>
              )}
              <Button onClick={close}>Cancel</Button>
              <Button
                type="primary"
                disabled={!selectable}
                onClick={() => {
                  if (!selected) return;
                  trackStockChoice(selected);
                  onSelect(selected);
                }}
                data-testid="image-select-ok"
              >
                {okText}
              </Button>
            </Flex>
          </Flex>
        )
      }
    >
      {editing && selected ? (
        <ImageEditPanel
          asset={selected}
          onSaved={(asset) => {
            setSelected(asset);
            setEditing(false);
          }}
        />
      ) : (
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={[
            {
              key: SELECT_TABS.crafted,
              label: <span data-testid="image-select-tab-crafted">Crafted</span>,
              children: (
                <AssetBrowser
                  type="image"
                  state={crafted}
                  onChange={setCrafted}
                  sources={CRAFTED_SOURCES}
                  renderCard={card}
                  empty="Images you generate or design appear here."
                  testId="crafted-grid"
                />
              ),
            },
            ...(allowStock
              ? [
                  {
                    key: SELECT_TABS.stocked,
                    label: <span data-testid="image-select-tab-stocked">Stock</span>,
                    children: <StockTab selected={selected} onPick={pick} />,
                  },
                ]
              : []),
            {
              key: SELECT_TABS.uploaded,
              label: <span data-testid="image-select-tab-uploaded">Uploaded</span>,
              children: (
                <Flex vertical gap={16}>
                  <Flex justify="end">
                    <UploadButton upload={upload} videoAllowed={false} accept="image/*" onUploaded={pick} />
                  </Flex>
                  <UploadList items={items} cancel={cancel} dismiss={dismiss} />
                  <AssetBrowser
                    type="image"
                    state={uploaded}
                    onChange={setUploaded}
                    fixedSource="direct"
                    renderCard={card}
                    empty="Upload an image to use it here."
                    testId="uploaded-grid"
                  />
                </Flex>
              ),
            },
            {
              key: SELECT_TABS.groups,
              label: <span data-testid="image-select-tab-groups">All assets</span>,
              children: (
                <Flex vertical gap={16}>
                  <Segmented
                    value={group}
                    onChange={(value) => {
                      setGroup(value as AssetType);
                      setGrouped(FIRST_PAGE);
                    }}
                    options={ASSET_TYPES.map((type) => ({ value: type, label: GROUP_LABELS[type] }))}
                  />
                  <AssetBrowser
                    key={group}
                    type={group}
                    state={grouped}
                    onChange={setGrouped}
                    renderCard={card}
                    testId="group-grid"
                  />
                </Flex>
              ),
            },
          ]}
        />
      )}
    </Modal>
  );
}
