import { baseConfigSchema } from "@crafter/kit";
import { z } from "zod";

/**
 * Environment of the contacts service: the kit's base settings (AUTH_URL and every server address)
 * plus its own. A peer it calls gets a required `<PEER>_URL: z.url()` here (no default) and a
 * `calls` entry in services/manifest.yaml.
 */
export const configSchema = baseConfigSchema.extend({
  /** Port of the Connect/gRPC server (HTTP/2 cleartext); services/manifest.yaml's port. */
  PORT: z.coerce.number().int().min(0).max(65_535).default(50057),
});

export type Config = z.infer<typeof configSchema>;
