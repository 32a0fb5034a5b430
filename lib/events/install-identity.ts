import type { Config } from "../config";
import { metaSchemaName } from "../db/engine";

/**
 * What one install is (names its event channel and locks): TABULA_INSTALL_ID, else its metadata schema name, else
 * its data folder. Never the server's host:port: processes on different nodes of one cluster are one install.
 */
export const installIdentity = (config: Config) => {
  if (config.installId) return `id:${config.installId}`;
  if (config.engine === "sqlite") return `sqlite:${config.dataDir}`;
  return `mysql:${metaSchemaName(config.databaseUrl!)}`;
};
