/**
 * The live task board: one card per call, driven by `McpClient` (listen notifications or polling), with the
 * person's answers to input requests routed to the card whose call asked, and one shared timer for elapsed times.
 */
import {
  type InputContext,
  type InputHandlers,
  type McpClient,
  TaskCancelledError,
  TaskExpiredError,
  TaskFailedError,
  type TaskJournalEntry,
  TaskNotFoundError,
} from '@mcp-tasks/client';
import { ProtocolError, TransportError } from '@mcp-tasks/protocol';
import { setText } from './dom.js';
import { askElicitation, askRoots, askSampling } from './inputForms.js';
import { TaskCard } from './taskCard.js';
import type { WaitingInput } from './waitingInput.js';

/** What the board needs from the page. */
export interface BoardOptions {
  readonly list: HTMLElement;
  readonly count: HTMLElement;
  /** Counts the open input requests in the board heading. */
  readonly waiting: WaitingInput;
  /** The roots list the person edits (one URI per line). */
  readonly roots: () => string;
  /** A drive failed because the server could not be reached; the page reconnects and calls {@link Board.resume}. */
  readonly onConnectionLost: (error: unknown) => void;
}

interface Drive {
  readonly card: TaskCard;
  controller: AbortController;
}

/** The board. Attach a client before calling or resuming. */
export class Board {
  readonly #options: BoardOptions;
  /**
   * Cards of calls that are not (yet) tasks, by the arguments object the board passed to `callTool`: an MRTR round
   * has no task id, and the client hands input handlers the call's params as the application passed them.
   */
  readonly #byArguments = new WeakMap<object, TaskCard>();
  readonly #byTask = new Map<string, Drive>();
  readonly #all = new Set<TaskCard>();
  #client: McpClient | undefined;

  constructor(options: BoardOptions) {
    this.#options = options;
    setInterval(() => this.#tick(), 1000);
  }

  /** Input handlers that show each request on the card of the call that asked, named by its tool. */
  readonly handlers: InputHandlers = {
    elicitation: (params, context) =>
      this.#options.waiting.track(askElicitation(this.#cardFor(context).inputs, params, context)),
    sampling: (params, context) =>
      this.#options.waiting.track(askSampling(this.#cardFor(context).inputs, params, context)),
    roots: (_params, context) =>
      this.#options.waiting.track(askRoots(this.#cardFor(context).inputs, this.#options.roots(), context)),
  };

  /** Uses `client` for every drive from now on (after a connect or a reconnect). */
  attach(client: McpClient): void {
    this.#client = client;
  }

  /**
   * Forgets the previous server: stops following its tasks and removes their cards (a connect to another server,
   * or a failed one, must not leave cards that act on tasks that server never had). Its journal stays.
   */
  clear(): void {
    for (const drive of this.#byTask.values()) drive.controller.abort(new Error('connected to another server'));
    this.#byTask.clear();
    this.#all.clear();
    this.#client = undefined;
    this.#options.list.replaceChildren();
    setText(this.#options.count, '');
  }

  /** Calls `name` and follows it to its end on a new card. */
  call(name: string, args: Readonly<Record<string, unknown>>): TaskCard {
    const client = this.#requireClient();
    const drive: Drive = {
      card: new TaskCard(name, () => void this.#cancel(drive)),
      controller: new AbortController(),
    };
    this.#add(drive.card);
    const { signal } = drive.controller;
    // A copy of its own, so two calls never share the object their input requests are routed by.
    const callArgs = { ...args };
    this.#byArguments.set(callArgs, drive.card);
    void client
      .callTool(name, callArgs, {
        signal,
        onStatus: (task) => {
          this.#byTask.set(task.taskId, drive);
          drive.card.showTask(task);
        },
        onProgress: ({ progress, total, message }) => {
          drive.card.setProgress(total === undefined ? undefined : progress / total);
          if (message !== undefined) drive.card.showMessage(message);
        },
      })
      .then(
        (result) => drive.card.showResult(result, drive.card.status === 'calling' ? 'direct' : 'completed'),
        (error: unknown) => this.#settle(drive, error),
      );
    return drive.card;
  }

  /**
   * Picks up journaled tasks no card is driving (page load, another tab's new task) and tasks whose drive stopped
   * when the connection dropped. Unknown entries get a new card.
   */
  resume(entries: readonly TaskJournalEntry[]): void {
    for (const entry of entries) {
      let drive = this.#byTask.get(entry.taskId);
      if (drive !== undefined && drive.card.status !== 'disconnected') continue;
      if (drive === undefined) {
        const created: Drive = {
          card: new TaskCard(entry.name, () => void this.#cancel(created), Date.parse(entry.recordedAt)),
          controller: new AbortController(),
        };
        drive = created;
        this.#byTask.set(entry.taskId, drive);
        this.#add(drive.card);
      } else {
        drive.controller = new AbortController();
      }
      this.#follow(entry.taskId, drive);
    }
  }

  #follow(taskId: string, drive: Drive): void {
    const { signal } = drive.controller;
    drive.card.showNote('working', 'resuming…');
    void this.#requireClient()
      .resumeTask(taskId, { signal, onStatus: (task) => drive.card.showTask(task) })
      .then(
        (result) => drive.card.showResult(result, 'completed'),
        (error: unknown) => this.#settle(drive, error),
      );
  }

  /** Cancels on the server first (the tool sees its signal), then withdraws open forms and shows the final state. */
  async #cancel(drive: Drive): Promise<void> {
    const client = this.#requireClient();
    const taskId = [...this.#byTask].find(([, d]) => d === drive)?.[0];
    try {
      if (taskId !== undefined) await client.cancelTask(taskId);
      drive.controller.abort(new Error('Cancelled by the person'));
      if (taskId !== undefined) drive.card.showTask(await client.getTask(taskId));
      else drive.card.showNote('cancelled', 'Cancelled before the server answered');
    } catch (error) {
      this.#settle(drive, error);
    }
  }

  #settle(drive: Drive, error: unknown): void {
    const { card } = drive;
    if (drive.controller.signal.aborted && card.done) return;
    if (error instanceof TaskFailedError) {
      const { code, message, data } = error.error;
      card.showError({ code, message, data }, 'failed');
    } else if (error instanceof TaskCancelledError) {
      card.showNote('cancelled', error.statusMessage ?? 'Cancelled');
    } else if (error instanceof TaskNotFoundError || error instanceof TaskExpiredError) {
      card.showNote('lost', 'The server no longer knows this task (it expired, or the server lost its state)');
    } else if (error instanceof TransportError && error.code !== 'http_status') {
      card.showNote('disconnected', 'Connection lost; this task resumes when the server is back');
      this.#options.onConnectionLost(error);
    } else if (error instanceof ProtocolError) {
      card.showError({ code: error.code, message: error.message, data: error.data }, 'error');
    } else if (!drive.controller.signal.aborted) {
      card.showNote('error', error instanceof Error ? error.message : String(error));
    }
  }

  /** The card an input request belongs to: by its task id inside a task, else by the call's arguments. */
  #cardFor(context: InputContext): TaskCard {
    const args = context.params?.arguments;
    const card =
      context.taskId !== undefined
        ? this.#byTask.get(context.taskId)?.card
        : typeof args === 'object' && args !== null
          ? this.#byArguments.get(args)
          : undefined;
    if (card === undefined) throw new Error(`input request for a call this page is not driving (${context.method})`);
    return card;
  }

  #requireClient(): McpClient {
    if (this.#client === undefined) throw new Error('not connected');
    return this.#client;
  }

  #add(card: TaskCard): void {
    this.#all.add(card);
    this.#options.list.prepend(card.element);
    setText(this.#options.count, `(${this.#all.size})`);
    card.tick(Date.now());
  }

  #tick(): void {
    const now = Date.now();
    for (const card of this.#all) if (!card.done) card.tick(now);
  }
}
