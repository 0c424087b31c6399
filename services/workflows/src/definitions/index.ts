// Workflow definitions are data: one module per workflow version holding a plain JSON-shaped
// object, listed here and validated when loaded. (Plain .ts rather than .json so that Node,
// esbuild and jest's ESM loader all import them alike.)
import type { CatalogEntry } from "../domain/registry";
import { blogWriterV1 } from "./blog-writer.v1";
import { catalog } from "./catalog";

export const CATALOG: CatalogEntry[] = catalog;

export const DEFINITIONS: unknown[] = [blogWriterV1];
