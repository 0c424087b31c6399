import mongoose, { type Connection, type Model, type Schema } from "mongoose";
import type { Logger } from "pino";

/**
 * Opens the service's own database (`<namespace>_<service>`) on a MongoDB-compatible server
 * (MongoDB 7+ or FerretDB 1.24; see DESIGN.md section 5 for the subset we use).
 */
export async function connectMongo(url: string, dbName: string, logger: Logger): Promise<Connection> {
  const connection = mongoose.createConnection(url, {
    dbName,
    serverSelectionTimeoutMS: 15_000,
    autoIndex: true,
  });
  await connection.asPromise();
  logger.info({ db: dbName }, "mongodb connected");
  return connection;
}

/** Database name of a service within a namespace: "crafter" + "auth" → "crafter_auth". */
export function databaseName(namespace: string, service: string): string {
  return `${namespace}_${service}`.replace(/-/g, "_");
}

/**
 * The model `name` on `connection`, compiled from `schema` the first time and reused after
 * (mongoose refuses to compile one name twice on a connection).
 */
export function modelOn<T>(connection: Connection, name: string, schema: Schema<T>, collection?: string): Model<T> {
  return (connection.models[name] as Model<T> | undefined) ?? connection.model<T>(name, schema, collection);
}
