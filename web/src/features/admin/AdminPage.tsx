import { Tabs, Typography } from "antd";
import { useSearchParams } from "react-router-dom";
import { AuditTab } from "./AuditTab";
import { FlagsTab } from "./FlagsTab";
import { UsageTab } from "./UsageTab";
import { UsersTab } from "./UsersTab";

const TABS = ["users", "flags", "usage", "audit"] as const;

/** /app/admin: users (search, credits, flags), global flags, usage and revenue, the audit log. */
export default function AdminPage() {
  const [params, setParams] = useSearchParams();
  const tab = (TABS as readonly string[]).includes(params.get("tab") ?? "") ? params.get("tab")! : "users";
  return (
    <div className="crafter-page" data-testid="admin-page">
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        Admin
      </Typography.Title>
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === "users" ? {} : { tab: key })}
        destroyOnHidden
        items={[
          { key: "users", label: "Users", children: <UsersTab /> },
          { key: "flags", label: "Global flags", children: <FlagsTab /> },
          { key: "usage", label: "Usage and revenue", children: <UsageTab /> },
          { key: "audit", label: "Audit log", children: <AuditTab /> },
        ]}
      />
    </div>
  );
}
