import {
  callTool,
  cancel,
  getTask,
  poll,
  pollStatus,
  type Scenario,
  TASK_CREATED,
  update,
} from './scenarioBuilders.js';
import { TOOLS } from './scenarioTools.js';

/** Polls until both questions of `multi_input` are outstanding and captures their keys. */
const bothOutstanding = () =>
  poll(
    'tasks/get until both questions are outstanding',
    'tasks/get',
    { taskId: '{{taskId}}' },
    { result: { status: 'input_required', inputRequests: { '<count>': 2 } } },
    {
      capture: { input1: 'result.inputRequests.$keys[0]', input2: 'result.inputRequests.$keys[1]' },
      // Which question gets the first key is the server's choice (both are asked at once).
      loosen: { result: { taskId: '{{taskId}}', status: 'input_required', inputRequests: { '<count>': 2 } } },
    },
  );

/** The first scenarios in replay order: results, task completion and input rounds. */
export const FLOW_SCENARIOS: readonly Scenario[] = [
  {
    scenario: 'immediate-result',
    title: 'Immediate result',
    description:
      'A tool that never runs as a task answers at once, even for a client that declares the Tasks extension.',
    tools: [TOOLS.greet],
    checks: [],
    steps: [callTool('call greet', 'greet', { name: 'World' })],
  },
  {
    scenario: 'task-to-completion',
    title: 'Task to completion',
    description:
      'tools/call creates a task; tasks/get follows it to completed; later gets, a cancel and an update change nothing.',
    tools: [TOOLS.slowCompute],
    checks: ['terminal-immutable', 'one-terminal-state'],
    steps: [
      callTool('call slow_compute as a task', 'slow_compute', { seconds: 0.3 }, TASK_CREATED),
      pollStatus('tasks/get until completed', 'completed'),
      getTask('tasks/get again: unchanged'),
      cancel('tasks/cancel of a completed task: acknowledged, nothing changes'),
      update('tasks/update of a completed task: acknowledged, ignored', 'no_such_key', { x: 1 }),
      getTask('tasks/get after cancel and update: unchanged'),
    ],
  },
  {
    scenario: 'input-round',
    title: 'Input round',
    description:
      'A task asks one question (input_required), tasks/update answers it, the task completes; answering again changes nothing.',
    tools: [TOOLS.confirmDelete],
    checks: ['input-keys-unique', 'terminal-immutable', 'declared-input-kinds'],
    steps: [
      callTool('call confirm_delete as a task', 'confirm_delete', { filename: 'a.txt' }, TASK_CREATED),
      poll(
        'tasks/get until input_required',
        'tasks/get',
        { taskId: '{{taskId}}' },
        { result: { status: 'input_required' } },
        {
          capture: { input1: 'result.inputRequests.$keys[0]' },
        },
      ),
      update('tasks/update answers the key', '{{input1}}', { confirm: true }),
      pollStatus('tasks/get until completed', 'completed'),
      update('tasks/update of the answered key again: acknowledged, ignored', '{{input1}}', { confirm: false }),
      getTask('tasks/get: unchanged'),
    ],
  },
  {
    scenario: 'concurrent-inputs',
    title: 'Two concurrent inputs',
    description:
      'A task asks two questions at once under two keys; answering one leaves the other outstanding; both answered, it completes.',
    tools: [TOOLS.multiInput],
    checks: ['input-keys-unique', 'terminal-immutable', 'declared-input-kinds'],
    steps: [
      callTool('call multi_input as a task', 'multi_input', {}, TASK_CREATED),
      bothOutstanding(),
      update('tasks/update answers the first key only', '{{input1}}', { name: 'first' }),
      poll(
        'tasks/get until only the second key is left',
        'tasks/get',
        { taskId: '{{taskId}}' },
        { result: { status: 'input_required', inputRequests: { '<count>': 1 } } },
        {
          loosen: {
            result: {
              taskId: '{{taskId}}',
              status: 'input_required',
              inputRequests: { '{{input2}}': '<present>', '{{input1}}': '<absent>' },
            },
          },
        },
      ),
      update('tasks/update answers the second key', '{{input2}}', { name: 'second' }),
      pollStatus('tasks/get until completed', 'completed'),
      getTask('tasks/get: unchanged'),
    ],
  },
  {
    scenario: 'concurrent-answers',
    title: 'Two answers at once',
    description:
      'Both outstanding questions are answered by two tasks/update requests sent at the same time; both are delivered and the task completes.',
    tools: [TOOLS.multiInput],
    checks: ['input-keys-unique', 'terminal-immutable'],
    steps: [
      callTool('call multi_input as a task', 'multi_input', {}, TASK_CREATED),
      bothOutstanding(),
      {
        kind: 'parallel',
        name: 'tasks/update of each key, concurrently',
        steps: [
          update('tasks/update answers the first key', '{{input1}}', { name: 'first' }),
          update('tasks/update answers the second key', '{{input2}}', { name: 'second' }),
        ],
      },
      pollStatus('tasks/get until completed', 'completed'),
      getTask('tasks/get: unchanged'),
    ],
  },
];
