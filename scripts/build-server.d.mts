// Types of scripts/build-server.mjs, for the tests that bundle the server.
export declare const SERVER_DIR: string;
/** Bundles server.ts and lib/ into `outdir` (.next/tabula-server by default). */
export declare const buildServer: (outdir?: string) => Promise<void>;
