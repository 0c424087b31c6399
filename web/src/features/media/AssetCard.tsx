import { CustomerServiceOutlined, PlayCircleOutlined } from "@ant-design/icons";
import { Card, Tag, Typography } from "antd";
import type { ReactNode } from "react";
import type { Asset } from "../../api/media";
import { assetDetails } from "./asset-details";

/** The picture of an asset: its thumbnail, a video poster, or an audio player. */
export function AssetPreview({ asset, controls = false }: { asset: Asset; controls?: boolean }) {
  if (asset.type === "image") {
    return (
      <img
        className="crafter-asset__image"
        src={asset.thumbnailUrl || asset.url}
        alt={asset.name}
        loading="lazy"
        draggable={false}
      />
    );
  }
  if (asset.type === "video") {
    return controls ? (
      // biome-ignore lint/a11y/useMediaCaption: user uploads carry no caption track.
      <video className="crafter-asset__image" src={asset.url} controls preload="metadata" />
    ) : (
      <div className="crafter-asset__placeholder">
        {asset.thumbnailUrl ? (
          <img className="crafter-asset__image" src={asset.thumbnailUrl} alt={asset.name} loading="lazy" />
        ) : (
          <PlayCircleOutlined />
        )}
      </div>
    );
  }
  return (
    <div className="crafter-asset__placeholder crafter-asset__placeholder--audio">
      <CustomerServiceOutlined />
      {controls && (
        // biome-ignore lint/a11y/useMediaCaption: spoken audio has its script shown beside it.
        <audio src={asset.url} controls preload="none" />
      )}
    </div>
  );
}

/** One asset as a card; `actions` are its buttons, `selected` marks a chosen one. */
export function AssetCard({
  asset,
  actions,
  selected,
  onClick,
  controls,
}: {
  asset: Asset;
  actions?: ReactNode[];
  selected?: boolean;
  onClick?: () => void;
  controls?: boolean;
}) {
  return (
    <Card
      size="small"
      hoverable={!!onClick}
      className={`crafter-asset${selected ? " crafter-asset--selected" : ""}`}
      cover={<AssetPreview asset={asset} controls={controls} />}
      actions={actions}
      onClick={onClick}
      data-testid="asset-card"
      data-asset-id={asset.id}
      aria-selected={onClick ? !!selected : undefined}
      role={onClick ? "option" : undefined}
      tabIndex={onClick ? 0 : undefined}
      onKeyDown={
        onClick
          ? (event) => {
              if (event.key === "Enter" || event.key === " ") {
                event.preventDefault();
                onClick();
              }
            }
          : undefined
      }
    >
      <Typography.Text strong ellipsis={{ tooltip: asset.name }} data-testid="asset-name">
        {asset.name}
      </Typography.Text>
      <div>
        <Typography.Text type="secondary" className="crafter-asset__details">
          {assetDetails(asset)}
        </Typography.Text>
      </div>
      {asset.label && (
        <Tag color={asset.source === "composed" ? "gold" : undefined} data-testid="asset-label">
          {asset.label}
        </Tag>
      )}
    </Card>
  );
}
