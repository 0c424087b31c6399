import { type ComposerInfo, loadDefinition, type WorkflowDefinition } from "@crafter/workflow-language";

export interface WorkflowHeaderView {
  name: string;
  title: string;
  description: string;
  category: string;
  /** The default version; 0 while the workflow has no definition. */
  version: number;
  available: boolean;
  standalone: boolean;
  new: boolean;
}

export interface HeadersView {
  names: string[];
  headers: WorkflowHeaderView[];
  defaultVersions: Record<string, number>;
  /** The available workflows usable on their own (tools, smart documents). */
  toolsList: string[];
  /** Those tools to badge as new. */
  newToolsList: string[];
}

/**
 * Every workflow definition, validated (each `offline` against the engine's composers) and
 * indexed by name and version. A definition carries its own catalogue text and flags (title,
 * description, category, new, standalone, hidden). A new definition version is added beside the
 * old one: crafts keep the version they were created with, new crafts get the highest; the
 * headers list the workflows in the order of their first definition.
 * @throws DefinitionError for an invalid definition; Error for one defined twice with the same version.
 */
export class DefinitionRegistry {
  private readonly byName = new Map<string, Map<number, WorkflowDefinition>>();

  constructor(rawDefinitions: unknown[], composers: Readonly<Record<string, ComposerInfo>>) {
    for (const raw of rawDefinitions) {
      const def = loadDefinition(raw, { composers });
      const versions = this.byName.get(def.name) ?? new Map<number, WorkflowDefinition>();
      if (versions.has(def.version))
        throw new Error(`workflow definition ${def.name} v${def.version} is defined twice`);
      versions.set(def.version, def);
      this.byName.set(def.name, versions);
    }
  }

  isListed(name: string): boolean {
    return this.byName.has(name);
  }

  get(name: string, version: number): WorkflowDefinition | undefined {
    return this.byName.get(name)?.get(version);
  }

  /** The default (highest) version of a workflow, or undefined when it has no definition. */
  latest(name: string): WorkflowDefinition | undefined {
    const versions = this.byName.get(name);
    if (!versions) return undefined;
    return versions.get(Math.max(...versions.keys()));
  }

  headers(): HeadersView {
    const headers = [...this.byName.keys()]
      .map((name) => this.latest(name)!)
      .filter((def) => !def.hidden)
      .map(
        (def): WorkflowHeaderView => ({
          name: def.name,
          title: def.title,
          description: def.description,
          category: def.category,
          version: def.version,
          available: true,
          standalone: def.standalone,
          new: def.new,
        }),
      );
    return {
      names: headers.map((header) => header.name),
      headers,
      defaultVersions: Object.fromEntries(headers.map((header) => [header.name, header.version])),
      toolsList: headers.filter((header) => header.standalone).map((header) => header.name),
      newToolsList: headers.filter((header) => header.standalone && header.new).map((header) => header.name),
    };
  }
}
