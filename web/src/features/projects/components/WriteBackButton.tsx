import { SaveOutlined } from "@ant-design/icons";
import { Button, Tooltip } from "antd";
import { useState } from "react";
import { useProfile, useProfileWrites } from "../../../api/hooks/profiles";
import type { Craft } from "../../../api/types";
import { notify } from "../../../shared/notify";
import { setActiveProfile } from "../context";
import { WRITE_BACK_TYPES, writeBackOf } from "../write-back";
import { PROFILE_TYPE_LABELS } from "./ContextSelector";

/**
 * "Save to profile" on the craft page of ProductSetup, ServiceSetup, ProductInfoWriter,
 * ServiceInfoWriter, BusinessSetup and Campaign: one click writes the craft's fields and sections
 * to the profile it was written for, or, when that profile is of another type (a product set up
 * while writing for the business), creates a new profile of the right type in the craft's project.
 */
export function WriteBackButton({ craft }: { craft: Craft }) {
  const { data: profile } = useProfile(WRITE_BACK_TYPES[craft.workflowName] ? craft.profileId : null);
  const { create, update } = useProfileWrites();
  const [saving, setSaving] = useState(false);
  const back = WRITE_BACK_TYPES[craft.workflowName] ? writeBackOf(craft) : null;
  if (!back) return null;
  const label = PROFILE_TYPE_LABELS[back.type].one.toLowerCase();
  const target = profile && profile.profileType === back.type ? profile : null;

  const save = async () => {
    setSaving(true);
    try {
      if (target) {
        const saved = await update(target.profileId, { values: back.values, sections: back.sections });
        notify.success(`Saved to ${saved.name}`);
      } else {
        if (!back.values.name) throw new Error(`Give the ${label} a name first.`);
        const created = await create(back.type, back.values, craft.projectId || undefined);
        await update(created.profileId, { sections: back.sections });
        setActiveProfile({
          projectId: created.projectId,
          profileId: created.profileId,
          profileType: created.profileType,
          name: created.name,
        });
        notify.success(`${created.name} saved as a new ${label}`);
      }
    } catch (error) {
      notify.error(error, `Could not save to the ${label}`);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Tooltip title={target ? `Write these results into ${target.name}` : `Save these results as a new ${label}`}>
      <Button icon={<SaveOutlined />} onClick={() => void save()} loading={saving} data-testid="write-back">
        {target ? "Save to profile" : `Save as new ${label}`}
      </Button>
    </Tooltip>
  );
}
