// Types of scripts/build-server.mjs, for the tests that bundle the server or start it.
export declare const SERVER_DIR: string;
/** Bundles server.ts and lib/ into `outdir` (.next/tabula-server by default). */
export declare const buildServer: (outdir?: string) => Promise<void>;
/** The newest modification time of a file, or of anything in a folder; 0 when missing. `skip`: folders left out. */
export declare const newestMtime: (p: string, skip?: Set<string>) => number;
/** The bundle's entry (`server.mjs`) when it was built after the last change to what it is made from; else undefined. */
export declare const currentBundle: (outdir?: string) => string | undefined;
