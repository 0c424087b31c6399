import { Card, Col, Descriptions, Flex, Row, Tag, Typography } from "antd";
import { Link } from "react-router-dom";
import { useInitial } from "../../api/hooks/app";
import { useProfile, useProfileWrites } from "../../api/hooks/profiles";
import { notify } from "../../shared/notify";
import { ErrorState, LoadingBlock } from "../../shared/states";
import { AreaShell } from "../projects/components/AreaShell";
import { BUSINESS_TOOLS, STRATEGY_WORKFLOWS } from "../projects/components/areas";
import { ProfileCraftsList } from "../projects/components/ProfileCraftsList";
import { ProfileForm } from "../projects/components/ProfileForm";
import { ToolCards } from "../projects/components/ToolCards";
import { useActiveProfile } from "../projects/context";
import { BrandVoiceCard } from "./BrandVoiceCard";

export const BUSINESS_SECTIONS = [
  { path: "/app/business", label: "Overview" },
  { path: "/app/business/profile", label: "Profile" },
  { path: "/app/business/reviews", label: "Reviews" },
  { path: "/app/business/crafts", label: "Strategy" },
  { path: "/app/business/tools", label: "Tools" },
];

/** The active project's business (PROJECT) profile, fresh from /api/profiles/{id}. */
function useBusinessProfile() {
  const { data: initial } = useInitial();
  const profileId = initial?.activeProjectInfo?.profile?.profileId;
  return { profileId, ...useProfile(profileId) };
}

/** The business context (the PROJECT profile) for tools that write for the business. */
function useBusinessContext() {
  const { data: initial } = useInitial();
  const project = initial?.activeProjectInfo;
  const active = useActiveProfile();
  if (!project?.projectId || !project.profile) return active;
  return {
    projectId: project.projectId,
    profileId: project.profile.profileId,
    profileType: "PROJECT" as const,
    name: project.profile.name,
  };
}

/** /app/business: the business at a glance, with its sections. */
export default function BusinessPage() {
  const { data: profile, error, isLoading, mutate } = useBusinessProfile();
  return (
    <AreaShell
      title="Business"
      subtitle="Your business profile, reviews and strategy."
      sections={BUSINESS_SECTIONS}
      help="business"
    >
      {error ? (
        <ErrorState error={error} onRetry={() => void mutate()} />
      ) : isLoading || !profile ? (
        <LoadingBlock rows={4} />
      ) : (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={14}>
            <Card
              title={profile.name}
              extra={<Link to="/app/business/profile">Edit</Link>}
              data-testid="business-summary"
            >
              <Descriptions column={1} size="small">
                <Descriptions.Item label="Description">{profile.description || "—"}</Descriptions.Item>
                <Descriptions.Item label="Audience">{profile.audience || "—"}</Descriptions.Item>
                <Descriptions.Item label="Website">{profile.websiteUrl || "—"}</Descriptions.Item>
                <Descriptions.Item label="Keywords">
                  <Flex gap={4} wrap>
                    {(profile.keywords ?? []).map((keyword) => (
                      <Tag key={keyword}>{keyword}</Tag>
                    ))}
                  </Flex>
                </Descriptions.Item>
              </Descriptions>
            </Card>
          </Col>
          <Col xs={24} lg={10}>
            <Card title="Next steps">
              <Flex vertical gap={8}>
                <Link to="/app/business/reviews">Answer your reviews</Link>
                <Link to="/app/business/crafts">Work on your strategy: brand messaging, audience, research</Link>
                <Link to="/app/offerings">Describe your products and services</Link>
              </Flex>
            </Card>
          </Col>
        </Row>
      )}
    </AreaShell>
  );
}

/** /app/business/profile: edits the business at any time. */
export function BusinessProfilePage() {
  const { profileId, data: profile, error, isLoading, mutate } = useBusinessProfile();
  const { update } = useProfileWrites();
  const projectId = useInitial().data?.activeProjectInfo?.projectId;
  return (
    <AreaShell
      title="Business profile"
      subtitle="Every craft of the business starts from these fields."
      sections={BUSINESS_SECTIONS}
      help="business-profile"
    >
      <Card>
        {error ? (
          <ErrorState error={error} onRetry={() => void mutate()} />
        ) : isLoading || !profile || !profileId ? (
          <LoadingBlock rows={6} />
        ) : (
          <ProfileForm
            type="PROJECT"
            profile={profile}
            submitLabel="Save profile"
            testId="business-profile-form"
            onSubmit={async (values) => {
              await update(profileId, { values });
              notify.success("Business profile saved");
            }}
          />
        )}
      </Card>
      {projectId ? <BrandVoiceCard projectId={projectId} /> : null}
    </AreaShell>
  );
}

/** /app/business/crafts, shown as Strategy: brand, audience and optimisation work and the research tools. */
export function StrategyPage() {
  const context = useBusinessContext();
  return (
    <AreaShell
      title="Strategy"
      subtitle="Brand messaging, visual identity, audience segments, optimisation and research."
      sections={BUSINESS_SECTIONS}
      help="strategy"
    >
      <ToolCards workflows={STRATEGY_WORKFLOWS} profile={context} />
      <Typography.Title level={4} style={{ margin: 0 }}>
        Your strategy work
      </Typography.Title>
      {context ? (
        <ProfileCraftsList profileId={context.profileId} workflows={STRATEGY_WORKFLOWS} testId="strategy-crafts" />
      ) : (
        <LoadingBlock rows={2} />
      )}
    </AreaShell>
  );
}

/** /app/business/tools: the workflows that write for the business. */
export function BusinessToolsPage() {
  const context = useBusinessContext();
  return (
    <AreaShell title="Business tools" sections={BUSINESS_SECTIONS} help="business">
      <ToolCards workflows={BUSINESS_TOOLS} profile={context} />
    </AreaShell>
  );
}
