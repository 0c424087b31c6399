import type { WorkflowsDeps } from "../deps";
import type { HeadersView } from "../domain/registry";

/** Every workflow of the spec, with `available` for those that have a definition. */
export function getHeaders(deps: Pick<WorkflowsDeps, "registry">): HeadersView {
  return deps.registry.headers();
}
