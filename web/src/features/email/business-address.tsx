import { Alert } from "antd";
import { useInitial } from "../../api/hooks/app";
import { useProfile } from "../../api/hooks/profiles";
import { LinkButton } from "../../shared/LinkButton";
import { businessAddressOf } from "./campaigns/campaign-form";

export const BUSINESS_PROFILE = "/app/business/profile";

/** The active project's business profile (undefined while it loads or when it cannot be read). */
export function useBusinessProfile() {
  const { data: initial } = useInitial();
  const { data: profile, error } = useProfile(initial?.activeProjectInfo?.profile?.profileId);
  return error ? undefined : profile;
}

/**
 * Whether the active project's business profile lacks the postal address every marketing email
 * carries (null while it loads or when it cannot be read: the server has the last word).
 */
export function useAddressMissing(): boolean | null {
  const profile = useBusinessProfile();
  if (!profile) return null;
  return businessAddressOf(profile) === "";
}

/** The warning that marketing email cannot go out until the business profile has a postal address. */
export function AddressWarning({ testId, description }: { testId: string; description: string }) {
  return (
    <Alert
      type="warning"
      showIcon
      data-testid={testId}
      title="Your business profile has no postal address"
      description={description}
      action={<LinkButton to={BUSINESS_PROFILE}>Add the address</LinkButton>}
    />
  );
}
