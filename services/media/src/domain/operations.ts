import { appError } from "@crafter/kit";
import { type Operation, operationsSchema } from "@crafter/media-language";

/**
 * The edit operations of a request (a JSON array, see @crafter/media-language).
 * @throws CR_ERR_BAD_REQUEST naming the first bad operation field.
 */
export function parseOperations(json: string): Operation[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw appError("CR_ERR_BAD_REQUEST", "operations must be a JSON array.", { operations: "Not JSON" });
  }
  const parsed = operationsSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = ["operations", ...issue.path].join(".");
    throw appError("CR_ERR_BAD_REQUEST", `${path}: ${issue.message}`, { [path]: issue.message });
  }
  return parsed.data;
}
