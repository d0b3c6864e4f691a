/**
 * Where one exchange writes its response; each front (fetch, node:http) implements it over its own I/O. The
 * exchange calls either `reply` once, or `openStream`, any number of `write`s, then `end` or `destroy`.
 */
export interface ResponseSink {
  /** Sends the whole response: a JSON body, or none (`undefined`, e.g. 202), with any extra `headers`. */
  reply(status: number, body: string | undefined, headers?: Readonly<Record<string, string>>): void;
  /** Starts a 200 response with `headers` whose body is written piecewise. */
  openStream(headers: Readonly<Record<string, string>>): void;
  /** Writes one piece of the body; returns how many bytes are still queued, unsent, for this response. */
  write(chunk: string): number;
  /** Completes the body. */
  end(): void;
  /** Drops the response at once (a reader that does not keep up). */
  destroy(): void;
  /**
   * Someone now needs to learn that the client went away (the runtime read `context.signal`): a front whose
   * watching costs something starts it here rather than for every request. Optional; may be called more than once.
   */
  watchClient?(): void;
}
