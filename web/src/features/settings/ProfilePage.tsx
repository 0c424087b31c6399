import type { UserSettings } from "@crafter/validation";
import { Card, Flex, Radio, Switch, Typography } from "antd";
import { useSettings, useUpdateSettings } from "../../api/hooks/app";
import { notify } from "../../shared/notify";
import { SettingsPageFrame } from "./SettingsPageFrame";

/** One labelled switch of the profile preferences. */
function SettingSwitch({
  id,
  label,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange: (value: boolean) => void;
}) {
  return (
    <Flex align="center" gap={12}>
      <Switch id={id} checked={checked} onChange={onChange} data-testid={id} />
      <label htmlFor={id}>{label}</label>
    </Flex>
  );
}

/**
 * /app/settings/profile: the user's own preferences (spec section 3): fast generation, the
 * sidebars and the right one's width, the view mode. Each change is saved at once; the merge
 * ignores empty values.
 */
export default function ProfilePage() {
  const settings = useSettings();
  const update = useUpdateSettings();
  const save = (patch: Partial<UserSettings>) =>
    update(patch).catch((failure) => notify.error(failure, "Could not save your preference"));

  return (
    <SettingsPageFrame title="Profile">
      <Card title="Generation">
        <SettingSwitch
          id="profile-fast-generation"
          label="Fast generation (skip optional review steps)"
          checked={!!settings.fastGeneration}
          onChange={(value) => void save({ fastGeneration: value })}
        />
      </Card>
      <Card title="Layout">
        <Flex vertical gap={16}>
          <SettingSwitch
            id="profile-left-sidebar"
            label="Open the left sidebar"
            checked={!!settings.leftSidebarOpen}
            onChange={(value) => void save({ leftSidebarOpen: value })}
          />
          <SettingSwitch
            id="profile-right-sidebar"
            label="Open the right sidebar"
            checked={!!settings.rightSidebarOpen}
            onChange={(value) => void save({ rightSidebarOpen: value })}
          />
          <Flex vertical gap={4}>
            <Typography.Text id="profile-width-label">Right sidebar width</Typography.Text>
            <Radio.Group
              aria-labelledby="profile-width-label"
              value={settings.rightSidebarWidth}
              onChange={(event) => void save({ rightSidebarWidth: event.target.value })}
              data-testid="profile-right-width"
              options={[
                { value: "small", label: "Small" },
                { value: "medium", label: "Medium" },
                { value: "large", label: "Large" },
              ]}
              optionType="button"
            />
          </Flex>
          <Flex vertical gap={4}>
            <Typography.Text id="profile-view-label">View mode</Typography.Text>
            <Radio.Group
              aria-labelledby="profile-view-label"
              value={settings.viewMode}
              onChange={(event) => void save({ viewMode: event.target.value })}
              data-testid="profile-view-mode"
              options={[
                { value: "list", label: "List" },
                { value: "grid", label: "Grid" },
              ]}
              optionType="button"
            />
          </Flex>
        </Flex>
      </Card>
    </SettingsPageFrame>
  );
}
