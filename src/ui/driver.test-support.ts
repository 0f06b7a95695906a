/** Drives a rendered Ink app in a test: waits for a frame, presses keys. Renders follow input and bus events within a few turns of the event loop. */
export function driver(ui: { stdin: { write(data: string): void } }, frame: () => string) {
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  return {
    /** Resolves once the frame satisfies `check`. */
    async until(check: (frame: string) => boolean, what: string): Promise<string> {
      for (let i = 0; i < 500; i++) {
        if (check(frame())) return frame();
        await turn();
      }
      throw new Error(`the frame never showed ${what}:\n${frame()}`);
    },
    async press(key: string): Promise<void> {
      ui.stdin.write(key);
      await turn();
    },
  };
}
