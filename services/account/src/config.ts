import { baseConfigSchema } from "@crafter/kit";
import { z } from "zod";

/** Environment of the account service: the kit's base settings plus its own port. */
export const configSchema = baseConfigSchema.extend({
  /** Port of the Connect/gRPC server (HTTP/2 cleartext). */
  PORT: z.coerce.number().int().min(0).max(65_535).default(50052),
});

export type Config = z.infer<typeof configSchema>;
