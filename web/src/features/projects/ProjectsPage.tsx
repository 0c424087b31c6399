import {
  CheckCircleFilled,
  DeleteOutlined,
  EditOutlined,
  PlusOutlined,
  SwapOutlined,
  TeamOutlined,
} from "@ant-design/icons";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Card, Flex, Form, Input, List, Modal, Popconfirm, Tag, Typography } from "antd";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
import { isApiError } from "../../api/errors";
import { useInitial } from "../../api/hooks/app";
import { type ProjectListItem, useProjectActions, useProjects } from "../../api/hooks/projects";
import { ChipInput } from "../../shared/ChipInput";
import { FormField } from "../../shared/FormField";
import { formatDateTime } from "../../shared/format";
import { notify } from "../../shared/notify";
import { EmptyState, ErrorState, LoadingBlock } from "../../shared/states";
import { AreaShell } from "./components/AreaShell";
import { setActiveProfile } from "./context";
import { MembersModal } from "./members/MembersModal";
import { ROLE_LABELS } from "./members/role-labels";

const newProjectSchema = z.object({
  name: z.string().trim().min(1, "Business name is required").max(120, "At most 120 characters"),
  description: z.string().trim().min(1, "Description is required").max(5000, "At most 5000 characters"),
  audience: z.string().max(1000, "At most 1000 characters"),
  keywords: z.array(z.string()).max(20, "At most 20 keywords"),
  websiteUrl: z.string().max(2048),
});
type NewProject = z.infer<typeof newProjectSchema>;

function NewProjectModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { create } = useProjectActions();
  const {
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<NewProject>({
    resolver: zodResolver(newProjectSchema),
    defaultValues: { name: "", description: "", audience: "", keywords: [], websiteUrl: "" },
  });
  const submit = handleSubmit(async (values) => {
    try {
      const created = await create(values);
      notify.success(`${created.project.projectTitle} created`, "Switch to it from the list when you are ready.");
      reset();
      onClose();
    } catch (error) {
      if (isApiError(error))
        for (const [key, message] of Object.entries(error.fields)) setError(key as keyof NewProject, { message });
      notify.error(error, "Could not create the project");
    }
  });
  const text = (
    name: "name" | "description" | "audience" | "websiteUrl",
    label: string,
    long = false,
    required = false,
  ) => (
    <FormField id={`project-${name}`} label={label} error={errors[name]} required={required}>
      <Controller
        control={control}
        name={name}
        render={({ field }) =>
          long ? (
            <Input.TextArea
              id={`project-${name}`}
              {...field}
              autoSize={{ minRows: 2 }}
              data-testid={`project-${name}`}
            />
          ) : (
            <Input id={`project-${name}`} {...field} data-testid={`project-${name}`} />
          )
        }
      />
    </FormField>
  );
  return (
    <Modal open={open} onCancel={onClose} title="New project" footer={null} destroyOnHidden>
      <Form layout="vertical" component="div">
        <form onSubmit={submit} noValidate data-testid="project-form">
          {text("name", "Business name", false, true)}
          {text("description", "What does the business do?", true, true)}
          {text("audience", "Audience", true)}
          <FormField id="project-keywords" label="Keywords" error={errors.keywords as { message?: string }}>
            <Controller
              control={control}
              name="keywords"
              render={({ field }) => (
                <ChipInput
                  id="project-keywords"
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  maxChips={20}
                />
              )}
            />
          </FormField>
          {text("websiteUrl", "Website")}
          <Flex justify="flex-end" gap={8}>
            <Button onClick={onClose}>Cancel</Button>
            <Button type="primary" htmlType="submit" loading={isSubmitting} data-testid="project-submit">
              Create project
            </Button>
          </Flex>
        </form>
      </Form>
    </Modal>
  );
}

function RenameModal({ project, onClose }: { project: ProjectListItem | null; onClose: () => void }) {
  const { rename } = useProjectActions();
  const [title, setTitle] = useState(project?.projectTitle ?? "");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  if (!project) return null;
  const save = async () => {
    if (!title.trim()) return setError("Name is required");
    setSaving(true);
    try {
      await rename(project.projectId, title);
      notify.success("Project renamed");
      onClose();
    } catch (failure) {
      setError(isApiError(failure) ? (failure.fields.title ?? failure.message) : "Could not rename");
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={`Rename ${project.projectTitle}`}
      onCancel={onClose}
      onOk={() => void save()}
      okText="Rename"
      confirmLoading={saving}
      okButtonProps={{ "data-testid": "rename-submit" } as never}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <Form.Item label="Name" htmlFor="rename-title" validateStatus={error ? "error" : undefined} help={error}>
          <Input
            id="rename-title"
            autoFocus
            value={title}
            maxLength={120}
            onChange={(event) => setTitle(event.target.value)}
            data-testid="rename-title"
          />
        </Form.Item>
      </form>
    </Modal>
  );
}

/** /app/projects: the user's projects; create, rename, delete (confirmed) and switch the active one. */
export default function ProjectsPage() {
  const { data, error, isLoading, mutate } = useProjects();
  const { data: initial } = useInitial();
  const { switchTo, remove } = useProjectActions();
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<ProjectListItem | null>(null);
  const [team, setTeam] = useState<ProjectListItem | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const activeId = initial?.activeProjectInfo?.projectId ?? "";
  const projects = data?.projects ?? [];

  const makeActive = async (project: ProjectListItem) => {
    setBusy(project.projectId);
    try {
      await switchTo(activeId, project.projectId);
      setActiveProfile(null);
      notify.success(`Switched to ${project.projectTitle}`);
    } catch (failure) {
      notify.error(failure, "Could not switch the project");
    } finally {
      setBusy(null);
    }
  };

  return (
    <AreaShell
      title="Projects"
      subtitle="Each project is one business with its own profiles, crafts and reviews."
      help="projects"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="project-new">
          New project
        </Button>
      }
    >
      <Card>
        {error ? (
          <ErrorState error={error} onRetry={() => void mutate()} />
        ) : isLoading ? (
          <LoadingBlock rows={3} />
        ) : projects.length === 0 ? (
          <EmptyState description="No projects yet." />
        ) : (
          <List
            data-testid="project-list"
            dataSource={projects}
            renderItem={(project) => {
              const active = project.projectId === activeId;
              // @crafter/roles: the owner manages members and deletes; a projectAdmin may rename.
              const role = project.role ?? "owner";
              const owner = role === "owner";
              return (
                <List.Item
                  data-testid="project-row"
                  data-project-id={project.projectId}
                  actions={[
                    active ? (
                      <Tag key="active" color="green" icon={<CheckCircleFilled />} data-testid="project-active">
                        Active
                      </Tag>
                    ) : (
                      <Button
                        key="switch"
                        icon={<SwapOutlined />}
                        loading={busy === project.projectId}
                        onClick={() => void makeActive(project)}
                        data-testid="project-switch"
                      >
                        Switch to
                      </Button>
                    ),
                    owner ? (
                      <Button
                        key="team"
                        type="text"
                        icon={<TeamOutlined />}
                        onClick={() => setTeam(project)}
                        aria-label={`Team of ${project.projectTitle}`}
                        data-testid="project-members"
                      />
                    ) : (
                      <Tag key="role" data-testid="project-role">
                        {ROLE_LABELS[role] ?? role}
                      </Tag>
                    ),
                    (owner || role === "projectAdmin") && (
                      <Button
                        key="rename"
                        type="text"
                        icon={<EditOutlined />}
                        onClick={() => setRenaming(project)}
                        aria-label={`Rename ${project.projectTitle}`}
                        data-testid="project-rename"
                      />
                    ),
                    owner && (
                      <Popconfirm
                        key="delete"
                        title={`Delete ${project.projectTitle}?`}
                        description="Its profiles and reviews are deleted too. This cannot be undone."
                        okText="Delete"
                        okButtonProps={{ danger: true, "data-testid": "confirm-delete" } as never}
                        onConfirm={async () => {
                          try {
                            await remove(project.projectId);
                            notify.success(`${project.projectTitle} deleted`);
                          } catch (failure) {
                            notify.error(failure, "Could not delete the project");
                          }
                        }}
                      >
                        <Button
                          type="text"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={`Delete ${project.projectTitle}`}
                          data-testid="project-delete"
                        />
                      </Popconfirm>
                    ),
                  ].filter(Boolean)}
                >
                  <List.Item.Meta
                    title={<span data-testid="project-row-name">{project.projectTitle}</span>}
                    description={
                      <Typography.Text type="secondary">Created {formatDateTime(project.createdAt)}</Typography.Text>
                    }
                  />
                </List.Item>
              );
            }}
          />
        )}
      </Card>
      <NewProjectModal open={creating} onClose={() => setCreating(false)} />
      {renaming && <RenameModal key={renaming.projectId} project={renaming} onClose={() => setRenaming(null)} />}
      {team && <MembersModal key={team.projectId} project={team} onClose={() => setTeam(null)} />}
    </AreaShell>
  );
}
