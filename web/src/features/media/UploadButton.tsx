import { CloseOutlined, UploadOutlined } from "@ant-design/icons";
import { Button, Flex, Progress, Typography, Upload } from "antd";
import type { Asset } from "../../api/media";
import type { UploadItem } from "./uploads";

/** The accepted picker types (the server decides by content). */
export function acceptFor(videoAllowed: boolean): string {
  return videoAllowed ? "image/*,audio/*,video/*" : "image/*,audio/*";
}

/** An upload button that hands files to `upload` (see useUploads); several files at once. */
export function UploadButton({
  upload,
  videoAllowed,
  accept,
  label = "Upload",
  onUploaded,
}: {
  upload: (file: File, uid: string) => Promise<Asset | null>;
  videoAllowed: boolean;
  accept?: string;
  label?: string;
  onUploaded?: (asset: Asset) => void;
}) {
  return (
    <Upload
      multiple
      accept={accept ?? acceptFor(videoAllowed)}
      showUploadList={false}
      customRequest={({ file, onSuccess, onError }) => {
        const raw = file as File & { uid?: string };
        void upload(raw, raw.uid ?? `${raw.name}-${Date.now()}`).then((asset) => {
          if (asset) {
            onSuccess?.(asset);
            onUploaded?.(asset);
          } else onError?.(new Error("upload failed"));
        });
      }}
    >
      <Button type="primary" icon={<UploadOutlined />} data-testid="asset-upload">
        {label}
      </Button>
    </Upload>
  );
}

/** The progress of each file being uploaded, its error, or that it is done. */
export function UploadList({
  items,
  cancel,
  dismiss,
}: {
  items: UploadItem[];
  cancel: (uid: string) => void;
  dismiss: (uid: string) => void;
}) {
  if (items.length === 0) return null;
  return (
    <Flex vertical gap={8} data-testid="upload-list" aria-live="polite">
      {items.map((item) => (
        <Flex key={item.uid} align="center" gap={12} wrap data-testid="upload-item" data-status={item.status}>
          <Typography.Text ellipsis style={{ maxWidth: 220, flex: "0 1 auto" }}>
            {item.name}
          </Typography.Text>
          <Progress
            style={{ flex: "1 1 160px", margin: 0 }}
            percent={item.percent}
            size="small"
            status={item.status === "error" ? "exception" : item.status === "done" ? "success" : "active"}
            data-testid="upload-progress"
            aria-label={`Upload of ${item.name}`}
          />
          {item.message && (
            <Typography.Text type="danger" data-testid="upload-error">
              {item.message}
            </Typography.Text>
          )}
          <Button
            size="small"
            type="text"
            icon={<CloseOutlined />}
            aria-label={item.status === "uploading" ? `Cancel ${item.name}` : `Dismiss ${item.name}`}
            onClick={() => (item.status === "uploading" ? cancel(item.uid) : dismiss(item.uid))}
          />
        </Flex>
      ))}
    </Flex>
  );
}
