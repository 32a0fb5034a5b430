// How many console statements run at once, per member and in this process: a console request holds a child
// process or a database connection for up to its time limit, so past the bounds it is turned away at once
// (429 with Retry-After) rather than queued behind other members' work.
import { ApiError } from "../errors";

export type ConsoleSlots = {
  /** Takes a slot for `accountId` and returns its release; throws a 429 past either bound. */
  take: (accountId: number) => () => void;
  running: () => number;
};

const RETRY_SECONDS = 1;

const busy = (message: string) => new ApiError("rate_limited", message, { headers: { "Retry-After": String(RETRY_SECONDS) } });

export const createConsoleSlots = ({ perMember, perInstall }: { perMember: number; perInstall: number }): ConsoleSlots => {
  const byMember = new Map<number, number>();
  let total = 0;
  return {
    take: (accountId) => {
      const mine = byMember.get(accountId) ?? 0;
      if (mine >= perMember) throw busy(`You already run ${perMember} SQL console queries at once, the most one member may; retry when one ends.`);
      if (total >= perInstall) throw busy(`The server already runs ${perInstall} SQL console queries at once, its most; retry in a moment.`);
      byMember.set(accountId, mine + 1);
      total++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        total--;
        const left = (byMember.get(accountId) ?? 1) - 1;
        if (left > 0) byMember.set(accountId, left);
        else byMember.delete(accountId);
      };
    },
    running: () => total,
  };
};
