import { Typography } from "antd";
import { useEffect, useState } from "react";
import type { PublicBrand } from "../../api/leads";

/**
 * The business's logo and name heading its public pages (the lead form, the double opt-in page),
 * and the document's title "<page> · <business>". Nothing without a name; a logo that does not load
 * is left out rather than shown broken.
 */
export function BusinessBrand({
  brand,
  page,
  compact,
  centered,
}: {
  brand?: PublicBrand;
  page: string;
  compact?: boolean;
  centered?: boolean;
}) {
  const [broken, setBroken] = useState(false);
  const name = brand?.name ?? "";
  useEffect(() => {
    if (name) document.title = page ? `${page} · ${name}` : name;
  }, [page, name]);
  if (!brand?.name) return null;
  return (
    <header className={centered ? "crafter-brand crafter-brand--center" : "crafter-brand"} data-testid="business-brand">
      {brand.logoUrl && !broken ? (
        <img
          className="crafter-brand__logo"
          src={brand.logoUrl}
          alt=""
          style={compact ? { height: 32 } : undefined}
          onError={() => setBroken(true)}
          data-testid="business-logo"
        />
      ) : null}
      <Typography.Title level={compact ? 5 : 4} className="crafter-brand__name" data-testid="business-name">
        {brand.name}
      </Typography.Title>
    </header>
  );
}
