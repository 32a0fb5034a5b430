import { clusterScript } from "./cluster-fixture";

// A fresh cluster per run (wipe first), removed at the end unless KEEP_CLUSTER=1.
export const setup = () => {
  clusterScript("wipe");
  clusterScript("up");
};

export const teardown = () => {
  if (process.env.KEEP_CLUSTER !== "1") clusterScript("wipe");
};
