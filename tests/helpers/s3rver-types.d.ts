// s3rver ships no types; the test harness (s3rver.ts) uses only its constructor, configureBuckets and callback.
declare module "s3rver" {
  import type { RequestListener } from "node:http";
  export default class S3rver {
    constructor(options: { silent?: boolean; directory: string; configureBuckets?: { name: string }[] });
    configureBuckets(): Promise<void>;
    callback(): RequestListener;
  }
}
