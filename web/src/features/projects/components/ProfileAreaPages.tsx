import { DeleteOutlined, EditOutlined, PlusOutlined } from "@ant-design/icons";
import { Button, Card, Col, Drawer, Flex, Popconfirm, Row, Tag, Typography } from "antd";
import { useState } from "react";
import { useProfileCrafts, useProfiles, useProfileWrites } from "../../../api/hooks/profiles";
import type { Profile } from "../../../api/types";
import { countLabel } from "../../../shared/format";
import { notify } from "../../../shared/notify";
import { EmptyState, ErrorState, LoadingBlock } from "../../../shared/states";
import { CraftSummaryList } from "../../crafts/CraftSummaryList";
import { type ActiveProfile, setActiveProfile, useActiveProfile } from "../context";
import { AreaShell } from "./AreaShell";
import { areaSections, type ProfileArea } from "./areas";
import { ProfileForm } from "./ProfileForm";
import { ProfilePicker, ToolCards } from "./ToolCards";

const contextOf = (profile: Profile): ActiveProfile => ({
  projectId: profile.projectId,
  profileId: profile.profileId,
  profileType: profile.profileType,
  name: profile.name,
});

/** A product's first image (a Shopify product's copy in the media library) as its card's cover. */
function coverOf(profile: Profile): React.ReactNode {
  const images = profile.fields?.images;
  const first = Array.isArray(images) && typeof images[0] === "string" ? images[0] : "";
  if (!first) return undefined;
  return (
    <img
      src={first}
      alt={profile.name}
      loading="lazy"
      style={{ height: 140, width: "100%", objectFit: "cover" }}
      data-testid="profile-cover"
    />
  );
}

function fieldSummary(profile: Profile): string {
  const fields = profile.fields ?? {};
  if (profile.profileType === "CAMPAIGN") {
    const dates = [fields.startDate, fields.endDate].filter(Boolean).join(" → ");
    return [fields.objective, dates].filter(Boolean).join(" · ");
  }
  return profile.description;
}

/** Base page of a profile area: the profiles as cards, created and edited in a drawer, deleted after a confirmation. */
export function ProfileListPage({ area }: { area: ProfileArea }) {
  const [synced, setSynced] = useState(false);
  // Products a connected store keeps in sync change there: read them again every 5 s while shown.
  const { data, error, isLoading, mutate } = useProfiles(area.type, true, synced ? 5000 : 0);
  const { create, update, remove } = useProfileWrites();
  const active = useActiveProfile();
  const [editing, setEditing] = useState<Profile | "new" | null>(null);
  const profiles = data?.profiles ?? [];
  const fromStore = profiles.some((profile) => profile.source === "shopify");
  if (fromStore !== synced) setSynced(fromStore);

  const newButton = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing("new")} data-testid={`new-${area.one}`}>
      New {area.one}
    </Button>
  );

  let body: React.ReactNode;
  if (error) body = <ErrorState error={error} onRetry={() => void mutate()} />;
  else if (isLoading) body = <LoadingBlock rows={4} />;
  else if (profiles.length === 0)
    body = <EmptyState description={`No ${area.one}s yet.`} action={newButton} testId={`${area.one}-empty`} />;
  else
    body = (
      <Row gutter={[16, 16]} data-testid={`${area.one}-list`}>
        {profiles.map((profile) => (
          <Col key={profile.profileId} xs={24} md={12} xl={8}>
            <Card
              size="small"
              data-testid={`${area.one}-card`}
              data-profile-id={profile.profileId}
              data-source={profile.source || "crafter"}
              title={profile.name}
              cover={coverOf(profile)}
              extra={
                <Flex gap={4}>
                  {profile.source === "shopify" ? (
                    <Tag color="green" title="Kept in sync from your Shopify store" data-testid="profile-from-shopify">
                      Shopify
                    </Tag>
                  ) : null}
                  {active?.profileId === profile.profileId ? <Tag color="purple">Writing for</Tag> : null}
                </Flex>
              }
              actions={[
                <Button
                  key="edit"
                  type="text"
                  icon={<EditOutlined />}
                  onClick={() => setEditing(profile)}
                  aria-label={`Edit ${profile.name}`}
                  data-testid={`edit-${area.one}`}
                >
                  Edit
                </Button>,
                <Button
                  key="use"
                  type="text"
                  onClick={() => {
                    setActiveProfile(contextOf(profile));
                    notify.success(`New crafts now write for ${profile.name}`);
                  }}
                  data-testid={`use-${area.one}`}
                >
                  Write for it
                </Button>,
                <Popconfirm
                  key="delete"
                  title={`Delete ${profile.name}?`}
                  description="Its crafts stay in Contents."
                  okText="Delete"
                  okButtonProps={{ danger: true, "data-testid": "confirm-delete" } as never}
                  onConfirm={async () => {
                    try {
                      await remove(profile.profileId);
                      if (active?.profileId === profile.profileId) setActiveProfile(null);
                      notify.success(`${profile.name} deleted`);
                    } catch (failure) {
                      notify.error(failure, "Could not delete");
                    }
                  }}
                >
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={`Delete ${profile.name}`}
                    data-testid={`delete-${area.one}`}
                  >
                    Delete
                  </Button>
                </Popconfirm>,
              ]}
            >
              <Typography.Paragraph type="secondary" ellipsis={{ rows: 3 }} style={{ marginBottom: 8 }}>
                {fieldSummary(profile) || "No description yet."}
              </Typography.Paragraph>
              <Flex gap={4} wrap>
                {(profile.keywords ?? []).slice(0, 5).map((keyword) => (
                  <Tag key={keyword}>{keyword}</Tag>
                ))}
              </Flex>
            </Card>
          </Col>
        ))}
      </Row>
    );

  return (
    <AreaShell
      title={area.title}
      subtitle={area.subtitle}
      sections={areaSections(area, "Overview")}
      help={area.help}
      extra={profiles.length > 0 ? newButton : null}
    >
      {body}
      <Drawer
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === "new" ? `New ${area.one}` : `Edit ${editing?.name ?? ""}`}
        width={560}
        destroyOnHidden
        data-testid={`${area.one}-drawer`}
      >
        {editing !== null && (
          <ProfileForm
            type={area.type}
            profile={editing === "new" ? null : editing}
            submitLabel={editing === "new" ? `Create ${area.one}` : "Save"}
            onCancel={() => setEditing(null)}
            onSubmit={async (values) => {
              if (editing === "new") {
                const created = await create(area.type, values);
                setActiveProfile(contextOf(created));
                notify.success(`${created.name} created`, "New crafts now write for it.");
              } else {
                await update(editing.profileId, { values });
                notify.success("Saved");
              }
              setEditing(null);
            }}
          />
        )}
      </Drawer>
    </AreaShell>
  );
}

/** The profile a tools page writes for: the context when it is of the area's type, else the first. */
function useAreaProfile(profiles: Profile[]) {
  const active = useActiveProfile();
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const fromContext = profiles.find((profile) => profile.profileId === active?.profileId);
  const selected = profiles.find((profile) => profile.profileId === chosen) ?? fromContext ?? profiles[0];
  return { selected, setChosen };
}

/** Tools page of a profile area: the workflows that write for one of its profiles. */
export function ProfileToolsPage({ area }: { area: ProfileArea }) {
  const { data, isLoading } = useProfiles(area.type);
  const profiles = data?.profiles ?? [];
  const { selected, setChosen } = useAreaProfile(profiles);
  return (
    <AreaShell title={area.title} subtitle={area.subtitle} sections={areaSections(area, "Overview")} help={area.help}>
      {isLoading ? (
        <LoadingBlock rows={3} />
      ) : profiles.length === 0 ? (
        <Card>
          <Typography.Paragraph>
            Add a {area.one} first, or start with the setup tool: it collects the details and saves them as a new{" "}
            {area.one}.
          </Typography.Paragraph>
          <ToolCards workflows={area.tools.slice(0, 1)} profile={null} />
        </Card>
      ) : (
        <>
          <Flex gap={8} align="center" wrap>
            <Typography.Text>Write for</Typography.Text>
            <ProfilePicker
              profiles={profiles}
              value={selected?.profileId}
              onChange={setChosen}
              label={`Which ${area.one} the tools write for`}
            />
          </Flex>
          <ToolCards workflows={area.tools} profile={selected ? contextOf(selected) : null} />
        </>
      )}
    </AreaShell>
  );
}

function ProfileCrafts({ profile, one }: { profile: Profile; one: string }) {
  const { data, error, isLoading, mutate } = useProfileCrafts(profile.profileId);
  const crafts = data?.crafts ?? [];
  return (
    <Card
      title={profile.name}
      size="small"
      data-testid={`${one}-crafts`}
      data-profile-id={profile.profileId}
      extra={<Typography.Text type="secondary">{countLabel(crafts.length, "craft")}</Typography.Text>}
    >
      {error ? (
        <ErrorState error={error} onRetry={() => void mutate()} />
      ) : isLoading ? (
        <LoadingBlock rows={2} />
      ) : crafts.length === 0 ? (
        <Typography.Text type="secondary" data-testid={`${one}-crafts-empty`}>
          Nothing written for this {one} yet.
        </Typography.Text>
      ) : (
        <CraftSummaryList crafts={crafts} testId={`${one}-craft-list`} />
      )}
    </Card>
  );
}

/** Crafts page of a profile area: what was written for each of its profiles. */
export function ProfileCraftsPage({ area }: { area: ProfileArea }) {
  const { data, error, isLoading, mutate } = useProfiles(area.type);
  const profiles = data?.profiles ?? [];
  return (
    <AreaShell title={area.title} subtitle={area.subtitle} sections={areaSections(area, "Overview")} help={area.help}>
      {error ? (
        <ErrorState error={error} onRetry={() => void mutate()} />
      ) : isLoading ? (
        <LoadingBlock rows={4} />
      ) : profiles.length === 0 ? (
        <EmptyState description={`No ${area.one}s yet.`} />
      ) : (
        <Flex vertical gap={16}>
          {profiles.map((profile) => (
            <ProfileCrafts key={profile.profileId} profile={profile} one={area.one} />
          ))}
        </Flex>
      )}
    </AreaShell>
  );
}
