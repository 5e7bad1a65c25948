import { useEffect, useState } from "react";

/**
 * A rate limit the server reported: no new code until `until` (ms since the epoch), for one
 * address (the per-address wait and caps) or, with `address` null, for any (the per-client limit).
 */
type Cooldown = { until: number; address: string | null };

export type CodeCooldown = {
  /** Whether a rate limit stops a new code to `address` (null: to any address) now. */
  blocks(address: string | null): boolean;
  /** Whole seconds left, at least 1 while a wait runs (0 with none). */
  secondsLeft: number;
  /** Starts the wait the server named: for `address`, or for any address (null). */
  start(seconds: number, address: string | null): void;
  /** A code went to `address`: a wait for that address is over (one for any address stays). */
  endFor(address: string): void;
};

/** The wait before a new code can be asked for, counted down once a second until it is over. */
export function useCodeCooldown(): CodeCooldown {
  const [cooldown, setCooldown] = useState<Cooldown | null>(null);
  // The time the countdown was last drawn at; ticks once a second while a cooldown runs.
  const [clock, setClock] = useState(0);

  // The countdown: redrawn on each whole second left, and over once the wait has passed.
  useEffect(() => {
    if (cooldown === null) return;
    let timer: number | undefined;
    const tick = () => {
      const now = Date.now();
      if (now >= cooldown.until) {
        setCooldown(null);
        return;
      }
      setClock(now);
      timer = window.setTimeout(tick, (cooldown.until - now) % 1000 || 1000);
    };
    tick();
    return () => window.clearTimeout(timer);
  }, [cooldown]);

  return {
    blocks: (address) => cooldown !== null && (cooldown.address === null || cooldown.address === address),
    secondsLeft: cooldown === null ? 0 : Math.max(1, Math.ceil((cooldown.until - clock) / 1000)),
    start(seconds, address) {
      const now = Date.now();
      setClock(now);
      setCooldown({ until: now + seconds * 1000, address });
    },
    endFor(address) {
      setCooldown((current) => (current?.address === address ? null : current));
    },
  };
}
