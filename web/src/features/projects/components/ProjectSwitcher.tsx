import { DownOutlined, FolderOpenOutlined, SettingOutlined } from "@ant-design/icons";
import { Button, Dropdown, type MenuProps, Typography } from "antd";
import { useNavigate } from "react-router-dom";
import { useInitial } from "../../../api/hooks/app";
import { useProjectActions, useProjects } from "../../../api/hooks/projects";
import { notify } from "../../../shared/notify";
import { setActiveProfile } from "../context";

/** The header's project title: a menu of the user's projects to switch to, and "Manage projects". */
export function ProjectSwitcher() {
  const { data } = useInitial();
  const { data: list } = useProjects();
  const { switchTo } = useProjectActions();
  const navigate = useNavigate();
  const current = data?.activeProjectInfo;
  const items: MenuProps["items"] = [
    ...(list?.projects ?? []).map((project) => ({
      key: project.projectId,
      icon: <FolderOpenOutlined />,
      disabled: project.projectId === current?.projectId,
      label: <span data-testid={`switch-project-${project.projectId}`}>{project.projectTitle}</span>,
      onClick: async () => {
        try {
          await switchTo(current?.projectId ?? "", project.projectId);
          setActiveProfile(null);
          notify.success(`Switched to ${project.projectTitle}`);
        } catch (error) {
          notify.error(error, "Could not switch the project");
        }
      },
    })),
    { type: "divider" as const },
    {
      key: "manage",
      icon: <SettingOutlined />,
      label: <span data-testid="nav-projects">Manage projects</span>,
      onClick: () => navigate("/app/projects"),
    },
  ];
  return (
    <Dropdown menu={{ items }} trigger={["click"]} placement="bottomLeft">
      <Button type="text" data-testid="project-switcher" aria-label="Switch project" className="crafter-shell__project">
        <Typography.Text strong ellipsis data-testid="project-title" style={{ maxWidth: 220 }}>
          {current?.projectTitle ?? "Welcome to Crafter"}
        </Typography.Text>
        <DownOutlined />
      </Button>
    </Dropdown>
  );
}
