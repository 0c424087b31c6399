import type { ProfileTypeName } from "@crafter/validation";
import { Select } from "antd";
import { useProfiles } from "../../../api/hooks/profiles";
import { setActiveProfile, useActiveProfile } from "../context";

export const PROFILE_TYPE_LABELS: Record<ProfileTypeName, { one: string; many: string }> = {
  PROJECT: { one: "Business", many: "Business" },
  PRODUCT: { one: "Product", many: "Products" },
  SERVICE: { one: "Service", many: "Services" },
  CAMPAIGN: { one: "Campaign", many: "Campaigns" },
};

const ORDER: ProfileTypeName[] = ["PROJECT", "PRODUCT", "SERVICE", "CAMPAIGN"];

/**
 * The context selector: which profile of the active project new crafts write for (the business,
 * a product, a service or a campaign). Workflows prefill their inputs from it.
 */
export function ContextSelector({ compact = false }: { compact?: boolean }) {
  const active = useActiveProfile();
  // No active project (e.g. just joined someone else's through an invitation): nothing to ask.
  const { data, isLoading } = useProfiles(undefined, active !== null);
  if (!active) return null;
  const profiles = data?.profiles ?? [];
  const options = ORDER.map((type) => ({
    label: PROFILE_TYPE_LABELS[type].many,
    options: profiles
      .filter((profile) => profile.profileType === type)
      .map((profile) => ({ value: profile.profileId, label: profile.name || PROFILE_TYPE_LABELS[type].one })),
  })).filter((group) => group.options.length > 0);
  const known = profiles.some((profile) => profile.profileId === active.profileId);
  return (
    <Select
      data-testid="context-selector"
      aria-label="Write for"
      value={active.profileId}
      loading={isLoading}
      style={{ minWidth: compact ? 140 : 200, maxWidth: 260 }}
      popupMatchSelectWidth={false}
      options={
        known || !active.name
          ? options
          : [{ label: "Current", options: [{ value: active.profileId, label: active.name }] }]
      }
      optionRender={(option) => <span data-testid={`context-option-${option.value}`}>{option.label}</span>}
      onChange={(profileId: string) => {
        const profile = profiles.find((candidate) => candidate.profileId === profileId);
        if (!profile) return;
        setActiveProfile({
          projectId: active.projectId,
          profileId,
          profileType: profile.profileType,
          name: profile.name,
        });
      }}
    />
  );
}
