// Workflow definitions are data: one module per workflow version holding a plain JSON-shaped
// object, listed here and validated when loaded. (Plain .ts rather than .json so that Node,
// esbuild and jest's ESM loader all import them alike.)
import type { CatalogEntry } from "../domain/registry";
import { blogWriterV1 } from "./blog-writer.v1";
import { catalog } from "./catalog";
import { engineCheckV1 } from "./fixtures/engine-check.v1";

export const CATALOG: CatalogEntry[] = catalog;

export const DEFINITIONS: unknown[] = [blogWriterV1];

/** Hidden workflows for the integration tests (WORKFLOWS_TEST_FIXTURES=true): never in headers. */
export const TEST_CATALOG: CatalogEntry[] = [
  { name: "EngineCheck", title: "Engine check", description: "Engine features", category: "test", hidden: true },
];
export const TEST_DEFINITIONS: unknown[] = [engineCheckV1];
