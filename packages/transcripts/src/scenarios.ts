import { FLOW_SCENARIOS } from './flowScenarios.js';
import {
  accept,
  callTool,
  cancel,
  getTask,
  listen,
  PROTOCOL_VERSION,
  poll,
  pollStatus,
  type Scenario,
  TASK_CREATED,
  TASKS_ONLY,
  update,
} from './scenarioBuilders.js';
import { TOOLS } from './scenarioTools.js';

/** The lifecycle scenarios, in replay order. */
export const SCENARIOS: readonly Scenario[] = [
  ...FLOW_SCENARIOS,
  {
    scenario: 'cancel',
    title: 'Cancel',
    description: 'tasks/cancel moves a working task to cancelled; a second cancel is acknowledged and changes nothing.',
    tools: [TOOLS.slowCompute],
    checks: ['terminal-immutable', 'one-terminal-state'],
    steps: [
      callTool('call slow_compute for a minute', 'slow_compute', { seconds: 60 }, TASK_CREATED),
      cancel('tasks/cancel'),
      pollStatus('tasks/get until cancelled', 'cancelled'),
      cancel('tasks/cancel again: acknowledged'),
      getTask('tasks/get: still cancelled, unchanged'),
    ],
  },
  {
    scenario: 'failure',
    title: 'Failure',
    description: 'A tool that ends with a JSON-RPC error leaves its task failed, with the error and no result.',
    tools: [TOOLS.protocolErrorJob],
    checks: ['terminal-immutable', 'one-terminal-state'],
    steps: [
      callTool('call protocol_error_job as a task', 'protocol_error_job', {}, TASK_CREATED),
      pollStatus('tasks/get until failed', 'failed'),
      getTask('tasks/get: unchanged'),
    ],
  },
  {
    scenario: 'expiry',
    title: 'Expiry',
    description:
      'A finished task is dropped when its ttlMs (from createdAt) has passed: tasks/get then answers -32602 like an unknown task. Skipped when the TTL ends beyond the replay budget.',
    tools: [TOOLS.slowCompute],
    checks: ['terminal-immutable'],
    steps: [
      callTool('call slow_compute as a task', 'slow_compute', { seconds: 0 }, TASK_CREATED),
      pollStatus('tasks/get until completed', 'completed'),
      getTask('tasks/get before expiry: unchanged'),
      poll(
        'tasks/get after ttlMs: not found',
        'tasks/get',
        { taskId: '{{taskId}}' },
        { error: { code: -32602 } },
        {
          expiryOf: 'taskId',
          timeoutMs: 30_000,
        },
      ),
    ],
  },
  {
    scenario: 'listen-notifications',
    title: 'Listen notifications',
    description:
      'subscriptions/listen with the task id is acknowledged first, then notifications/tasks carry its states up to completed.',
    tools: [TOOLS.slowCompute],
    checks: ['terminal-immutable', 'one-terminal-state'],
    steps: [
      callTool('call slow_compute as a task', 'slow_compute', { seconds: 0.5 }, TASK_CREATED),
      listen('subscriptions/listen with the task id: acknowledged', 'tasks', { taskIds: ['{{taskId}}'] }),
      {
        kind: 'awaitNotification',
        name: 'notifications/tasks with status completed',
        stream: 'tasks',
        until: { method: 'notifications/tasks', params: { taskId: '{{taskId}}', status: 'completed' } },
        timeoutMs: 20_000,
      },
      { kind: 'closeStream', name: 'close the listen stream', stream: 'tasks' },
      getTask('tasks/get: as notified'),
    ],
  },
  {
    scenario: 'mrtr-then-task',
    title: 'MRTR then task',
    description:
      'A task-required tool first asks synchronously (input_required with requestState, no task yet); the retry with the answer creates the task.',
    tools: [TOOLS.toolWithTask],
    checks: ['declared-input-kinds', 'terminal-immutable'],
    steps: [
      callTool(
        'call test_tool_with_task: input_required, no task',
        'test_tool_with_task',
        {},
        {
          capture: { requestState: 'result.requestState' },
        },
      ),
      callTool(
        'retry with the answer and requestState: a task',
        'test_tool_with_task',
        {},
        {
          ...TASK_CREATED,
          more: { inputResponses: { user_name: accept({ name: 'Alice' }) }, requestState: '{{requestState}}' },
        },
      ),
      pollStatus('tasks/get until completed', 'completed'),
      getTask('tasks/get: unchanged'),
    ],
  },
  {
    scenario: 'cancel-race',
    title: 'Cancel race',
    description:
      'A cancel sent as the task completes: the task ends either completed or cancelled, exactly one of them, and stays so.',
    tools: [TOOLS.slowCompute],
    checks: ['one-terminal-state', 'terminal-immutable'],
    steps: [
      callTool('call slow_compute for no time', 'slow_compute', { seconds: 0 }, TASK_CREATED),
      cancel('tasks/cancel at once: acknowledged'),
      pollStatus('tasks/get until terminal', ['completed', 'cancelled'], {
        loosen: { result: { taskId: '{{taskId}}', status: { '<oneOf>': ['completed', 'cancelled'] } } },
      }),
      getTask('tasks/get again', { loosen: { result: { taskId: '{{taskId}}' } } }),
      cancel('tasks/cancel again: acknowledged'),
      getTask('tasks/get after the second cancel', { loosen: { result: { taskId: '{{taskId}}' } } }),
    ],
  },
  {
    scenario: 'principal-isolation',
    title: 'Principal isolation',
    description:
      "A second principal can neither see, answer, cancel nor listen to the first principal's task; the owner is unaffected. Needs two credentials.",
    tools: [TOOLS.slowCompute],
    checks: ['principal-isolation'],
    steps: [
      callTool('call slow_compute for a minute', 'slow_compute', { seconds: 60 }, TASK_CREATED),
      getTask('tasks/get as the other principal: not found', { as: 'other' }),
      update('tasks/update as the other principal: not found', 'any', { x: 1 }, { as: 'other' }),
      cancel('tasks/cancel as the other principal: not found', { as: 'other' }),
      listen(
        'subscriptions/listen as the other principal: acknowledged without the task',
        'other',
        { taskIds: ['{{taskId}}'] },
        { as: 'other' },
      ),
      { kind: 'closeStream', name: 'close the other listen stream', stream: 'other' },
      getTask('tasks/get as the owner: still working'),
      cancel('tasks/cancel as the owner'),
      pollStatus('tasks/get until cancelled', 'cancelled'),
    ],
  },
  {
    scenario: 'undeclared-input-kinds',
    title: 'Undeclared input kinds',
    description:
      'A request that does not declare elicitation never gets an elicitation input request, synchronously or inside its task.',
    tools: [TOOLS.capabilities, TOOLS.confirmDelete],
    checks: ['declared-input-kinds'],
    steps: [
      callTool(
        'call the capabilities tool declaring sampling only',
        TOOLS.capabilities.name,
        {},
        {
          caps: { sampling: {}, ...TASKS_ONLY },
        },
      ),
      callTool(
        'call confirm_delete declaring no input kind',
        'confirm_delete',
        { filename: 'b.txt' },
        {
          ...TASK_CREATED,
          caps: TASKS_ONLY,
        },
      ),
      pollStatus('tasks/get until terminal', ['completed', 'failed', 'cancelled'], { caps: TASKS_ONLY }),
    ],
  },
];

/** The protocol version recorded in each transcript. */
export const SCENARIO_PROTOCOL_VERSION = PROTOCOL_VERSION;

export type { Scenario } from './scenarioBuilders.js';
