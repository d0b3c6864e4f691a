/** The tools the scenarios call, with the behaviour each transcript relies on (listed in each transcript). */
export const TOOLS = {
  greet: { name: 'greet', behaviour: 'never a task: answers `Hello, <name>!` at once' },
  slowCompute: {
    name: 'slow_compute',
    behaviour:
      'a task when the Tasks extension is declared: waits `seconds`, completes with `Computed result after <seconds>s`; cancellable',
  },
  protocolErrorJob: { name: 'protocol_error_job', behaviour: 'a task that ends `failed` with JSON-RPC error -32603' },
  confirmDelete: {
    name: 'confirm_delete',
    behaviour:
      'a task that asks one form elicitation `{ confirm: boolean }`, then completes `deleted <filename>` on accept',
  },
  multiInput: {
    name: 'multi_input',
    behaviour: 'a task that asks two elicitations at once and completes when both are answered',
  },
  toolWithTask: {
    name: 'test_tool_with_task',
    behaviour: 'asks `user_name` synchronously (MRTR, `requestState`), then runs as a task greeting the name',
  },
  capabilities: {
    name: 'test_input_required_result_capabilities',
    behaviour:
      'asks synchronously only for the input kinds the request declared (sampling `capital_question`, elicitation `user_name`, roots `client_roots`)',
  },
};
