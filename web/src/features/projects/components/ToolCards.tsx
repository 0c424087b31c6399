import { Card, Col, Row, Select, Tag, Typography } from "antd";
import { useNavigate } from "react-router-dom";
import { useWorkflowHeaders } from "../../../api/hooks/crafts";
import type { Profile } from "../../../api/types";
import { humanize } from "../../../shared/format";
import { newCraftHref } from "../../crafts/links";
import { type ActiveProfile, setActiveProfile } from "../context";

/**
 * Cards of the workflows a tools page offers. Starting one first makes `profile` the context (the
 * profile the craft writes for and prefills from), then opens the craft page.
 */
export function ToolCards({ workflows, profile }: { workflows: string[]; profile: ActiveProfile | null }) {
  const { data } = useWorkflowHeaders();
  const navigate = useNavigate();
  const headers = new Map((data?.headers ?? []).map((header) => [header.name, header]));
  return (
    <Row gutter={[16, 16]} data-testid="tool-cards">
      {workflows.map((name) => {
        const header = headers.get(name);
        const available = header?.available ?? true;
        const start = () => {
          if (!available) return;
          if (profile) setActiveProfile(profile);
          navigate(newCraftHref(name));
        };
        return (
          <Col key={name} xs={24} sm={12} lg={8}>
            <Card
              size="small"
              hoverable={available}
              role="button"
              tabIndex={available ? 0 : -1}
              aria-disabled={!available}
              aria-label={`Start ${header?.title ?? humanize(name)}`}
              data-testid={`tool-${name}`}
              onClick={start}
              onKeyDown={(event) => {
                if (event.key === "Enter" || event.key === " ") {
                  event.preventDefault();
                  start();
                }
              }}
              title={
                <span>
                  {header?.title ?? humanize(name)} {!available && <Tag>Coming soon</Tag>}
                </span>
              }
            >
              <Typography.Paragraph type="secondary" ellipsis={{ rows: 3 }} style={{ margin: 0 }}>
                {header?.description ?? ""}
              </Typography.Paragraph>
            </Card>
          </Col>
        );
      })}
    </Row>
  );
}

/** Chooses which profile of a list a tools page writes for. */
export function ProfilePicker({
  profiles,
  value,
  onChange,
  label,
}: {
  profiles: Profile[];
  value: string | undefined;
  onChange: (profileId: string) => void;
  label: string;
}) {
  return (
    <Select
      aria-label={label}
      data-testid="tools-profile-picker"
      style={{ minWidth: 220 }}
      value={value}
      onChange={onChange}
      options={profiles.map((profile) => ({ value: profile.profileId, label: profile.name }))}
    />
  );
}
