/** Waits until `done` holds (polling every 100 ms), failing with `what` after `ms`. */
export const eventually = async (what: string, done: () => boolean | Promise<boolean>, ms = 60_000) => {
  const until = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > until) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};
