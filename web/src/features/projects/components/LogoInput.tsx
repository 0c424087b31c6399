import { PictureOutlined } from "@ant-design/icons";
import { Button, Flex, Input, Typography } from "antd";
import { useState } from "react";
import { publishAsset } from "../../../api/media";
import { notify } from "../../../shared/notify";
import { ImageSelectModal } from "../../media/ImageSelectModal";

/** A signed media URL (`/media/<key>?exp=…&sig=…`): it stops working after a few hours. */
export const isExpiringMediaUrl = (value: string) => /\/media\/(?!public\/)[^?]+\?[^#]*\bexp=/.test(value);

/**
 * The business logo: a link typed in, or an image chosen from the media library, which is then
 * published at a lasting public URL (`/media/public/<id>`) so the logo keeps loading in sent emails
 * and on the lead form.
 */
export function LogoInput({
  id,
  value,
  onChange,
  onBlur,
  maxLength,
  testId,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  maxLength: number;
  testId: string;
}) {
  const [picking, setPicking] = useState(false);
  const [publishing, setPublishing] = useState(false);
  return (
    <>
      <Flex gap={8} wrap>
        <Input
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
          maxLength={maxLength}
          placeholder="https://… or choose from your media"
          style={{ flex: "1 1 220px" }}
          status={isExpiringMediaUrl(value) ? "warning" : undefined}
          data-testid={testId}
        />
        <Button
          icon={<PictureOutlined />}
          loading={publishing}
          onClick={() => setPicking(true)}
          data-testid="choose-logo"
        >
          Choose from media
        </Button>
      </Flex>
      {isExpiringMediaUrl(value) && (
        <Typography.Text type="warning" data-testid="logo-expiring">
          This link stops working in a few hours: choose the image from your media instead.
        </Typography.Text>
      )}
      <ImageSelectModal
        open={picking}
        title="Choose your logo"
        okText="Use as logo"
        allowStock={false}
        onCancel={() => setPicking(false)}
        onSelect={(asset) => {
          setPicking(false);
          setPublishing(true);
          publishAsset(asset.id)
            .then((url) => {
              onChange(url);
              notify.success("Logo chosen", "It has a public link that keeps working in emails.");
            })
            .catch((failure) => notify.error(failure, "The logo could not be published"))
            .finally(() => setPublishing(false));
        }}
      />
    </>
  );
}
