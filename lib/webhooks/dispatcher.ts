import type { App } from "../app";

export const startDispatcher = (_app: App) => ({ stop: async () => {} });
