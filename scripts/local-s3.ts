// A local S3-protocol store for `npm run cluster`: s3rver (from npm) over a folder, on loopback, with the bucket
// made and the multipart calls tus needs that s3rver lacks (tests/helpers/s3rver.ts). Every API node of the
// cluster points S3_* at it, so a file uploaded through one node downloads through the other.
//   node --import tsx scripts/local-s3.ts <folder> <port> [bucket]
import fs from "node:fs";
import { serveS3rver } from "../tests/helpers/s3rver";

const [directory, port, bucket = "tabula-files"] = process.argv.slice(2);
if (!directory || !port) {
  console.error("usage: node --import tsx scripts/local-s3.ts <folder> <port> [bucket]");
  process.exit(2);
}
fs.mkdirSync(directory, { recursive: true });
const { endpoint } = await serveS3rver({ directory, port: Number(port), bucket });
console.log(`READY ${endpoint} bucket ${bucket}`);
