import { loadDefinition, type WorkflowDefinition } from "./definition";

/** A workflow of the spec's list (section 3), with or without a definition yet. */
export interface CatalogEntry {
  name: string;
  title: string;
  description: string;
  category: string;
  /** Shown in newToolsList. */
  new?: boolean;
  /** Can be crafted but is never listed (test fixtures). */
  hidden?: boolean;
}

export interface WorkflowHeaderView {
  name: string;
  title: string;
  description: string;
  category: string;
  /** The default version; 0 while the workflow has no definition. */
  version: number;
  available: boolean;
}

export interface HeadersView {
  names: string[];
  headers: WorkflowHeaderView[];
  defaultVersions: Record<string, number>;
  /** The workflows a user can start now. */
  toolsList: string[];
  /** Those of them to badge as new. */
  newToolsList: string[];
}

/**
 * Every workflow definition, validated and indexed by name and version. A new definition version
 * is added beside the old one: crafts keep the version they were created with, new crafts get
 * the highest.
 * @throws DefinitionError for an invalid definition, or one that is not in the catalogue or is
 * listed twice with the same version.
 */
export class DefinitionRegistry {
  private readonly byName = new Map<string, Map<number, WorkflowDefinition>>();

  constructor(
    private readonly catalog: CatalogEntry[],
    rawDefinitions: unknown[],
  ) {
    const known = new Set(catalog.map((entry) => entry.name));
    for (const raw of rawDefinitions) {
      const def = loadDefinition(raw);
      if (!known.has(def.name)) throw new Error(`workflow definition ${def.name} is not in the catalogue`);
      const versions = this.byName.get(def.name) ?? new Map<number, WorkflowDefinition>();
      if (versions.has(def.version))
        throw new Error(`workflow definition ${def.name} v${def.version} is defined twice`);
      versions.set(def.version, def);
      this.byName.set(def.name, versions);
    }
  }

  isListed(name: string): boolean {
    return this.catalog.some((entry) => entry.name === name);
  }

  get(name: string, version: number): WorkflowDefinition | undefined {
    return this.byName.get(name)?.get(version);
  }

  /** The default (highest) version of a workflow, or undefined while it has no definition. */
  latest(name: string): WorkflowDefinition | undefined {
    const versions = this.byName.get(name);
    if (!versions) return undefined;
    return versions.get(Math.max(...versions.keys()));
  }

  headers(): HeadersView {
    const headers = this.catalog
      .filter((entry) => !entry.hidden)
      .map((entry): WorkflowHeaderView => {
        const def = this.latest(entry.name);
        return {
          name: entry.name,
          title: def?.title ?? entry.title,
          description: def?.description ?? entry.description,
          category: def?.category ?? entry.category,
          version: def?.version ?? 0,
          available: def !== undefined,
        };
      });
    const available = headers.filter((header) => header.available);
    return {
      names: headers.map((header) => header.name),
      headers,
      defaultVersions: Object.fromEntries(available.map((header) => [header.name, header.version])),
      toolsList: available.map((header) => header.name),
      newToolsList: available
        .filter((header) => this.catalog.find((entry) => entry.name === header.name)?.new)
        .map((header) => header.name),
    };
  }
}
